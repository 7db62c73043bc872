// SPDX-License-Identifier: GPL-3.0-or-later
#include "livesession.h"

#include "session/session.h"

#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace {

quint64 attemptKey(int runId, int index)
{
    return (quint64(quint32(runId)) << 32) | quint32(index);
}

} // namespace

struct LiveSession::LabEventRuns
{
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<bool> done = false; // runs is written once, before this is set
    std::vector<qint32> runs;
};

LiveSession::LiveSession(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<LiveSessionDelta>();
    m_timer.setSingleShot(true);
    m_timer.setInterval(33);
    connect(&m_timer, &QTimer::timeout, this, &LiveSession::flush);
}

void LiveSession::setClockMs(std::optional<double> ms)
{
    if (ms == m_clockMs)
        return;
    m_clockMs = ms;
    m_clockMoved = true;
    schedule();
}

void LiveSession::setRefreshInterval(int ms)
{
    m_timer.setInterval(std::max(0, ms));
}

void LiveSession::schedule()
{
    if (!m_timer.isActive())
        m_timer.start();
}

void LiveSession::seen(double ms)
{
    m_latestMs = std::max(m_latestMs, ms);
}

void LiveSession::touch(int runIndex)
{
    if (runIndex >= 0) {
        if (size_t(runIndex) >= m_changedFlags.size())
            m_changedFlags.resize(std::max<size_t>(size_t(runIndex) + 1, m_changedFlags.size() * 2));
        if (!m_changedFlags[size_t(runIndex)]) { // once per refresh: a set without a hash node per run
            m_changedFlags[size_t(runIndex)] = true;
            m_changed.append(runIndex);
        }
    }
    schedule();
}

void LiveSession::flush()
{
    m_timer.stop();
    LiveSessionDelta delta = m_pending;
    delta.runsAfter = m_runs.size();
    delta.attemptsAfter = m_rows.size();
    delta.waitsAfter = m_waits.size();
    delta.labEventsAfter = m_labShown;
    delta.breakerChangesAfter = m_breakersShown;
    for (const int index : std::as_const(m_changed))
        m_changedFlags[size_t(index)] = false;
    std::sort(m_changed.begin(), m_changed.end());
    delta.changedRuns = std::exchange(m_changed, {});
    delta.clockMoved = std::exchange(m_clockMoved, false);
    const bool nothing = delta.runsAfter == delta.runsBefore && delta.attemptsAfter == delta.attemptsBefore
        && delta.waitsAfter == delta.waitsBefore && delta.labEventsAfter == delta.labEventsBefore
        && delta.breakerChangesAfter == delta.breakerChangesBefore && delta.changedRuns.isEmpty() && !delta.clockMoved;
    m_pending = LiveSessionDelta { delta.runsAfter, delta.runsAfter, delta.attemptsAfter, delta.attemptsAfter,
        delta.waitsAfter, delta.waitsAfter, delta.labEventsAfter, delta.labEventsAfter, delta.breakerChangesAfter,
        delta.breakerChangesAfter, {} };
    if (!nothing)
        emit refreshed(delta);
}

void LiveSession::clear()
{
    m_timer.stop();
    m_session.reset();
    m_reveal = Reveal::AsRecorded;
    m_runs.clear();
    m_lastPolicy.reset();
    m_runAttempts.clear();
    m_runIndex.clear();
    m_lastRunIndex = 0;
    m_rows.clear();
    m_waits.clear();
    m_labShown = 0;
    m_breakersShown = 0;
    m_labEventRuns.reset();
    m_inFlight.clear();
    m_latestMs = 0;
    m_clockMs.reset();
    m_clockMoved = false;
    m_pending = {};
    m_changed.clear();
    m_changedFlags.clear();
    emit cleared();
}

int LiveSession::runIndex(int runId) const
{
    if (!m_runIndex.isEmpty() || m_runs.isEmpty())
        return m_runIndex.value(runId, -1);
    // Reports come run after run: the run found last, or the one after it, is asked for again far more
    // often than any other (a whole session shown at once asks once per attempt and wait).
    if (m_lastRunIndex < m_runs.size() && m_runs.runId(m_lastRunIndex) == runId)
        return int(m_lastRunIndex);
    if (m_lastRunIndex + 1 < m_runs.size() && m_runs.runId(m_lastRunIndex + 1) == runId)
        return int(++m_lastRunIndex);
    // Runs in ascending id order (every batch numbers its runs as they start): a binary search over the
    // runs' own ids, no hash entry per run.
    qsizetype lo = 0;
    qsizetype hi = m_runs.size();
    while (lo < hi) {
        const qsizetype mid = lo + (hi - lo) / 2;
        if (m_runs.runId(mid) < runId)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m_runs.size() && m_runs.runId(lo) == runId) {
        m_lastRunIndex = lo;
        return int(lo);
    }
    return -1;
}

int LiveSession::upsertRun(const RunSummary& run)
{
    int index = runIndex(run.runId);
    if (index < 0) {
        index = int(m_runs.size());
        if (m_runIndex.isEmpty() && index > 0 && run.runId < m_runs.runId(index - 1)) {
            // Out of order: from now on the runs are found through a hash of every id.
            for (qsizetype i = 0; i < m_runs.size(); ++i)
                m_runIndex.insert(m_runs.runId(i), int(i));
        }
        if (!m_runIndex.isEmpty())
            m_runIndex.insert(run.runId, index);
        m_runs.append(run);
        m_runAttempts.append(RunAttempts());
    } else {
        m_runs.replace(index, run);
    }
    // The facts, packed; its attempts came one by one (onAttemptFinished / onAttemptStored). The request and
    // the policy are not kept per run (they are most of a RunSummary's 950 bytes): only the newest run's
    // policy, which the delay chart draws its envelope from.
    if (index == m_runs.size() - 1 && !(m_lastPolicy && *m_lastPolicy == run.policy))
        m_lastPolicy = run.policy;
    return index;
}

