// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the window shows while requests run: every run, finished attempt, wait and lab event, appended as
// the engine and the fault lab report them and published to views in batches at a bounded rate (≤ 30 Hz
// by default), so 1 000 attempts a second cost one model update per frame, not one per attempt.
// Finished attempts are rows of one AttemptStore, never full records: the store of the session being shown
// (showStore(): an opened or played-back session feeds its own rows, nothing is copied) or, for a live
// batch, a store of its own that packs each attempt as it finishes. Views read them by position. The lab's
// events are packed the same way (LabEventStore).

#include "engine/attemptrecord.h"
#include "engine/runrecord.h"
#include "lab/labevent.h"
#include "session/store/attemptstore.h"
#include "session/store/labeventstore.h"
#include "session/store/runprogressstore.h"
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
    QList<int> changedRuns; // indexes into runs() whose record changed (attempt added, finished…)
    bool clockMoved = false; // nowMs() changed (playback moved the playhead)
};

class LiveSession : public QObject
{
    Q_OBJECT
public:
    explicit LiveSession(QObject* parent = nullptr);

    // Runs in the order they started: their facts only (`attempts` is empty: each attempt is held once,
    // in the store; attemptCount() and lastAttemptFinished() say what a view needs per run).
    // Packed (RunProgressStore): at(i) rebuilds run i, runId(i) and outcome(i) read one field.
    const RunProgressStore& runs() const { return m_runs; }
    const std::optional<RetryPolicy>& lastPolicy() const { return m_lastPolicy; } // the newest run's
    int attemptCount(int runIndex) const { return hasRun(runIndex) ? m_runAttempts[runIndex].count : 0; }
    std::optional<MonoTime> lastAttemptFinished(int runIndex) const
    {
        return hasRun(runIndex) ? m_runAttempts[runIndex].lastFinished : std::nullopt;
    }
    // Finished attempts of every run, in the order they finished: attempt I is row attemptRow(I) of store().
    qsizetype finishedAttempts() const { return m_rows.size(); }
    AttemptRecord attempt(qsizetype i) const { return store().record(m_rows.at(i)); }
    PackedAttempt packedAttempt(qsizetype i) const { return store().packed(m_rows.at(i)); }
    const PackedAttemptHot& hotAttempt(qsizetype i) const { return store().hot(m_rows.at(i)); } // without its cold part
    qsizetype attemptRow(qsizetype i) const { return m_rows.at(i); }
    const AttemptStore& store() const { return *m_store; }
    // The wall-clock time at 0 on the session axis: the shown session's meta.wallOriginUtc, or the followed
    // store's (followStore()), also once their rows are copied here; invalid until either is given.
    QDateTime wallOriginUtc() const;
    // The memory the finished attempts take here (their rows, and the store when it is this session's own).
    qsizetype attemptBytes() const;
    bool ownsAttempts() const { return m_store == &m_own; }
    const WaitStore& waits() const { return m_waits; } // packed: at(i) rebuilds wait i
    // The lab's events: the followed recorder's or the shown session's store, or this session's own. Events
    // [0, labEventCount()) are shown; a shown session's store also holds the ones playback has not reached.
    const LabEventStore& labEvents() const { return *m_labEvents; } // packed: 24 bytes an event and its texts once
    qsizetype labEventCount() const { return m_labPrefix >= 0 ? m_labPrefix : m_labEvents->size(); }
    // The id of the run lab event I's attempt belongs to, while the events shown are a shown session's own
    // (Session::labEventRuns, worked out on a pool thread from showStore() on; this waits for it the first
    // time): nullopt otherwise, or when the event names no single attempt of the session.
    std::optional<int> shownLabEventRun(qsizetype i) const;
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

