// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the window shows while requests run: every run, finished attempt, wait and lab event, appended as
// the engine and the fault lab report them and published to views in batches at a bounded rate (≤ 30 Hz
// by default), so 1 000 attempts a second cost one model update per frame, not one per attempt.

#include "engine/attemptrecord.h"
#include "engine/runrecord.h"
#include "lab/labevent.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

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
    // in attempts(); attemptCount() and lastAttemptFinished() say what a view needs per run).
    const QList<RunRecord>& runs() const { return m_runs; }
    int attemptCount(int runIndex) const { return m_runAttempts.value(runIndex).count; }
    std::optional<MonoTime> lastAttemptFinished(int runIndex) const { return m_runAttempts.value(runIndex).lastFinished; }
    // Finished attempts of every run, in the order they finished.
    const QList<AttemptRecord>& attempts() const { return m_attempts; }
    const QList<WaitInfo>& waits() const { return m_waits; }
    const QList<LabEvent>& labEvents() const { return m_labEvents; }
    // Attempts started and not finished yet, with the phases reached so far.
    QList<AttemptRecord> inFlight() const { return m_inFlight.values(); }
    int runIndex(int runId) const { return m_runIndex.value(runId, -1); }

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
    void onRunStarted(const RunRecord& run);
    void onAttemptStarted(const AttemptRecord& attempt);
    void onAttemptPhase(const AttemptPhaseEvent& event);
    void onAttemptFinished(const AttemptRecord& attempt);
    void onWaitScheduled(const WaitInfo& wait);
    void onRunFinished(const RunRecord& run);
    void onLabEvent(const LabEvent& event);

Q_SIGNALS:
    void refreshed(const LiveSessionDelta& delta);
    void cleared();

private:
    int upsertRun(const RunRecord& run); // the run's index; appended when new, replaced otherwise
    void touch(int runIndex);
    void seen(double ms);
    void schedule();

    struct RunAttempts
    {
        int count = 0;
        std::optional<MonoTime> lastFinished;
    };
    QList<RunRecord> m_runs;
    QList<RunAttempts> m_runAttempts; // parallel to m_runs
    QHash<int, int> m_runIndex;
    QList<AttemptRecord> m_attempts;
    QList<WaitInfo> m_waits;
    QList<LabEvent> m_labEvents;
    QHash<quint64, AttemptRecord> m_inFlight; // key: runId << 32 | index
    double m_latestMs = 0;
    std::optional<double> m_clockMs;
    bool m_clockMoved = false;

    LiveSessionDelta m_pending;
    QSet<int> m_changed;
    QTimer m_timer;
};

Q_DECLARE_METATYPE(LiveSessionDelta)