void LiveSession::onRunStarted(const RunSummary& run)
{
    const int index = upsertRun(run);
    if (run.startedAt)
        seen(toMs(*run.startedAt));
    touch(index);
}

void LiveSession::onAttemptStarted(const AttemptRecord& attempt)
{
    m_inFlight.insert(attemptKey(attempt.runId, attempt.index), attempt);
    if (attempt.at.started)
        seen(toMs(*attempt.at.started));
    touch(runIndex(attempt.runId));
}

void LiveSession::onAttemptPhase(const AttemptPhaseEvent& event)
{
    auto it = m_inFlight.find(attemptKey(event.runId, event.index));
    if (it == m_inFlight.end())
        return;
    it->phaseReached = std::max(it->phaseReached, event.phase);
    switch (event.phase) {
    case AttemptPhase::Connecting:
        it->at.connecting = event.at;
        break;
    case AttemptPhase::TlsDone:
        it->at.tlsDone = event.at;
        break;
    case AttemptPhase::RequestSent:
        it->at.requestSent = event.at;
        break;
    case AttemptPhase::HeadersReceived:
        it->at.headersReceived = event.at;
        break;
    case AttemptPhase::FirstByte:
        it->at.firstByte = event.at;
        break;
    default:
        break;
    }
    seen(toMs(event.at));
    touch(runIndex(event.runId));
}

void LiveSession::show(std::shared_ptr<const Session> session, Reveal reveal)
{
    Q_ASSERT(m_rows.isEmpty() && m_labShown == 0 && m_breakersShown == 0); // after clear(): what is shown is one session's
    m_session = std::move(session);
    m_reveal = reveal;
    m_labEventRuns.reset();
    if (m_session && reveal == Reveal::ByPlayback) {
        // Which run each of its lab events goes with, worked out on the other core while the views are fed
        // (the session is whole and nobody writes it: it can be read there).
        auto runs = std::make_shared<LabEventRuns>();
        m_labEventRuns = runs;
        QThreadPool::globalInstance()->start([runs, shown = m_session] {
            std::vector<qint32> found = shown->labEventRuns();
            const std::lock_guard lock(runs->mutex);
            runs->runs = std::move(found);
            runs->done = true;
            runs->ready.notify_all();
        });
    }
}

std::optional<int> LiveSession::shownLabEventRun(qsizetype i) const
{
    if (!m_labEventRuns)
        return std::nullopt;
    LabEventRuns& runs = *m_labEventRuns;
    if (!runs.done) { // read once it is done: nothing writes it after that
        std::unique_lock lock(runs.mutex);
        runs.ready.wait(lock, [&] { return runs.done.load(); });
    }
    if (i < 0 || size_t(i) >= runs.runs.size() || runs.runs[size_t(i)] == Session::kNoRun)
        return std::nullopt;
    return runs.runs[size_t(i)];
}

void LiveSession::onAttemptStored(qsizetype row)
{
    if (!m_session || row < 0 || row >= m_session->attempts.size())
        return;
    const StoredAttempt attempt(m_session->attempts, row);
    m_inFlight.remove(attemptKey(attempt.runId(), attempt.index()));
    m_rows << quint32(row);
    const int index = runIndex(attempt.runId());
    const std::optional<MonoTime> end = attempt.finished();
    if (index >= 0) {
        ++m_runAttempts[index].count;
        // The latest end: a run's attempts are not always stored in the order they ended (a failed probe's
        // waiting callers before the probe), and a hedged request's copies overlap.
        std::optional<MonoTime>& last = m_runAttempts[index].lastFinished;
        if (end && (!last || *end > *last))
            last = end;
    }
    if (end)
        seen(toMs(*end));
    // The wait its row says was taken around it: the engine's retry after it, a client's wait before it.
    if (m_waits.appendFor(m_session->attempts, row))
        seen(toMs(m_waits.scheduledAt(m_waits.size() - 1)));
    touch(index);
}

void LiveSession::onWaitScheduled(const WaitInfo& wait)
{
    if (!wait.throttleHold)
        return; // read from the attempt's row when it is stored (onAttemptStored)
    m_waits.append(wait);
    seen(toMs(wait.scheduledAt));
    touch(runIndex(wait.runId));
}

void LiveSession::onRunFinished(const RunSummary& run)
{
    const int index = upsertRun(run);
    if (run.finishedAt)
        seen(toMs(*run.finishedAt));
    touch(index);
}

void LiveSession::onLabEventStored(qsizetype index)
{
    if (!m_session || index < m_labShown || index >= m_session->labEvents.size())
        return;
    m_labShown = index + 1;
    seen(double(m_session->labEvents.atMs(index)));
    schedule();
}

void LiveSession::onBreakerChangeStored(qsizetype index)
{
    if (!m_session || index < m_breakersShown || index >= m_session->breakerChanges.size())
        return;
    for (qsizetype i = m_breakersShown; i <= index; ++i)
        seen(toMs(m_session->breakerChanges.at(i).at));
    m_breakersShown = index + 1;
    schedule();
}
