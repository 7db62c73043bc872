// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one object the window forwards intent to: it owns the in-process fault lab, a Batch per run of the
// Run button (core/session/batch.h: the engine on the batch's own axis, t = 0 at its start, shared with
// the lab, recorded and journalled) and the LiveSession the views read. Widgets never touch the engine or
// the lab directly.

#include "engine/scheduler.h"
#include "run/runplan.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <QThreadPool>

#include <memory>

class Batch;
class Clock;
class Session;
class SessionRecorder;
class FaultServer;
class Observation;
class LiveSession;
struct FaultScenario;
struct RunSummary;

class RunController : public QObject
{
    Q_OBJECT
public:
    // CLOCK and SCHEDULER (the program's; see app/main.cpp) must outlive the controller.
    RunController(const Clock& clock, Scheduler& scheduler, QObject* parent = nullptr);
    ~RunController() override;

    LiveSession* session() const { return m_session; }
    FaultServer* lab() const { return m_lab; }
    // The window's clock and scheduler, which live replays run on too.
    const Clock& clock() const;
    Scheduler& scheduler() const;

    // ---- the built-in fault lab
    // Starts the lab on 127.0.0.1 (port 0) with SCENARIO_NAME (a built-in name or a file); false with
    // lastError() when it cannot listen or the scenario does not load.
    bool startLab(const QString& scenarioName);
    void setLabEnabled(bool enabled);
    bool isLabEnabled() const;
    bool loadScenario(const QString& nameOrPath);
    // A scenario edited in the window (already through ScenarioLoader): the lab plays it from now on.
    void applyScenario(const FaultScenario& scenario);
    QString scenarioName() const;
    void resetLab();
    // Reset the lab (ledger, step positions) before each batch, so the ledger matches the attempts shown.
    void setResetLabBeforeRun(bool reset) { m_resetLabBeforeRun = reset; }
    bool resetLabBeforeRun() const { return m_resetLabBeforeRun; }

    // ---- runs
    // Starts a batch of PLAN.repeat runs (the previous batch's views are cleared). False (and
    // lastError()) when nothing could be sent: a run is in progress, the lab is off, the URL is bad.
    bool run(const RunPlan& plan);
    void stop();
    bool isRunning() const { return m_running; }

    // ---- observing a client (Send to ▸ Observe a client)
    // Whatever the lab receives, from any client, becomes observed runs (the client's own retries inferred),
    // live in the views and recorded like a batch; stop() ends it and the session becomes the current one.
    // False (and lastError()) while a batch runs or with the lab off.
    // ASPROXY (Send to ▸ Observe a client as its proxy, issue 31 §3): a second lab starts as the client's
    // forward proxy, decrypting with the Retrylab CA, and what it forwards is observed instead.
    bool observe(bool asProxy = false);
    bool isObserving() const { return m_observation != nullptr; }
    // While observing as a proxy: that lab, the shell lines that make a terminal's programs use it, and the
    // CA's fingerprint. Null / empty otherwise.
    FaultServer* proxyLab() const { return m_proxy; }
    QString proxyShellLines() const { return m_proxyShell; }
    QString proxyCaFingerprint() const { return m_proxyFingerprint; }
    QString proxyCaPath() const { return m_proxyCaPath; }
    // The window's tick per host: an unticked host's tunnels are relayed untouched from now on.
    void setProxyHostIntercepted(const QString& host, bool intercepted);
    int submitted() const { return m_submitted; }
    int finished() const { return m_finished; }
    int succeeded() const { return m_succeeded; }
    int attempts() const { return m_attempts; }
    // Answers of the lab's fallback (no route of the scenario matched) in the current batch.
    int noRouteAnswers() const { return m_noRoute; }

    // ---- recording
    // Every batch is recorded into a session file in DIRECTORY (journalled while it runs, so a crash loses
    // nothing; saved off the GUI thread when the batch ends). Empty: no recording. The default is
    // defaultRecordingDirectory(); the newest keepRecordings files are kept, older ones deleted.
    static QString defaultRecordingDirectory();
    static constexpr int keepRecordings = 50;
    void setRecordingDirectory(const QString& directory) { m_recordingDir = directory; }
    QString recordingDirectory() const { return m_recordingDir; }
    // Blocks until the recordings handed to the background are on disk (tests, quitting).
    bool waitForRecordings(int msecs = -1) { return m_savePool.waitForDone(msecs); }

    QString lastError() const { return m_error; }
    QString statusText() const;

Q_SIGNALS:
    void runningChanged(bool running);
    void progressChanged(int finished, int total);
    void statusChanged(const QString& text);
    void labChanged(); // listening state or scenario changed, or the lab was reset
    void proxyChanged(); // the proxy lab started or stopped (observing as a proxy)
    // A batch ended: SESSION is what it recorded; it is being saved to PATH (recordingSaved follows).
    void batchRecorded(std::shared_ptr<const Session> session, const QString& path);
    void recordingSaved(const QString& path, bool ok, const QString& error);

private:
    void onRunFinished(const RunSummary& run);
    void onIdle();
    void cancelBeats();
    void fail(const QString& message);
    void startRecording();
    void finishRecording();
    void finishObserving();
    void pruneRecordings() const;

    LiveSession* m_session = nullptr;
    FaultServer* m_lab = nullptr;
    FaultServer* m_proxy = nullptr; // while observing as a proxy (runcontrollerproxy.cpp)
    QString m_proxyShell;
    QString m_proxyFingerprint;
    QString m_proxyCaPath;
    QStringList m_proxyPassThrough;
    bool startProxyLab();
    void stopProxyLab();
    const Clock& m_clock;
    Scheduler& m_scheduler;
    QList<Scheduler::TaskId> m_beats; // runs still to start on the beat (RunPlan::interval), in order
    std::unique_ptr<Batch> m_batch;
    std::unique_ptr<Observation> m_observation;
    QString m_observationPath;
    QString m_recordingDir;
    QThreadPool m_savePool;
    bool m_resetLabBeforeRun = true;
    bool m_recording = false; // the batch journals into the recordings folder
    bool m_running = false;
    bool m_stopping = false;
    int m_submitted = 0;
    int m_finished = 0;
    int m_succeeded = 0;
    int m_attempts = 0;
    int m_noRoute = 0;
    QString m_routeProblem; // the batch's request matches no route (said in the status while it runs)
    QString m_error;
};
