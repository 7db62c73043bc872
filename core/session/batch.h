// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One batch of runs, wired the same way for every front end (`retrylab run`, the window, replays): the
// retry engine on the batch's own time axis (t = 0 when the batch is made, on the clock and scheduler the
// caller injects — the program's real pair from app/main.cpp, or a replay's virtual one), the in-process
// fault lab stamping its events on that axis, and a SessionRecorder collecting everything into a Session
// (journalled to disk when a path is given, so a crash loses no finished attempt).

#include "engine/batchtime.h"
#include "engine/retryengine.h"
#include "session/session.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

class FaultServer;
class SessionRecorder;
class VirtualScheduler;
struct FaultScenario;

class Batch final : public QObject
{
    Q_OBJECT
public:
    // CLOCK and SCHEDULER must outlive the batch.
    Batch(const Clock& clock, Scheduler& scheduler, QObject* parent = nullptr);
    ~Batch() override;

    RetryEngine& engine() { return *m_engine; }
    const BatchClock& clock() const { return m_clock; }
    Scheduler& scheduler() { return m_scheduler; }

    // When the batch runs on SCHEDULER (the one it was made with, on a VirtualClock): time runs for real
    // while an attempt is on the wire and jumps over every wait in between.
    void skipWaits(VirtualScheduler& scheduler);
    void setConcurrency(int concurrency);
    void setBaseSeed(std::uint64_t seed) { m_engine->setBaseSeed(seed); }
    // The in-process lab the requests go to (not owned): its events go on the batch's axis and into the
    // session, with SCENARIO (the scenario's JSON source) recorded beside them.
    void useLab(FaultServer* lab, const QJsonObject& scenario);
    // Records into a journal beside SESSIONPATH while the batch runs (before submitting). Without it the
    // session is kept in memory only.
    bool journalTo(const QString& sessionPath, QString* error);
    void setSessionSource(const QString& source); // "run", "replay-offline", …
    void setRedaction(const RedactionSettings& settings);

    // Runs under a policy equal to POLICY are recorded with CHANGES beside it (what `--set` changed in the
    // preset or file it came from). Before submitting them; kept across journalTo().
    void setPolicyChanges(const RetryPolicy& policy, const PolicyChanges& changes);
    int submit(const RequestSpec& request, const RetryPolicy& policy, std::optional<std::uint64_t> seed = {});
    void cancelAll() { m_engine->cancelAll(); }
    bool isIdle() const { return m_engine->isIdle(); }

    const Session& session() const; // the recorder's: journalTo() starts a new one
    // The same session shared: what the window's views follow while the batch runs and keep once it is done.
    std::shared_ptr<const Session> sharedSession() const;
    // The batch is done: its recorder stops listening to the engine and the lab (nothing is written to the
    // session after this, so it can be saved on another thread while it is shown), and its session.
    std::shared_ptr<const Session> finishSession();
    // Saves the session where journalTo() said and removes the journal; false (journal kept) on failure.
    bool save(QString* error);
    // The session moved out, and the recorder that journalled it (so its journal can be released once the
    // caller saved the session itself, e.g. off the GUI thread).
    Session takeSession();
    std::unique_ptr<SessionRecorder> takeRecorder();

Q_SIGNALS:
    void idle(); // queued: every run has finished and its last signal has been handled
    // A finished attempt, appended to session().attempts at ROW (for views that read the store itself).
    void attemptStored(qsizetype row);
    void labEventStored(qsizetype index); // a lab event appended to session().labEvents, at INDEX
    // A pipeline circuit breaker's change of state appended to session().breakerChanges, at INDEX.
    void breakerChangeStored(qsizetype index);

private:
    BatchClock m_clock;
    BatchScheduler m_scheduler;
    std::unique_ptr<RetryEngine> m_engine;
    std::unique_ptr<SessionRecorder> m_recorder;
    QPointer<FaultServer> m_lab; // may go before the batch (declared after it on a stack)
    QList<std::pair<RetryPolicy, PolicyChanges>> m_policyChanges;
    bool m_submitted = false;
};
