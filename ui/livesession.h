// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the window's views read: a cursor over one core Session — the one store of attempts and lab events,
// written by its recorder (a batch's, an observation's) or read from a file — and how far the views have
// been shown it, published in batches at a bounded rate (≤ 30 Hz by default), so 1 000 attempts a second
// cost one model update per frame, not one per attempt. Nothing here is a second copy of what the session
// holds: finished attempts are rows of its store, listed in the order they were shown; waits are what
// those rows say (AttemptWaits), kept compact; lab events are the session's own, the first
// labEventCount() of them. Views read an attempt through StoredAttempt, by field, never its packed row.
// Kept here, because they are not facts of the session: the runs' facts as reported so far (a run is open
// until its outcome is reached), the attempts in flight, the host throttle's holds as the engine reports
// them live, and the clock the views draw up to.

#include "engine/attemptrecord.h"
#include "engine/runrecord.h"
#include "lab/labevent.h"
#include "session/store/attemptstore.h"
#include "session/store/labeventstore.h"
#include "session/session.h"
#include "session/store/runprogressstore.h"
#include "session/store/storedattempt.h"
#include "session/store/waitstore.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

// The ranges that grew and the runs that changed since the last refresh. Lists only grow between
// clear() calls, so [before, after) is exactly what a view has not seen.
struct LiveSessionDelta
{
    qsizetype runsBefore = 0;
    qsizetype runsAfter = 0;
    qsizetype attemptsBefore = 0;
    qsizetype attemptsAfter = 0;
    qsizetype waitsBefore = 0;
    qsizetype waitsAfter = 0;
    qsizetype labEventsBefore = 0;
    qsizetype labEventsAfter = 0;
    qsizetype breakerChangesBefore = 0; // the session's breaker changes shown (breakerChanges())
    qsizetype breakerChangesAfter = 0;
    QList<int> changedRuns; // indexes into runs() whose record changed (attempt added, finished…)
    bool clockMoved = false; // nowMs() changed (playback moved the playhead)
};

class LiveSession : public QObject
{
    Q_OBJECT
public:
    explicit LiveSession(QObject* parent = nullptr);

    // What is shown. While it is being recorded, its recorder's signals say what to show as it grows
    // (onAttemptStored, onLabEventStored); an opened session is shown as a SessionFeeder reaches its events
    // (playback, or all at once). clear() lets go of it.
    enum class Reveal { AsRecorded, ByPlayback };
    void show(std::shared_ptr<const Session> session, Reveal reveal);
    const Session* session() const { return m_session.get(); }
    // The wall-clock time at 0 on the shown session's axis (invalid while nothing is shown): what an answer's
    // rate-limit resets are measured from when it has no Date (the moment it came, not now).
    QDateTime wallOriginUtc() const { return m_session ? m_session->meta.wallOriginUtc : QDateTime(); }

    // Runs in the order they started: their facts as reported so far (`attempts` is empty: each attempt is
    // held once, in the session's store; attemptCount() and lastAttemptFinished() say what a view needs).
    // Packed (RunProgressStore): at(i) rebuilds run i, runId(i) and outcome(i) read one field.
    const RunProgressStore& runs() const { return m_runs; }
    const std::optional<RetryPolicy>& lastPolicy() const { return m_lastPolicy; } // the newest run's
    int attemptCount(int runIndex) const { return hasRun(runIndex) ? m_runAttempts[runIndex].count : 0; }
    std::optional<MonoTime> lastAttemptFinished(int runIndex) const
    {
        return hasRun(runIndex) ? m_runAttempts[runIndex].lastFinished : std::nullopt;
    }
    // Finished attempts shown, in the order they finished: attempt I, read by field.
    qsizetype finishedAttempts() const { return m_rows.size(); }
    StoredAttempt attempt(qsizetype i) const { return StoredAttempt(store(), m_rows.at(i)); }
    AttemptRecord attemptRecord(qsizetype i) const { return store().record(m_rows.at(i)); } // whole
    AttemptTimestamps attemptMoments(qsizetype i) const { return store().timestamps(m_rows.at(i)); }
    // The memory the cursor's list of finished attempts takes (the attempts themselves are the session's).
    qsizetype attemptBytes() const { return m_rows.capacity() * qsizetype(sizeof(quint32)); }
    const WaitStore& waits() const { return m_waits; } // packed: at(i) rebuilds wait i
    // The lab's events shown: the first labEventCount() of the session's (playback reaches them in order).
    const LabEventStore& labEvents() const { return m_session ? m_session->labEvents : m_noLabEvents; }
    qsizetype labEventCount() const { return m_labShown; }
    // The id of the run lab event I's attempt belongs to, while an opened session is shown
    // (Session::labEventRuns, worked out on a pool thread from show() on; this waits for it the first
    // time): nullopt otherwise, or when the event names no single attempt of the session.
    std::optional<int> shownLabEventRun(qsizetype i) const;
    // The pipeline circuit breakers' changes of state shown: the first breakerChangeCount() of the session's
    // (in the order they happened; a recording played back reaches them at their moment).
    const QList<BreakerChange>& breakerChanges() const { return m_session ? m_session->breakerChanges : m_noBreakerChanges; }
    qsizetype breakerChangeCount() const { return m_breakersShown; }
    // Attempts started and not finished yet, with the phases reached so far.
    QList<AttemptRecord> inFlight() const { return m_inFlight.values(); }
    int runIndex(int runId) const; // -1: no such run

