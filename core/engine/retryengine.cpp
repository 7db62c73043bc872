// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/retryengine.h"

#include "engine/answerreading.h"
#include "engine/attempttransport.h"
#include "engine/breakerbook.h"
#include "engine/clock.h"
#include "engine/enginerun.h"
#include "engine/requestheaders.h"
#include "engine/scheduler.h"
#include "engine/wireslots.h"
#include "policy/answerfacts.h"
#include "policy/decide.h"
#include "policy/retrybudget.h"
#include "policy/rulematcher.h"

#include <QCoreApplication>
#include <QNetworkCookie>
#include <QNetworkCookieJar>

#include <algorithm>
#include <utility>

namespace {
constexpr int kMaxRedirects = 10;
}

void RetryEngine::registerMetaTypes()
{
    qRegisterMetaType<AttemptRecord>();
    qRegisterMetaType<AttemptPhaseEvent>();
    qRegisterMetaType<WaitInfo>();
    qRegisterMetaType<RunSummary>();
    qRegisterMetaType<RunRecord>();
    qRegisterMetaType<AttemptPhase>();
    qRegisterMetaType<BreakerChange>();
}

RetryEngine::RetryEngine(const Clock& clock, Scheduler& scheduler, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_scheduler(scheduler)
    , m_slots(new WireSlots(this))
    , m_breakers(std::make_unique<BreakerBook>(clock.now()))
{
    registerMetaTypes();
    m_factory = [this](QNetworkAccessManager& nam, QObject* p) -> Transport* { return new AttemptTransport(nam, m_clock, p); };
}

RetryEngine::~RetryEngine()
{
    for (const auto& [key, entry] : m_breakers->entries())
        if (entry->timer)
            m_scheduler.cancel(*entry->timer);
    for (auto& [id, run] : m_runs) {
        if (run->waitTask)
            m_scheduler.cancel(*run->waitTask);
        if (run->transport) {
            run->transport->disconnect(this);
            delete run->transport; // aborts its reply without a signal
        }
        if (run->hedgeTask)
            m_scheduler.cancel(*run->hedgeTask);
        for (EngineRun::HedgeCopy& c : run->copies) {
            if (c.transport) {
                c.transport->disconnect(this);
                delete c.transport;
            }
        }
    }
}

void RetryEngine::setTransportFactory(TransportFactory factory)
{
    m_factory = std::move(factory);
}

void RetryEngine::setConcurrencyLimit(int limit)
{
    m_limit = std::max(1, limit);
    pump();
}

int RetryEngine::runningCount() const
{
    return m_running; // kept as runs start and end: counting the map made a long queue quadratic
}

int RetryEngine::attemptsInFlight() const
{
    return m_slots->busyCount();
}

int RetryEngine::queuedCount() const
{
    return int(m_runs.size()) - runningCount();
}

QString engineRefusal(const RetryPolicy& policy)
{
    QStringList notRun;
    qsizetype retryAt = -1;
    qsizetype hedgingAt = -1;
    for (qsizetype i = 0; i < policy.pipeline.size(); ++i) {
        if (policy.pipeline.at(i).kind == ResilienceStrategy::Kind::Retry)
            retryAt = i;
        if (policy.pipeline.at(i).kind == ResilienceStrategy::Kind::Hedging)
            hedgingAt = i;
    }
    const auto tr = [](const char* text) { return QCoreApplication::translate("RetryEngine", text); };
    for (qsizetype i = 0; i < policy.pipeline.size(); ++i) {
        const ResilienceStrategy& s = policy.pipeline.at(i);
        const bool limiter = s.kind == ResilienceStrategy::Kind::RateLimiter || s.kind == ResilienceStrategy::Kind::Bulkhead;
        const bool insideHedging = hedgingAt >= 0 && i > hedgingAt;
        QString what;
        if (s.kind == ResilienceStrategy::Kind::Hedging && retryAt >= 0)
            what = tr("hedging with a retry strategy");
        else if (limiter && retryAt >= 0 && i > retryAt)
            what = tr("%1 inside the retry").arg(strategyKindName(s.kind));
        else if (limiter && insideHedging && s.queue > 0)
            what = tr("%1 with a queue inside the hedging").arg(strategyKindName(s.kind));
        else if (s.kind == ResilienceStrategy::Kind::CircuitBreaker && insideHedging
            && s.breaker.halfOpenCallers == CircuitBreakerOptions::HalfOpenCallers::Wait)
            what = tr("a circuit breaker whose half-open callers wait, inside the hedging");
        if (!what.isEmpty() && !notRun.contains(what))
            notRun.append(what);
    }
    if (hedgingAt >= 0 && policy.limits.connectionsPerHost)
        notRun.append(tr("hedging under a limit of connections per host"));
    if (notRun.isEmpty())
        return {};
    return tr("policy \"%1\": the engine does not run %2 yet (it runs retries, circuit breakers, timeouts, limiters "
              "outside the retry, and hedging without a retry)")
        .arg(policy.name, notRun.join(QStringLiteral(", ")));
}

int RetryEngine::submit(const RequestSpec& request, const RetryPolicy& policy, std::optional<std::uint64_t> seed)
{
    const int id = m_nextId++;
    m_runs.emplace(id, std::make_unique<EngineRun>(id, request, policy, seed ? *seed : m_nextSeed++, m_clock.now()));
    pump();
    return id;
}

void RetryEngine::pump()
{
    // Not re-entrant: a run that ends while starting (the host throttle failing it fast) asks for another
    // pass instead of recursing, so a long queue of such runs cannot grow the stack.
    if (m_pumping) {
        m_pumpAgain = true;
        return;
    }
    m_pumping = true;
    do {
        m_pumpAgain = false;
        int running = runningCount();
        for (auto it = m_runs.begin(); it != m_runs.end() && running < m_limit;) {
            if (it->second->started) {
                ++it;
                continue;
            }
            ++running;
            const int runId = it->first;
            startRun(*it->second);
            it = m_runs.upper_bound(runId); // startRun may have finished (and erased) runs
        }
    } while (m_pumpAgain);
    m_pumping = false;
}

void RetryEngine::startRun(EngineRun& run)
{
    run.started = true;
    ++m_running;
    run.record.startedAt = m_clock.now();
    run.idempotencyKey = chooseIdempotencyKey(run.record.request, run.record.policy);
    run.bodySha256 = bodyHash(run.record.request.body);
    Q_EMIT runStarted(run.record);
    if (!takePermit(run))
        return;
    startAttempt(run, *run.record.startedAt);
}

void RetryEngine::startAttempt(EngineRun& run, MonoTime scheduledAt)
{
    if (!run.breakerPerCopy && !passBreaker(run, scheduledAt))
        return;
    if (holdForHostThrottle(run))
        return;
    if (run.hedgingIndex >= 0) {
        beginHedging(run, scheduledAt);
        return;
    }
    const QString host = WireSlots::hostKey(run.target);
    const std::optional<int> slot = m_slots->acquire(host, run.record.policy.limits.connectionsPerHost);
    if (!slot) {
        queueForConnection(run, host, scheduledAt);
        return;
    }
    launchAttempt(run, scheduledAt, *slot);
}

// Every connection the policy allows to the host carries an attempt: wait, in order, for one to end. The
// run's deadline still runs; the attempt's own timeouts start only once it has a connection.
void RetryEngine::queueForConnection(EngineRun& run, const QString& host, MonoTime scheduledAt)
{
    run.queuedFor = host;
    run.queuedSince = m_clock.now();
    run.queuedDueAt = scheduledAt;
    m_connectionQueue[host].append(run.record.runId);
    const RetryPolicy& policy = run.record.policy;
    if (!policy.limits.deadline || !run.record.startedAt)
        return;
    const int runId = run.record.runId;
    run.waitTask = m_scheduler.scheduleAt(*run.record.startedAt + *policy.limits.deadline, [this, runId] {
        auto found = m_runs.find(runId);
        if (found == m_runs.end() || found->second->queuedFor.isEmpty())
            return;
        found->second->waitTask.reset();
        finishQueuedAtDeadline(*found->second);
    });
}

bool RetryEngine::deadlinePassed(const EngineRun& run) const
{
    const Limits& limits = run.record.policy.limits;
    return limits.deadline && run.record.startedAt && m_clock.now() >= *run.record.startedAt + *limits.deadline;
}

void RetryEngine::finishQueuedAtDeadline(EngineRun& run)
{
    const auto waited = std::chrono::duration_cast<Millis>(m_clock.now() - run.queuedSince.value_or(m_clock.now()));
    const Limits& limits = run.record.policy.limits;
    finishRun(run.record.runId, FinalKind::Deadline,
        tr("attempt %1 not sent: it waited %2 for one of the %3 connections per host and the %4 deadline passed")
            .arg(int(run.record.attempts.size()) + 1)
            .arg(formatMillis(waited))
            .arg(limits.connectionsPerHost.value_or(0))
            .arg(formatMillis(limits.deadline.value_or(Millis(0)))));
}

void RetryEngine::leaveConnectionQueue(EngineRun& run)
{
    if (run.queuedFor.isEmpty())
        return;
    auto it = m_connectionQueue.find(run.queuedFor);
    if (it != m_connectionQueue.end()) {
        it->second.removeOne(run.record.runId);
        if (it->second.isEmpty())
            m_connectionQueue.erase(it);
    }
    run.queuedFor.clear();
}

void RetryEngine::releaseWireSlot(EngineRun& run)
{
    if (run.wireSlot < 0)
        return;
    m_slots->release(std::exchange(run.wireSlot, -1));
    serveConnectionQueue(WireSlots::hostKey(run.target));
}

// A connection to HOST came free: start the runs waiting for one, first come first served. Looked up again
// on every turn, because starting an attempt emits signals whose slots may cancel runs.
void RetryEngine::serveConnectionQueue(const QString& host)
{
    for (;;) {
        auto queue = m_connectionQueue.find(host);
        if (queue == m_connectionQueue.end() || queue->second.isEmpty())
            return;
        const int runId = queue->second.first();
        auto found = m_runs.find(runId);
        if (found == m_runs.end()) {
            queue->second.removeFirst();
            continue;
        }
        EngineRun& run = *found->second;
        if (deadlinePassed(run)) { // its deadline task has not run yet: the connection came too late
            finishQueuedAtDeadline(run);
            continue;
        }
        const std::optional<int> slot = m_slots->acquire(host, run.record.policy.limits.connectionsPerHost);
        if (!slot)
            return;
        leaveConnectionQueue(run);
        if (run.waitTask)
            m_scheduler.cancel(*std::exchange(run.waitTask, std::nullopt));
        launchAttempt(run, run.queuedDueAt, *slot);
    }
}

void RetryEngine::launchAttempt(EngineRun& run, MonoTime scheduledAt, int slot)
{
    const MonoTime now = m_clock.now();
    AttemptRecord a = run.nextAttempt(scheduledAt, now);
    a.at.queued = std::exchange(run.queuedSince, std::nullopt);
    a.at.verdictWait = std::exchange(run.verdictWaitSince, std::nullopt);
    run.wireSlot = slot;

    Transport* t = m_factory(m_slots->manager(slot), this);
    run.transport = t;
    const int runId = run.record.runId;
    const int index = a.index;
    connect(t, &Transport::phaseReached, this, [this, runId, index](AttemptPhase phase, MonoTime at) {
        if (phase == AttemptPhase::Started || phase == AttemptPhase::Finished)
            return; // attemptStarted / attemptFinished say these
        Q_EMIT attemptPhase(AttemptPhaseEvent { runId, index, phase, at });
    });
    connect(t, &Transport::finished, this,
        [this, runId](const AttemptRecord& record) { onAttemptFinished(runId, record); });
    Q_EMIT attemptStarted(a);
    t->start(std::move(a), run.record.request.body, run.limits());
}

// Before any attempt goes to a host whose quota a response reported spent: wait for the reset (a wait with
// source `throttle`), or end the run without sending when the reset is beyond the policy's maxWait.
bool RetryEngine::holdForHostThrottle(EngineRun& run)
{
    const RetryPolicy& policy = run.record.policy;
    const MonoTime now = m_clock.now();
    const ThrottleHold hold = m_hostThrottle.check(run.target, policy.hostThrottle, now);
    if (hold.kind == ThrottleHold::Kind::Send)
        return false;
    const int runId = run.record.runId;
    const int index = int(run.record.attempts.size()) + 1;
    if (hold.kind == ThrottleHold::Kind::FailFast) {
        finishRun(runId, FinalKind::RateLimited,
            tr("attempt %1 not sent: the host's rate limit (%2) resets in %3, beyond the throttle's %4 maximum wait")
                .arg(index)
                .arg(hold.cause, formatMillis(hold.wait), formatMillis(policy.hostThrottle.maxWait)),
            hold.wait);
        return true;
    }
    if (policy.limits.deadline && now + hold.wait > *run.record.startedAt + *policy.limits.deadline) {
        finishRun(runId, FinalKind::Deadline,
            tr("attempt %1 not sent: waiting %2 for the host's rate-limit reset would pass the %3 deadline")
                .arg(index)
                .arg(formatMillis(hold.wait), formatMillis(*policy.limits.deadline)));
        return true;
    }
    WaitInfo info { runId, index, now, now + hold.wait, {}, true };
    info.decision.verdict = Verdict::Retry;
    info.decision.delay = info.decision.ceiling = info.decision.delayLow = info.decision.delayHigh = hold.wait;
    info.decision.source = DelaySource::Throttle;
    info.decision.reason = tr("attempt %1 held back %2 for the host's rate-limit reset (%3)")
                               .arg(index)
                               .arg(formatMillis(hold.wait), hold.cause);
    scheduleWait(run, info, true);
    return true;
}

void RetryEngine::noteHostReset(const AttemptRecord& record)
{
    const MonoTime received = record.at.headersReceived.value_or(record.at.finished.value_or(m_clock.now()));
    if (const std::optional<HostReset> reset = HostThrottleState::reportedReset(record, received))
        m_hostThrottle.note(HostThrottleState::hostKey(record.url), *reset);
}

std::optional<Millis> RetryEngine::hostResetIn(const QUrl& url) const
{
    if (m_hostThrottle.isEmpty())
        return std::nullopt;
    const std::optional<MonoTime> in = m_hostThrottle.resetIn(HostThrottleState::hostKey(url), m_clock.now());
    if (!in)
        return std::nullopt;
    return std::chrono::ceil<Millis>(*in);
}

void RetryEngine::onAttemptFinished(int runId, AttemptRecord record)
{
    auto it = m_runs.find(runId);
    if (it == m_runs.end())
        return;
    EngineRun& run = *it->second;
    if (run.transport) {
        run.transport->disconnect(this);
        run.transport->deleteLater();
        run.transport = nullptr;
    }
    releaseWireSlot(run); // may start attempts that waited for a connection to this host
    if (!m_runs.count(runId))
        return;
    absorbAnswer(run, record);

    if (run.cancelling || record.abortReason == AbortReason::Cancelled) {
        run.record.attempts.append(record);
        run.record.attemptCount = int(run.record.attempts.size());
        Q_EMIT attemptFinished(record);
        finishRun(runId, FinalKind::Cancelled, tr("cancelled during attempt %1").arg(record.index));
        return;
    }
    // The breaker hears the answer now; the callers waiting for its verdict go on only once this attempt
    // is reported, so what they are refused comes after the probe that decided it (the live order is a
    // recording's order).
    QString verdictOf;
    if (run.breakerTicket && run.breakerPerAttempt) {
        verdictOf = run.breakerKey;
        recordBreaker(run, breakerFailure(run, record), false);
    }
    const AttemptOutcome outcome = outcomeOf(record);
    decideAndContinue(run, std::move(record), outcome);
    if (!verdictOf.isEmpty())
        wakeVerdictWaiters(verdictOf);
}

void RetryEngine::absorbAnswer(EngineRun& run, AttemptRecord& record)
{
    readAnswerHints(record, m_clock.wallNow());
    if (!record.status)
        return;
    for (const auto& [name, value] : std::as_const(record.responseHeaders)) {
        if (name.compare("set-cookie", Qt::CaseInsensitive) == 0)
            run.cookies->setCookiesFromUrl(QNetworkCookie::parseCookies(value), record.url);
    }
    noteHostReset(record);
}

// The retry's turn: decide() on the attempt's outcome (an answer, an error, or a call the breaker inside the
// retry refused), then apply the decision and wait or end the run.
void RetryEngine::decideAndContinue(EngineRun& run, AttemptRecord record, AttemptOutcome outcome)
{
    const int runId = run.record.runId;
    const RetryDecision d = decideOn(run, record, std::move(outcome), record.index);
    run.record.attempts.append(record);
    run.record.attemptCount = int(run.record.attempts.size());
    Q_EMIT attemptFinished(record);
    if (!m_runs.count(runId))
        return; // a slot cancelled it

    if (d.verdict != Verdict::Retry) {
        finishRun(runId, d.finalKind == FinalKind::None ? FinalKind::Success : d.finalKind, d.reason, d.serverAskedFor);
        return;
    }
    const MonoTime now = m_clock.now();
    scheduleWait(run, WaitInfo { runId, record.index + 1, now, now + d.delay, d });
}

RetryDecision RetryEngine::decideOn(EngineRun& run, AttemptRecord& record, AttemptOutcome outcome, int attempt)
{
    const RetryPolicy& policy = run.record.policy;
    const QDateTime wallNow = m_clock.wallNow();
    RequestFacts facts;
    facts.method = record.method;
    facts.hasIdempotencyKey = !record.idempotencyKey.isEmpty()
        || hasHeader(run.record.request.headers, policy.idempotency.header.toLatin1());
    facts.bodyRewindable = true; // the engine keeps the body and sends each attempt through a fresh device
    facts.answerLostEarlier = run.answerLost;
    const AnswerFacts answer = readAnswer(policy, facts, std::move(outcome), wallNow);

    RetryBudget& budget = m_budgets.budgetFor(policy, run.target);
    DecisionContext context;
    context.attempt = attempt;
    context.elapsed = std::chrono::duration_cast<Millis>(m_clock.now() - *run.record.startedAt);
    context.now = wallNow;
    context.budget = budget.view();
    context.budget.hostResetIn = hostResetIn(record.url);
    context.followRedirects = run.record.request.followRedirects && run.hedgingIndex < 0; // a copy is one exchange
    context.redirectsFollowed = run.redirects;
    context.maxRedirects = kMaxRedirects;

    RandomSource& random = m_random ? *m_random : static_cast<RandomSource&>(*run.random);
    const RetryDecision d = decide(policy, answer, context, run.backoff, random);

    // Apply what was decided: the budgets' effects, a redirect's new target, the run's own memory.
    budget.apply(d.effects, record.index > 1, run.quotaAcquired);
    run.quotaAcquired += d.effects.quotaTaken;
    if (d.redirectTo) {
        ++run.redirects;
        run.target = *d.redirectTo;
    }
    if (record.error && errorClassServerCouldHaveActed(*record.error))
        run.answerLost = true;

    record.decision = d;
    record.budgetAfter = budget.view();
    record.budgetAfter.hostResetIn = hostResetIn(run.target);
    return d;
}

// Waits until INFO.dueAt on the scheduler, then starts the next attempt. A wait the host throttle imposed
// (source throttle, before any decision asked for it) is also added to the next attempt's throttleWait.
void RetryEngine::scheduleWait(EngineRun& run, const WaitInfo& info, bool throttleHold)
{
    const int runId = run.record.runId;
    const MonoTime decidedAt = info.scheduledAt;
    const MonoTime due = info.dueAt;
    run.waitTask = m_scheduler.scheduleAt(due, [this, runId, decidedAt, due, throttleHold] {
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            return;
        EngineRun& r = *found->second;
        r.waitTask.reset();
        const auto waited = std::chrono::duration_cast<Millis>(m_clock.now() - decidedAt);
        r.record.totalWait += waited;
        if (throttleHold)
            r.throttleHeld += waited;
        startAttempt(r, due);
    });
    Q_EMIT waitScheduled(info);
}

void RetryEngine::finishRun(int runId, FinalKind kind, const QString& reason, std::optional<Millis> serverAskedFor)
{
    auto it = m_runs.find(runId);
    if (it == m_runs.end())
        return;
    std::unique_ptr<EngineRun> run = std::move(it->second);
    m_runs.erase(it);
    if (run->started)
        --m_running;
    if (run->waitTask)
        m_scheduler.cancel(*run->waitTask);
    leaveConnectionQueue(*run);
    if (run->breakerTicket) {
        // Outside the retry the breaker judges the run's end: its last answer, a deadline (a timeout), or a
        // cancellation (never a failure, as Polly treats a cancelled call). Inside it, only an attempt the
        // run ended before its answer is left, and its breaker saw the call cancelled: not a failure.
        bool failure = !run->breakerPerAttempt && kind == FinalKind::Deadline;
        if (!run->breakerPerAttempt && kind != FinalKind::Cancelled && kind != FinalKind::Deadline && !run->record.attempts.isEmpty()) {
            const AttemptRecord* last = &run->record.attempts.constLast();
            for (const AttemptRecord& a : std::as_const(run->record.attempts))
                if (a.hedge && a.hedge->won)
                    last = &a; // a hedged request's answer is its winning copy's
            failure = breakerFailure(*run, *last);
        }
        recordBreaker(*run, failure);
    }
    if (run->verdictWaitSince) {
        if (BreakerBook::Entry* e = m_breakers->find(run->breakerKey))
            e->waiters.removeAll(runId);
    }
    releasePermit(*run);
    dropCopies(*run);
    if (run->transport) {
        run->transport->disconnect(this);
        run->transport->deleteLater();
    }
    run->record.finishedAt = m_clock.now();
    run->record.outcome = kind;
    run->record.reason = reason;
    run->record.serverAskedFor = serverAskedFor;
    if (run->wireSlot >= 0) { // cancelled mid-attempt: its connection is free for the runs waiting
        m_slots->release(std::exchange(run->wireSlot, -1));
        serveConnectionQueue(WireSlots::hostKey(run->target));
    }
    Q_EMIT runFinished(run->record);
    if (!m_draining)
        pump();
    if (m_runs.empty())
        Q_EMIT idle();
}

void RetryEngine::cancel(int runId)
{
    auto it = m_runs.find(runId);
    if (it == m_runs.end())
        return;
    EngineRun& run = *it->second;
    if (!run.started) {
        finishRun(runId, FinalKind::Cancelled, tr("cancelled before it started"));
        return;
    }
    if (!run.copies.empty()) { // a hedged request: each copy in flight ends cancelled, and is recorded so
        run.cancelling = true;
        QList<int> inFlight;
        for (const EngineRun::HedgeCopy& c : run.copies)
            inFlight.append(c.index);
        cancelCopies(run, AbortReason::Cancelled, inFlight); // the last one's end finishes the run
        if (m_runs.count(runId))
            finishRun(runId, FinalKind::Cancelled, tr("cancelled"));
        return;
    }
    if (run.transport) {
        run.cancelling = true;
        Transport* t = run.transport;
        t->abort(AbortReason::Cancelled); // finished() → onAttemptFinished → finishRun, synchronously
        if (m_runs.count(runId) && m_runs.at(runId)->transport == t)
            finishRun(runId, FinalKind::Cancelled, tr("cancelled"));
        return;
    }
    finishRun(runId, FinalKind::Cancelled,
        run.verdictWaitSince ? tr("cancelled while waiting for the half-open circuit's verdict")
            : run.limiterQueued ? tr("cancelled while waiting for the limiter's permit")
            : run.queuedFor.isEmpty() ? tr("cancelled while waiting") : tr("cancelled while waiting for a connection"));
}

void RetryEngine::cancelAll()
{
    // Queued runs first, so cancelling a running one does not start a queued one.
    QList<int> queued;
    QList<int> running;
    for (const auto& [id, run] : m_runs)
        (run->started ? running : queued).append(id);
    m_draining = true;
    for (int id : std::as_const(queued))
        cancel(id);
    for (int id : std::as_const(running))
        cancel(id);
    m_draining = false;
}

// ---- the pipeline around the retry ---------------------------------------------------------------------


bool RetryEngine::takePermit(EngineRun& run)
{
    if (run.limiterIndex < 0 || run.limiterPerCopy)
        return true; // no limiter, or one inside the hedging (a permit per copy: admitCopy)
    const ResilienceStrategy& s = run.record.policy.pipeline.at(run.limiterIndex);
    Limiter& limiter = m_limiters[run.limiterKey()];
    if (limiter.inUse < s.permits) {
        ++limiter.inUse;
        run.holdsPermit = true;
        return true;
    }
    if (limiter.queue.size() < s.queue) {
        limiter.queue.append(run.record.runId);
        run.limiterQueued = true;
        run.queuedSince = m_clock.now();
        return false;
    }
    refuseAttempt(run, m_clock.now(), StrategyRefusal { StrategyRefusal::By::RateLimiter, QStringLiteral("client") });
    return false;
}

// The run ends: its permit goes to the first run waiting for one.
void RetryEngine::releasePermit(EngineRun& run)
{
    if (run.limiterIndex < 0 || (!run.holdsPermit && !run.limiterQueued))
        return;
    auto it = m_limiters.find(run.limiterKey());
    if (it == m_limiters.end())
        return;
    if (run.limiterQueued) {
        it->second.queue.removeAll(run.record.runId);
        run.limiterQueued = false;
        return;
    }
    run.holdsPermit = false;
    --it->second.inUse;
    while (!it->second.queue.isEmpty()) {
        const int next = it->second.queue.takeFirst();
        auto found = m_runs.find(next);
        if (found == m_runs.end())
            continue;
        EngineRun& waiting = *found->second;
        waiting.limiterQueued = false;
        waiting.holdsPermit = true;
        ++it->second.inUse;
        startAttempt(waiting, m_clock.now()); // may end runs (and so come back here): nothing is held across it
        return;
    }
}

bool RetryEngine::passBreaker(EngineRun& run, MonoTime scheduledAt)
{
    const ResilienceStrategy* s = run.breaker();
    if (!s || run.breakerTicket)
        return true; // no breaker, or this call was let through already (outside the retry: once a run)
    const MonoTime now = m_clock.now();
    const QString& policy = run.record.policy.name;
    BreakerBook::Entry& entry = m_breakers->entryFor(policy, run.breakerIndex, *s, run.target);
    run.breakerKey = BreakerBook::keyOf(policy, run.breakerIndex, *s, run.target);
    const CircuitBreaker::Ticket ticket = entry.breaker.admit(BreakerBook::axis(now));
    const QString scope = entry.scope;
    const QString key = run.breakerKey;
    switch (ticket.admission) {
    case CircuitBreaker::Admission::Allowed:
    case CircuitBreaker::Admission::Probe:
        run.breakerTicket = ticket;
        publishBreaker(key);
        return true;
    case CircuitBreaker::Admission::Wait:
        if (!run.verdictWaitSince)
            run.verdictWaitSince = now;
        run.verdictDueAt = scheduledAt;
        entry.waiters.append(run.record.runId);
        publishBreaker(key);
        return false;
    case CircuitBreaker::Admission::Rejected:
        break;
    }
    publishBreaker(key);
    refuseAttempt(run, scheduledAt, StrategyRefusal { StrategyRefusal::By::CircuitBreaker, scope, ticket.state, ticket.retryIn });
    return false;
}

// Whether the breaker counts RECORD as a failure: its `failures` conditions (the rules' own matching), or
// slower than its slow-call limit.
bool RetryEngine::breakerFailure(const EngineRun& run, const AttemptRecord& record) const
{
    const ResilienceStrategy* s = run.breaker();
    if (!s || record.refused)
        return false;
    if (s->slowCall && record.duration() && *record.duration() > *s->slowCall)
        return true;
    return matchesAny(s->failures, run, record);
}

// Whether RECORD matches any of CONDITIONS, as the rules match (a breaker's or a hedging's failures).
bool RetryEngine::matchesAny(const QList<RuleCondition>& conditions, const EngineRun& run, const AttemptRecord& record) const
{
    RequestFacts facts;
    facts.method = record.method;
    facts.hasIdempotencyKey = !record.idempotencyKey.isEmpty();
    facts.answerLostEarlier = run.answerLost;
    const AttemptOutcome outcome = outcomeOf(record);
    return std::any_of(conditions.cbegin(), conditions.cend(),
        [&](const RuleCondition& when) { return conditionMatches(when, facts, outcome); });
}

void RetryEngine::recordBreaker(EngineRun& run, bool failure, bool wakeWaiters)
{
    const std::optional<CircuitBreaker::Ticket> ticket = std::exchange(run.breakerTicket, std::nullopt);
    if (ticket)
        recordBreakerTicket(run.breakerKey, *ticket, failure, wakeWaiters);
}

void RetryEngine::recordBreakerTicket(const QString& breakerKey, const CircuitBreaker::Ticket& ticket, bool failure, bool wakeWaiters)
{
    BreakerBook::Entry* entry = m_breakers->find(breakerKey);
    if (!entry)
        return;
    entry->breaker.record(ticket, failure, BreakerBook::axis(m_clock.now()));
    const QString key = breakerKey; // the entry's waiters may end runs that hold the caller's copy
    publishBreaker(key);
    if (wakeWaiters)
        wakeVerdictWaiters(key);
}

// Reports the breaker's new changes; arms the timer of a breaker that turns half-open on its own.
void RetryEngine::publishBreaker(const QString& key)
{
    BreakerBook::Entry* entry = m_breakers->find(key);
    if (!entry)
        return;
    for (const BreakerChange& change : BreakerBook::takeChanges(*entry))
        Q_EMIT breakerChanged(change);
    const CircuitBreakerOptions& options = entry->breaker.options();
    if (options.transition != CircuitBreakerOptions::Transition::Timer || entry->timer)
        return;
    if (entry->breaker.state(BreakerBook::axis(m_clock.now())) != CircuitBreaker::State::Open)
        return;
    entry->timer = m_scheduler.scheduleAt(MonoTime(entry->breaker.openUntil()), [this, key] {
        BreakerBook::Entry* e = m_breakers->find(key);
        if (!e)
            return;
        e->timer.reset();
        e->breaker.state(BreakerBook::axis(m_clock.now()));
        publishBreaker(key);
    });
}

// A result came: the runs that waited for the half-open verdict ask again, in the order they came.
void RetryEngine::wakeVerdictWaiters(const QString& key)
{
    BreakerBook::Entry* entry = m_breakers->find(key);
    if (!entry || entry->waiters.isEmpty())
        return;
    const QList<int> waiting = std::exchange(entry->waiters, {});
    for (int runId : waiting) {
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            continue;
        startAttempt(*found->second, found->second->verdictDueAt);
    }
}

// A call the pipeline refused: recorded as an attempt that never reached the wire. Inside the retry the
// refusal is the retry's outcome to decide on (`circuit-open`); outside it, or with no retry, the run ends.
AttemptRecord RetryEngine::refusedRecord(EngineRun& run, MonoTime scheduledAt, const StrategyRefusal& refusal, int index)
{
    const MonoTime now = m_clock.now();
    AttemptRecord a = run.nextAttempt(scheduledAt, now, index);
    a.at.started.reset();
    a.at.queued = std::exchange(run.queuedSince, std::nullopt);
    a.at.verdictWait = std::exchange(run.verdictWaitSince, std::nullopt);
    a.at.finished = now;
    a.phaseReached = AttemptPhase::Scheduled;
    a.refused = refusal;
    return a;
}

void RetryEngine::refuseAttempt(EngineRun& run, MonoTime scheduledAt, const StrategyRefusal& refusal)
{
    AttemptRecord a = refusedRecord(run, scheduledAt, refusal);
    Q_EMIT attemptStarted(a);
    const int runId = run.record.runId;
    if (!m_runs.count(runId))
        return;
    if (refusal.by == StrategyRefusal::By::CircuitBreaker && run.breakerInsideRetry) {
        decideAndContinue(run, std::move(a), AttemptOutcome::refusedByBreaker(refusal.retryIn));
        return;
    }
    RetryDecision d;
    d.verdict = Verdict::Stop;
    if (refusal.by == StrategyRefusal::By::CircuitBreaker) {
        d.finalKind = FinalKind::CircuitOpen;
        d.reason = tr("attempt %1 not sent: the circuit breaker (%2) is %3, %4 left of its break")
                       .arg(a.index)
                       .arg(refusal.scope, stateName(refusal.state), formatMillis(refusal.retryIn));
    } else {
        d.finalKind = FinalKind::LimiterFull;
        d.reason = tr("attempt %1 not sent: the %2 had no permit free and no room in its queue")
                       .arg(a.index)
                       .arg(strategyKindName(run.record.policy.pipeline.at(run.limiterIndex).kind));
    }
    a.decision = d;
    run.record.attempts.append(a);
    run.record.attemptCount = int(run.record.attempts.size());
    Q_EMIT attemptFinished(a);
    if (m_runs.count(runId))
        finishRun(runId, d.finalKind, d.reason);
}
