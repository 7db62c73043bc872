// SPDX-License-Identifier: GPL-3.0-or-later
// Hedging in the engine (issue 28 §2; resilience-fleets.md §1.2, §1.3, §1.7). The copies of one logical
// request go on connections of their own and overlap in time; each is an attempt of the run, numbered in
// the order it went. When the next copy goes and which answer wins is the pure Hedging machine's
// (policy/resilience/hedging.h, the one the conformance judge and the herd simulator run); whether an
// answer is a failure to it is the hedging strategy's `failures`, matched as the rules match. Each copy's
// answer is decided on by decide() as a first try (a copy is one exchange: no retry, no redirect). The
// first accepted answer ends the request and the copies still in flight are aborted and recorded as lost
// (AbortReason::HedgeLost), sent or not; when every copy failed, the result is the first copy's (Polly).
// Inside the hedging (MEHR's standard hedging handler: rate limiter → breaker → attempt timeout per
// endpoint) each copy takes a permit and asks the breaker; a copy either refuses is recorded as never sent,
// and is a failure to the hedging (MEHR's hedging predicate hedges on BrokenCircuitException, §1.2).

#include "engine/answerreading.h"
#include "engine/breakerbook.h"
#include "engine/clock.h"
#include "engine/enginerun.h"
#include "engine/retryengine.h"
#include "engine/scheduler.h"
#include "engine/wireslots.h"
#include "policy/errorclass.h"

#include <QStringList>

#include <utility>

namespace {

// "503", "connection-refused": what a copy's answer was, in the words of a reason.
QString answerText(const AttemptRecord& a)
{
    if (a.status)
        return QString::number(*a.status);
    if (a.error)
        return errorClassName(*a.error);
    return QStringLiteral("no answer");
}

// A copy is one exchange: were decide() ever to ask for another try of it (a hint, a budget), the copy's
// own answer is still final for it.
FinalKind finalKindOf(const AttemptRecord& a)
{
    if (a.error)
        return FinalKind::Network;
    if (!a.status || *a.status < 400)
        return FinalKind::Success;
    if (*a.status == 429)
        return FinalKind::RateLimited;
    return *a.status >= 500 ? FinalKind::ServerError : FinalKind::ClientError;
}

} // namespace

void RetryEngine::beginHedging(EngineRun& run, MonoTime scheduledAt)
{
    const ResilienceStrategy& s = run.record.policy.pipeline.at(run.hedgingIndex);
    const int runId = run.record.runId;
    run.hedging.emplace(s.hedging, run.sinceStart(m_clock.now()));
    launchCopy(run, 1, HedgeFacts::Trigger::First, scheduledAt);
    // Parallel mode: the other copies now; latency mode: the timer for the next.
    launchDueCopies(runId, s.hedging.delay == Millis(0) ? HedgeFacts::Trigger::Parallel : HedgeFacts::Trigger::Delay);
}

// Starts every copy the hedging says is due now, then arms the timer for the next one.
void RetryEngine::launchDueCopies(int runId, HedgeFacts::Trigger trigger)
{
    for (;;) {
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            return;
        EngineRun& run = *found->second;
        if (!run.hedging || run.hedging->done())
            return;
        const MonoTime now = m_clock.now();
        const std::optional<Millis> dueAt = run.hedging->nextStartAt();
        if (!dueAt || run.sinceStart(now) < *dueAt)
            break;
        if (deadlinePassed(run)) { // no copy goes after the deadline; the copies in flight end at it
            if (run.copies.empty())
                finishRun(runId, FinalKind::Deadline,
                    tr("the %1 deadline passed before copy %2 of the hedged request could go")
                        .arg(formatMillis(run.record.policy.limits.deadline.value_or(Millis(0))))
                        .arg(run.hedging->started() + 1));
            return;
        }
        const std::optional<int> index = run.hedging->startDue(run.sinceStart(now));
        if (!index)
            break;
        launchCopy(run, *index, trigger, *run.record.startedAt + *dueAt);
    }
    auto found = m_runs.find(runId);
    if (found != m_runs.end())
        armHedgeTimer(*found->second);
}