    // From now on finished attempts are rows of SESSION's store, given by onAttemptStored(); clear()
    // lets go of it. A record given by onAttemptFinished() meanwhile makes the shown rows this session's own.
    void showStore(std::shared_ptr<const class Session> session);
    // The same for a store still being written (a live batch's recorder; not owned): it must outlive
    // its use here, until clear(), showStore() or storeMovedTo(). WALL_ORIGIN_UTC is its session's.
    void followStore(const AttemptStore* store, const QDateTime& wallOriginUtc = {});
    // The followed store was moved into SESSION (the recorded batch taken out): the same rows, now held.
    // Followed lab events move with it.
    void storeMovedTo(std::shared_ptr<const class Session> session);
    // The lab's events as STORE (a live batch's recorder, attached to the same lab: not owned) appends them,
    // instead of a copy here: onLabEvent() then only publishes what the recorder appended. Until clear()
    // or storeMovedTo(); an event after that makes the events this session's own again.
    void followLabEvents(const LabEventStore* store);

    void setRefreshInterval(int ms);
    // Publishes pending changes now (tests, and the end of a run batch).
    void flush();
    void clear();

public Q_SLOTS:
    void onRunStarted(const RunSummary& run);
    void onAttemptStarted(const AttemptRecord& attempt);
    void onAttemptPhase(const AttemptPhaseEvent& event);
    void onAttemptFinished(const AttemptRecord& attempt);
    void onAttemptStored(qsizetype row); // a finished attempt, as a row of the shown store (showStore())
    // The wait after attempt ROW of ATTEMPTS (a shown session's), begun at SCHEDULEDNS: onWaitScheduled()
    // without a WaitInfo built for it (WaitStore::appendAfter).
    void onWaitAfter(const AttemptStore& attempts, qsizetype row, qint64 scheduledNs);
    void onWaitScheduled(const WaitInfo& wait);
    void onRunFinished(const RunSummary& run);
    void onLabEvent(const LabEvent& event);
    // Event I of STORE: the next of the shown session's own events is shown where it is (nothing copied);
    // any other is copied, without a LabEvent.
    void onLabEventFrom(const LabEventStore& store, qsizetype i);

Q_SIGNALS:
    void refreshed(const LiveSessionDelta& delta);
    void cleared();

private:
    int upsertRun(const RunSummary& run); // the run's index; appended when new, replaced otherwise
    void touch(int runIndex);
    void seen(double ms);
    void schedule();
    void finished(const PackedAttemptHot& attempt, qsizetype row);
    void takeOwnership(); // the shown rows copied into m_own, and the shown store let go
    void takeLabOwnership(); // the same for the lab's events

    bool hasRun(int runIndex) const { return runIndex >= 0 && runIndex < m_runs.size(); }

    struct RunAttempts
    {
        int count = 0;
        std::optional<MonoTime> lastFinished;
    };
    RunProgressStore m_runs;
    std::optional<RetryPolicy> m_lastPolicy;
    ChunkedRows<RunAttempts, 4096> m_runAttempts; // parallel to m_runs
    QHash<int, int> m_runIndex; // run id → index, only once a run started out of id order (else: binary search)
    mutable qsizetype m_lastRunIndex = 0; // the binary search's last answer, tried first
    std::shared_ptr<const class Session> m_shown;
    AttemptStore m_own;
    const AttemptStore* m_store = &m_own; // the shown session's, or m_own
    QDateTime m_wallOrigin; // wallOriginUtc() while no session is shown
    QList<quint32> m_rows;
    WaitStore m_waits;
    LabEventStore m_ownLabEvents;
    const LabEventStore* m_labEvents = &m_ownLabEvents; // followed, the shown session's, or m_ownLabEvents
    qsizetype m_labPrefix = -1; // the shown session's events reached so far: [0, m_labPrefix); -1: all of m_labEvents
    struct LabEventRuns; // Session::labEventRuns of m_shown, filled on a pool thread
    std::shared_ptr<LabEventRuns> m_labEventRuns;
    bool m_labFollowing = false;
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
