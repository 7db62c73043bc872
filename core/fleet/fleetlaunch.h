// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Starts a fleet's Locust processes (issue 32 §1): a headless master, and the local workers, each a QProcess
// on the same locustfile (resilience-fleets.md §3a: one worker process a core). The master writes the
// attempts to `recordPath` and quits by itself once every worker said it was done (locustfile.h); the
// launch then stops whatever is left and reports `finished`.

#include "policy/retrypolicy.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QTimer;

struct FleetLaunchOptions
{
    QString locust = QStringLiteral("locust"); // the program (RETRYLAB_LOCUST overrides it in the CLI)
    QString locustfile;
    QString recordPath; // where the master writes the attempts
    int users = 1;
    double spawnRate = 1;
    int expectWorkers = 1; // the master waits for this many before it starts
    int localWorkers = 1; // started here (0: all of them come from elsewhere)
    QString bindHost = QStringLiteral("127.0.0.1"); // the master's listening address
    quint16 port = 0; // the master's port (0: a free one)
    Millis runLimit { 600000 }; // the master's own run time limit (-t), a safety net
    Millis workerWait { 60000 }; // how long the master waits for the expected workers
};

class FleetLaunch : public QObject
{
    Q_OBJECT
public:
    explicit FleetLaunch(QObject* parent = nullptr);
    ~FleetLaunch() override;

    // False with errorString() when the master cannot start.
    bool start(const FleetLaunchOptions& options);
    void stop(); // ends every process now
    quint16 port() const { return m_port; }
    QString errorString() const { return m_error; }
    QString masterLog() const { return m_masterLog; } // what the master wrote to stderr (its tail)
    // The command line of one worker (to start one elsewhere, or here).
    static QStringList workerArguments(const QString& locustfile, const QString& masterHost, quint16 port);

signals:
    void finished(int masterExitCode); // the master ended (every local worker has been stopped too)

private:
    void onMasterFinished(int exitCode);
    void startWorker();
    static quint16 freePort(const QString& host);

    FleetLaunchOptions m_options;
    std::unique_ptr<QProcess> m_master;
    std::vector<std::unique_ptr<QProcess>> m_workers;
    quint16 m_port = 0;
    QString m_error;
    QString m_masterLog;
    bool m_done = false;
};
