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
    delta.labEventsAfter = labEventCount();
    for (const int index : std::as_const(m_changed))
        m_changedFlags[size_t(index)] = false;
    std::sort(m_changed.begin(), m_changed.end());
    delta.changedRuns = std::exchange(m_changed, {});
    delta.clockMoved = std::exchange(m_clockMoved, false);
    const bool nothing = delta.runsAfter == delta.runsBefore && delta.attemptsAfter == delta.attemptsBefore
        && delta.waitsAfter == delta.waitsBefore && delta.labEventsAfter == delta.labEventsBefore && delta.changedRuns.isEmpty()
        && !delta.clockMoved;
    m_pending = LiveSessionDelta { delta.runsAfter, delta.runsAfter, delta.attemptsAfter, delta.attemptsAfter,
        delta.waitsAfter, delta.waitsAfter, delta.labEventsAfter, delta.labEventsAfter, {} };
    if (!nothing)
        emit refreshed(delta);
}

void LiveSession::clear()
{
    m_timer.stop();
    m_runs.clear();
    m_lastPolicy.reset();
    m_runAttempts.clear();
    m_runIndex.clear();
    m_lastRunIndex = 0;
    m_shown.reset();
    m_store = &m_own;
    m_wallOrigin = QDateTime();
    m_own.clear();
    m_rows.clear();
    m_waits.clear();
    m_ownLabEvents.clear();
    m_labEvents = &m_ownLabEvents;
    m_labPrefix = -1;
    m_labEventRuns.reset();
    m_labFollowing = false;
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

void LiveSession::showStore(std::shared_ptr<const Session> session)
{
    if (!m_labFollowing)
        takeLabOwnership(); // the lab events held through m_shown, before it goes
    if (!m_rows.isEmpty())
        takeOwnership(); // what is shown stays as it is; only new rows come from SESSION
    m_shown = std::move(session);
    m_store = m_shown ? &m_shown->attempts : &m_own;
    if (m_shown && !m_labFollowing && m_ownLabEvents.isEmpty()) {
        // Nothing of the lab's shown yet: the session's own events are shown in place as they are reached.
        m_labEvents = &m_shown->labEvents;
        m_labPrefix = 0;
        // Which run each of its events goes with, worked out on the other core while the views are fed.
        auto runs = std::make_shared<LabEventRuns>();
        m_labEventRuns = runs;
        QThreadPool::globalInstance()->start([runs, session = m_shown] {
            std::vector<qint32> found = session->labEventRuns();
            const std::lock_guard lock(runs->mutex);
            runs->runs = std::move(found);
            runs->done = true;
            runs->ready.notify_all();
        });
    }
}

std::optional<int> LiveSession::shownLabEventRun(qsizetype i) const
{
    if (!m_labEventRuns || !m_shown || m_labEvents != &m_shown->labEvents)
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

void LiveSession::followStore(const AttemptStore* store, const QDateTime& wallOriginUtc)
{
    if (!m_labFollowing)
        takeLabOwnership(); // the lab events held through m_shown, before it goes
    if (!m_rows.isEmpty())
        takeOwnership();
    m_shown.reset();
    m_store = store ? store : &m_own;
    m_wallOrigin = wallOriginUtc;
}

QDateTime LiveSession::wallOriginUtc() const
{
    return m_shown ? m_shown->meta.wallOriginUtc : m_wallOrigin;
}

void LiveSession::followLabEvents(const LabEventStore* store)
{
    if (!store) {
        takeLabOwnership();
        m_labFollowing = false;
        return;
    }
    if (!m_ownLabEvents.isEmpty() || m_labEvents != &m_ownLabEvents) // what is shown stays: no following then
        return;
    m_labEvents = store;
    m_labFollowing = true;
}

void LiveSession::takeLabOwnership()
{
    if (m_labEvents == &m_ownLabEvents)
        return;
    const qsizetype shown = labEventCount();
    for (qsizetype i = 0; i < shown; ++i)
        m_ownLabEvents.appendFrom(*m_labEvents, i);
    m_labEvents = &m_ownLabEvents;
    m_labPrefix = -1;
    m_labEventRuns.reset();
    m_labFollowing = false;
}

void LiveSession::storeMovedTo(std::shared_ptr<const Session> session)
{
    // The rows shown are the moved store's only when this session followed it and showed nothing else.
    const bool moved = session && session->attempts.size() >= m_rows.size() && !ownsAttempts() && !m_shown;
    if (m_labFollowing && session) {
        // The recorder's session, taken whole: its lab events are the ones followed. Kept alive by m_shown
        // below, or copied now when SESSION is not kept.
        m_labEvents = &session->labEvents;
        m_labFollowing = false;
        if (!moved)
            takeLabOwnership();
    }
    if (!moved) {
        showStore(std::move(session)); // not the moved store: keep what is shown, as showStore() does
        return;
    }
    m_shown = std::move(session);
    m_store = &m_shown->attempts;
}

qsizetype LiveSession::attemptBytes() const
{
    const qsizetype rows = m_rows.capacity() * qsizetype(sizeof(quint32));
    return ownsAttempts() ? rows + m_own.memoryBytes() : rows;
}

void LiveSession::takeOwnership()
{
    if (ownsAttempts())
        return;
    const AttemptStore* from = m_store;
    m_wallOrigin = wallOriginUtc(); // the copied rows' axis
    const std::shared_ptr<const Session> keep = std::exchange(m_shown, nullptr); // alive while copying
    m_store = &m_own;
    for (quint32& row : m_rows)
        row = quint32(m_own.append(from->record(row)));
}

void LiveSession::onAttemptFinished(const AttemptRecord& attempt)
{
    takeOwnership();
    const qsizetype row = m_own.append(attempt);
    finished(m_own.hot(row), row);
}

void LiveSession::onAttemptStored(qsizetype row)
{
    if (ownsAttempts() || row < 0 || row >= m_store->size())
        return;
    finished(m_store->hot(row), row);
}

void LiveSession::finished(const PackedAttemptHot& attempt, qsizetype row)
{
    m_inFlight.remove(attemptKey(attempt.runId, attempt.index));
    m_rows << quint32(row);
    const int index = runIndex(attempt.runId);
    const std::optional<MonoTime> end = attempt.at[PackedAttempt::Finished] == PackedAttempt::kUnset
        ? std::nullopt
        : std::optional<MonoTime>(MonoTime(attempt.at[PackedAttempt::Finished]));
    if (index >= 0) {
        ++m_runAttempts[index].count;
        m_runAttempts[index].lastFinished = end;
    }
    if (end)
        seen(toMs(*end));
    touch(index);
}

void LiveSession::onWaitScheduled(const WaitInfo& wait)
{
    m_waits.append(wait);
    seen(toMs(wait.scheduledAt));
    touch(runIndex(wait.runId));
}

void LiveSession::onWaitAfter(const AttemptStore& attempts, qsizetype row, qint64 scheduledNs)
{
    if (!m_waits.appendAfter(attempts, row, scheduledNs))
        return;
    seen(toMs(MonoTime(scheduledNs)));
    touch(runIndex(m_waits.runId(m_waits.size() - 1)));
}

void LiveSession::onRunFinished(const RunSummary& run)
{
    const int index = upsertRun(run);
    if (run.finishedAt)
        seen(toMs(*run.finishedAt));
    touch(index);
}

void LiveSession::onLabEventFrom(const LabEventStore& store, qsizetype i)
{
    if (m_labFollowing) { // the followed store gets its events from its recorder: as onLabEvent
        onLabEvent(store.at(i));
        return;
    }
    if (m_labPrefix >= 0 && &store == m_labEvents && i == m_labPrefix) {
        ++m_labPrefix; // the shown session's next event: shown where it is
    } else {
        takeLabOwnership();
        m_ownLabEvents.appendFrom(store, i);
    }
    seen(double(store.atMs(i)));
    schedule();
}

void LiveSession::onLabEvent(const LabEvent& event)
{
    if (!m_labFollowing) {
        takeLabOwnership();
        m_ownLabEvents.append(event);
    } // else the followed recorder appends it (published at the next flush)
    seen(double(event.atMs));
    schedule();
}