void RetryEngine::armHedgeTimer(EngineRun& run)
{
    if (run.hedgeTask)
        m_scheduler.cancel(*std::exchange(run.hedgeTask, std::nullopt));
    if (!run.hedging || run.hedging->done() || !run.record.startedAt)
        return;
    const std::optional<Millis> next = run.hedging->nextStartAt();
    if (!next)
        return;
    const int runId = run.record.runId;
    const HedgeFacts::Trigger trigger = run.hedging->options().delay == Millis(0) ? HedgeFacts::Trigger::Parallel : HedgeFacts::Trigger::Delay;
    run.hedgeTask = m_scheduler.scheduleAt(*run.record.startedAt + *next, [this, runId, trigger] {
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            return;
        found->second->hedgeTask.reset();
        launchDueCopies(runId, trigger);
    });
}

std::optional<StrategyRefusal> RetryEngine::admitCopy(EngineRun& run, int index)
{
    if (run.limiterPerCopy) {
        const ResilienceStrategy& s = run.record.policy.pipeline.at(run.limiterIndex);
        Limiter& limiter = m_limiters[run.limiterKey()];
        if (limiter.inUse >= s.permits) // no queue inside the hedging (engineRefusal)
            return StrategyRefusal { StrategyRefusal::By::RateLimiter, QStringLiteral("client") };
        ++limiter.inUse;
        run.copy(index)->holdsPermit = true;
    }
    if (!run.breakerPerCopy)
        return std::nullopt;
    const ResilienceStrategy* s = run.breaker();
    const QString& policy = run.record.policy.name;
    BreakerBook::Entry& entry = m_breakers->entryFor(policy, run.breakerIndex, *s, run.target);
    run.breakerKey = BreakerBook::keyOf(policy, run.breakerIndex, *s, run.target);
    const CircuitBreaker::Ticket ticket = entry.breaker.admit(BreakerBook::axis(m_clock.now()));
    const QString scope = entry.scope;
    if (ticket.sent())
        run.copy(index)->breakerTicket = ticket;
    publishBreaker(QString(run.breakerKey));
    if (ticket.sent())
        return std::nullopt;
    if (EngineRun::HedgeCopy* c = run.copy(index); c && c->holdsPermit) {
        c->holdsPermit = false;
        --m_limiters[run.limiterKey()].inUse;
    }
    return StrategyRefusal { StrategyRefusal::By::CircuitBreaker, scope, ticket.state, ticket.retryIn };
}

void RetryEngine::launchCopy(EngineRun& run, int index, HedgeFacts::Trigger trigger, MonoTime scheduledAt)
{
    const int runId = run.record.runId;
    EngineRun::HedgeCopy fresh;
    fresh.index = index;
    run.copies.push_back(fresh);
    if (const std::optional<StrategyRefusal> refusal = admitCopy(run, index)) {
        std::erase_if(run.copies, [index](const EngineRun::HedgeCopy& c) { return c.index == index; });
        AttemptRecord a = refusedRecord(run, scheduledAt, *refusal, index);
        a.hedge = HedgeFacts { trigger, false };
        Q_EMIT attemptStarted(a);
        if (m_runs.count(runId))
            copyEnded(run, std::move(a));
        return;
    }
    const MonoTime now = m_clock.now();
    AttemptRecord a = run.nextAttempt(scheduledAt, now, index);
    a.hedge = HedgeFacts { trigger, false };
    // Each copy on a connection of its own (no limit: engineRefusal refuses hedging under one).
    const int slot = m_slots->acquire(WireSlots::hostKey(run.target)).value_or(-1);
    Transport* t = m_factory(m_slots->manager(slot), this);
    EngineRun::HedgeCopy* copy = run.copy(index);
    copy->wireSlot = slot;
    copy->transport = t;
    connect(t, &Transport::phaseReached, this, [this, runId, index](AttemptPhase phase, MonoTime at) {
        if (phase == AttemptPhase::Started || phase == AttemptPhase::Finished)
            return;
        Q_EMIT attemptPhase(AttemptPhaseEvent { runId, index, phase, at });
    });
    connect(t, &Transport::finished, this, [this, runId](const AttemptRecord& record) { onCopyFinished(runId, record); });
    Q_EMIT attemptStarted(a);
    if (!m_runs.count(runId))
        return; // a slot cancelled the run: finishRun dropped the copy
    t->start(std::move(a), run.record.request.body, run.limits());
}

