// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Conformance tab (issue 13 §3): pick a policy (a preset or the policy editor's), a suite and a client
// command, run it (each case against its own lab, as `retrylab conform` does), and see every case pass or
// fail with its findings; or judge the session the views show. A finding's link shows that case's
// attempts on the timeline, the attempt it is about selected. Reports save as JUnit XML or JSON.

#include "conform/conformancereport.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class Clock;
class ConformanceModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;
class QToolButton;
class Scheduler;
class Session;

class ConformanceView final : public QWidget
{
    Q_OBJECT
public:
    ConformanceView(const Clock& clock, Scheduler& scheduler, QWidget* parent = nullptr);
    ~ConformanceView() override;

    // Where "The policy editor's policy" comes from (nullopt while the editor's policy has problems).
    void setEditorPolicy(std::function<std::optional<RetryPolicy>()> provider);
    // The session the views show, judged by "Judge the shown session".
    void setShownSession(std::shared_ptr<const Session> session);

    ConformanceModel* model() const { return m_model; }
    QComboBox* policyBox() const { return m_policy; }
    QComboBox* suiteBox() const { return m_suite; }
    QLineEdit* commandEdit() const { return m_command; }
    QPushButton* runButton() const { return m_run; }
    QTableView* table() const { return m_table; }
    QTextBrowser* details() const { return m_details; }
    bool isRunning() const;

    // Adds a suite file to the suite box and selects it; false (the reason in the summary line) when unreadable.
    bool addSuiteFile(const QString& path);
    void runSuite();
    // Judges COMMAND on the standard suite against the policy editor's policy (the Export pane's "Check with
    // a real client"; WHAT names the exported code in the summary). False when a run is already going.
    bool judgeCommand(const QString& command, const QString& what);
    void stop();
    void judgeShownSession();
    // The report of what the table holds, for saving (JUnit, JSON) and for tests.
    ConformanceReport report() const;
    // Shows case ROW's attempts on the timeline with ATTEMPT selected (1 = the first).
    void showCaseAttempts(int row, int attempt);

Q_SIGNALS:
    void showAttemptsRequested(std::shared_ptr<const Session> session, const QString& title, int runId, int attempt);
    void statusMessage(const QString& text);
    void runningChanged(bool running);

private:
    std::optional<RetryPolicy> chosenPolicy(QString* error) const;
    void chooseSuiteFile();
    void saveReport(bool junit);
    void showDetails(int row);
    void setBusy(bool busy);

    const Clock& m_clock;
    Scheduler& m_scheduler;
    std::function<std::optional<RetryPolicy>()> m_editorPolicy;
    std::shared_ptr<const Session> m_shown;
    std::unique_ptr<ConformanceRunner> m_runner;
    ConformanceModel* m_model;
    QComboBox* m_policy;
    QComboBox* m_suite;
    QLineEdit* m_command;
    QPushButton* m_run;
    QPushButton* m_stop;
    QPushButton* m_judgeSession;
    QToolButton* m_save;
    QLabel* m_summary;
    QTableView* m_table;
    QTextBrowser* m_details;
    QString m_suiteName;
    QString m_policyName;
    QDateTime m_startedUtc;
    QStringList m_commandLine;
};