    // The latest time seen in any report (session axis, ms).
    double latestMs() const { return m_latestMs; }
    // "Now" on the session axis for every view: the playhead while a recording plays back (nothing after
    // it is shown: waits end there, attempts in flight reach it), else the latest time seen.
    double nowMs() const { return m_clockMs.value_or(m_latestMs); }
    std::optional<double> clockMs() const { return m_clockMs; }
    // Set by playback (SessionFeeder) at each position; clear() unsets it (a live batch runs on latestMs).
    void setClockMs(std::optional<double> ms);

    void setRefreshInterval(int ms);
    // Publishes pending changes now (tests, and the end of a run batch).
    void flush();
    void clear();

public Q_SLOTS:
    void onRunStarted(const RunSummary& run);
    void onAttemptStarted(const AttemptRecord& attempt);
    void onAttemptPhase(const AttemptPhaseEvent& event);
    // Attempt ROW of the session's store finished: shown, with the wait its row says was taken around it.
    void onAttemptStored(qsizetype row);
    // A wait as the engine schedules it: only a host throttle's hold is shown from here (as it begins);
    // every other wait is read from the attempt's row when it is stored.
    void onWaitScheduled(const WaitInfo& wait);
    void onRunFinished(const RunSummary& run);
    // Lab event INDEX of the session: the recorder appended it, or playback reached it. Events are shown
    // in order: every one up to INDEX is shown from now on.
    void onLabEventStored(qsizetype index);
    // Breaker change INDEX of the session: the recorder appended it, or playback reached it. Every one up to
    // INDEX is shown from now on.
    void onBreakerChangeStored(qsizetype index);

Q_SIGNALS:
    void refreshed(const LiveSessionDelta& delta);
    void cleared();

private:
    int upsertRun(const RunSummary& run); // the run's index; appended when new, replaced otherwise
    void touch(int runIndex);
    void seen(double ms);
    void schedule();
    const AttemptStore& store() const { return m_session ? m_session->attempts : m_noAttempts; }

    bool hasRun(int runIndex) const { return runIndex >= 0 && runIndex < m_runs.size(); }

    struct RunAttempts
    {
        int count = 0;
        std::optional<MonoTime> lastFinished;
    };
    std::shared_ptr<const Session> m_session;
    Reveal m_reveal = Reveal::AsRecorded;
    AttemptStore m_noAttempts; // what is read while nothing is shown
    LabEventStore m_noLabEvents;
    QList<BreakerChange> m_noBreakerChanges;
    RunProgressStore m_runs;
    std::optional<RetryPolicy> m_lastPolicy;
    ChunkedRows<RunAttempts, 4096> m_runAttempts; // parallel to m_runs
    QHash<int, int> m_runIndex; // run id → index, only once a run started out of id order (else: binary search)
    mutable qsizetype m_lastRunIndex = 0; // the binary search's last answer, tried first
    QList<quint32> m_rows; // the session's rows shown, in the order they finished
    WaitStore m_waits;
    qsizetype m_labShown = 0;
    qsizetype m_breakersShown = 0;
    struct LabEventRuns; // Session::labEventRuns of an opened session, filled on a pool thread
    std::shared_ptr<LabEventRuns> m_labEventRuns;
    QHash<quint64, AttemptRecord> m_inFlight; // key: runId << 32 | index
    double m_latestMs = 0;
    std::optional<double> m_clockMs;
    bool m_clockMoved = false;

    LiveSessionDelta m_pending;
    QList<int> m_changed; // runs touched since the last refresh, each once (m_changedFlags)
    std::vector<bool> m_changedFlags; // by run index
    QTimer m_timer;
};

Q_DECLARE_METATYPE(LiveSessionDelta)