void RetryEngine::onCopyFinished(int runId, AttemptRecord record)
{
    auto it = m_runs.find(runId);
    if (it == m_runs.end())
        return;
    EngineRun& run = *it->second;
    EngineRun::HedgeCopy* found = run.copy(record.index);
    if (!found)
        return;
    const EngineRun::HedgeCopy copy = *found;
    std::erase_if(run.copies, [&](const EngineRun::HedgeCopy& c) { return c.index == copy.index; });
    copy.transport->disconnect(this);
    copy.transport->deleteLater();
    if (copy.holdsPermit)
        --m_limiters[run.limiterKey()].inUse;
    const bool abandoned = record.abortReason == AbortReason::HedgeLost || record.abortReason == AbortReason::Cancelled;
    if (copy.breakerTicket) // a copy the engine abandoned is no failure of the endpoint's
        recordBreakerTicket(run.breakerKey, *copy.breakerTicket, !abandoned && breakerFailure(run, record));
    if (copy.wireSlot >= 0) {
        m_slots->release(copy.wireSlot);
        serveConnectionQueue(WireSlots::hostKey(record.url));
    }
    if (!m_runs.count(runId))
        return;
    absorbAnswer(run, record);
    if (abandoned || run.cancelling) { // lost to another copy, or cancelled with the request: never decided on
        run.record.attempts.append(record);
        run.record.attemptCount = int(run.record.attempts.size());
        Q_EMIT attemptFinished(record);
        if (m_runs.count(runId) && m_runs.at(runId)->cancelling && m_runs.at(runId)->copies.empty())
            finishRun(runId, FinalKind::Cancelled, tr("cancelled during copy %1 of the hedged request").arg(record.index));
        return;
    }
    copyEnded(run, std::move(record));
}

bool RetryEngine::hedgingFailure(const EngineRun& run, const AttemptRecord& record) const
{
    return matchesAny(run.record.policy.pipeline.at(run.hedgingIndex).failures, run, record);
}

