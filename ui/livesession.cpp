// SPDX-License-Identifier: GPL-3.0-or-later
#include "livesession.h"

#include <algorithm>

namespace {

quint64 attemptKey(int runId, int index)
{
    return (quint64(quint32(runId)) << 32) | quint32(index);
}

} // namespace

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
    if (runIndex >= 0)
        m_changed.insert(runIndex);
    schedule();
}

void LiveSession::flush()
{
    m_timer.stop();
    LiveSessionDelta delta = m_pending;
    delta.runsAfter = m_runs.size();
    delta.attemptsAfter = m_attempts.size();
    delta.waitsAfter = m_waits.size();
    delta.labEventsAfter = m_labEvents.size();
    delta.changedRuns = m_changed.values();
    std::sort(delta.changedRuns.begin(), delta.changedRuns.end());
    delta.clockMoved = std::exchange(m_clockMoved, false);
    const bool nothing = delta.runsAfter == delta.runsBefore && delta.attemptsAfter == delta.attemptsBefore
        && delta.waitsAfter == delta.waitsBefore && delta.labEventsAfter == delta.labEventsBefore && delta.changedRuns.isEmpty()
        && !delta.clockMoved;
    m_pending = LiveSessionDelta { delta.runsAfter, delta.runsAfter, delta.attemptsAfter, delta.attemptsAfter,
        delta.waitsAfter, delta.waitsAfter, delta.labEventsAfter, delta.labEventsAfter, {} };
    m_changed.clear();
    if (!nothing)
        emit refreshed(delta);
}

void LiveSession::clear()
{
    m_timer.stop();
    m_runs.clear();
    m_runAttempts.clear();
    m_runIndex.clear();
    m_attempts.clear();
    m_waits.clear();
    m_labEvents.clear();
    m_inFlight.clear();
    m_latestMs = 0;
    m_clockMs.reset();
    m_clockMoved = false;
    m_pending = {};
    m_changed.clear();
    emit cleared();
}

int LiveSession::upsertRun(const RunRecord& run)
{
    int index = m_runIndex.value(run.runId, -1);
    if (index < 0) {
        index = int(m_runs.size());
        m_runIndex.insert(run.runId, index);
        m_runs << RunRecord();
        m_runAttempts << RunAttempts();
    }
    // The facts without the attempts: those are in m_attempts already (a run cancelled before its first
    // attempt finished brings its only attempt here; it is counted, not stored twice).
    RunRecord& stored = m_runs[index];
    stored = run;
    stored.attempts = {};
    RunAttempts& counts = m_runAttempts[index];
    if (run.attempts.size() > counts.count) {
        counts.count = int(run.attempts.size());
        counts.lastFinished = run.attempts.last().at.finished;
    }
    return index;
}

void LiveSession::onRunStarted(const RunRecord& run)
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

void LiveSession::onAttemptFinished(const AttemptRecord& attempt)
{
    m_inFlight.remove(attemptKey(attempt.runId, attempt.index));
    m_attempts << attempt;
    const int index = runIndex(attempt.runId);
    if (index >= 0) {
        ++m_runAttempts[index].count;
        m_runAttempts[index].lastFinished = attempt.at.finished;
    }
    if (attempt.at.finished)
        seen(toMs(*attempt.at.finished));
    touch(index);
}

void LiveSession::onWaitScheduled(const WaitInfo& wait)
{
    m_waits << wait;
    seen(toMs(wait.scheduledAt));
    touch(runIndex(wait.runId));
}

void LiveSession::onRunFinished(const RunRecord& run)
{
    const int index = upsertRun(run);
    if (run.finishedAt)
        seen(toMs(*run.finishedAt));
    touch(index);
}

void LiveSession::onLabEvent(const LabEvent& event)
{
    m_labEvents << event;
    seen(double(event.atMs));
    schedule();
}