// A copy's answer (or its refusal) is in: decide on it, tell the hedging, and end the request, send the
// next copy at once, or wait for the copies in flight and the next one's delay.
void RetryEngine::copyEnded(EngineRun& run, AttemptRecord record)
{
    const int runId = run.record.runId;
    const int index = record.index;
    const bool failure = record.refused || hedgingFailure(run, record);
    RetryDecision d;
    if (record.refused) {
        d.verdict = Verdict::Stop;
        if (record.refused->by == StrategyRefusal::By::CircuitBreaker) {
            d.finalKind = FinalKind::CircuitOpen;
            d.reason = tr("copy %1 not sent: the circuit breaker (%2) is %3, %4 left of its break")
                           .arg(index)
                           .arg(record.refused->scope, stateName(record.refused->state), formatMillis(record.refused->retryIn));
        } else {
            d.finalKind = FinalKind::LimiterFull;
            d.reason = tr("copy %1 not sent: the %2 had no permit free")
                           .arg(index)
                           .arg(strategyKindName(run.record.policy.pipeline.at(run.limiterIndex).kind));
        }
        record.decision = d;
    } else {
        d = decideOn(run, record, outcomeOf(record), 1);
        if (d.verdict == Verdict::Retry) {
            d.verdict = finalKindOf(record) == FinalKind::Success ? Verdict::Success : Verdict::Stop;
            d.finalKind = finalKindOf(record);
            d.delay = Millis(0);
            d.redirectTo.reset();
        }
    }
    const Hedging::Verdict v = run.hedging->answered(index, failure ? Hedging::Answer::Failed : Hedging::Answer::Accepted,
        run.sinceStart(m_clock.now()));
    record.hedge->won = v.done && v.result == index && !failure;
    if (record.hedge->won) {
        d.reason = v.cancel.isEmpty() ? tr("copy %1 answered first: %2").arg(index).arg(d.reason)
                                      : tr("copy %1 answered first (%2 cancelled): %3")
                                            .arg(index)
                                            .arg(v.cancel.size() == 1 ? tr("copy %1").arg(v.cancel.first())
                                                                      : tr("%n other copies", nullptr, int(v.cancel.size())))
                                            .arg(d.reason);
    } else if (!v.done) {
        QStringList inFlight;
        for (const EngineRun::HedgeCopy& c : run.copies)
            inFlight << QString::number(c.index);
        d.reason = v.startNow ? tr("copy %1 failed (%2), a failure to the hedging: copy %3 goes at once")
                                    .arg(index)
                                    .arg(answerText(record))
                                    .arg(run.hedging->started() + 1)
                              : tr("copy %1 failed (%2), a failure to the hedging; copy %3 still in flight")
                                    .arg(index)
                                    .arg(answerText(record), inFlight.join(QStringLiteral(", ")));
    } else {
        d.reason = tr("copy %1 failed (%2): every copy failed").arg(index).arg(answerText(record));
    }
    record.decision->reason = d.reason;
    run.record.attempts.append(record);
    run.record.attemptCount = int(run.record.attempts.size());
    Q_EMIT attemptFinished(record);
    if (!m_runs.count(runId))
        return;
    if (v.done) {
        cancelCopies(run, AbortReason::HedgeLost, v.cancel);
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            return;
        const AttemptRecord* result = nullptr;
        for (const AttemptRecord& a : std::as_const(found->second->record.attempts))
            if (a.index == v.result && a.decision)
                result = &a;
        const RetryDecision final = result ? *result->decision : d;
        const QString reason = failure
            ? tr("all %1 copies of the hedged request failed; the result is copy %2's: %3")
                  .arg(found->second->hedging->started())
                  .arg(v.result)
                  .arg(result ? answerText(*result) : answerText(record))
            : final.reason;
        finishRun(runId, final.finalKind == FinalKind::None ? FinalKind::Success : final.finalKind, reason, final.serverAskedFor);
        return;
    }
    if (run.copies.empty() && deadlinePassed(run)) {
        finishRun(runId, FinalKind::Deadline,
            tr("the %1 deadline passed with no copy of the hedged request answered")
                .arg(formatMillis(run.record.policy.limits.deadline.value_or(Millis(0)))));
        return;
    }
    if (v.startNow)
        launchDueCopies(runId, HedgeFacts::Trigger::Failure);
}

// Aborts the copies INDEXES still in flight; each ends at once (the transport finishes inside abort) and
// is recorded by onCopyFinished.
void RetryEngine::cancelCopies(EngineRun& run, AbortReason reason, const QList<int>& indexes)
{
    const int runId = run.record.runId;
    for (int index : indexes) {
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            return;
        EngineRun::HedgeCopy* copy = found->second->copy(index);
        if (copy && copy->transport)
            copy->transport->abort(reason);
    }
}

// The run ends with copies still held (cancelled before a copy's transport started, or the engine going):
// their transports go without a signal, their connections, permits and breaker calls are given back.
void RetryEngine::dropCopies(EngineRun& run)
{
    if (run.hedgeTask)
        m_scheduler.cancel(*std::exchange(run.hedgeTask, std::nullopt));
    const std::vector<EngineRun::HedgeCopy> copies = std::exchange(run.copies, {});
    for (const EngineRun::HedgeCopy& c : copies) {
        if (c.transport) {
            c.transport->disconnect(this);
            c.transport->deleteLater();
        }
        if (c.holdsPermit)
            --m_limiters[run.limiterKey()].inUse;
        if (c.breakerTicket)
            recordBreakerTicket(run.breakerKey, *c.breakerTicket, false);
        if (c.wireSlot >= 0) {
            m_slots->release(c.wireSlot);
            serveConnectionQueue(WireSlots::hostKey(run.target));
        }
    }
}
