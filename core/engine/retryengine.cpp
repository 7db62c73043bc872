// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/retryengine.h"

#include "engine/attempttransport.h"
#include "engine/clock.h"
#include "engine/requestheaders.h"
#include "engine/scheduler.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/randomsource.h"
#include "policy/retrybudget.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkCookie>
#include <QNetworkCookieJar>
#include <QNetworkProxy>

#include <algorithm>

namespace {
constexpr int kMaxRedirects = 10;
}

struct RetryEngine::Run
{
    RunRecord record;
    std::unique_ptr<SeededRandomSource> random;
    BackoffState backoff;
    std::unique_ptr<QNetworkCookieJar> cookies;
    QString idempotencyKey;
    QUrl target; // where the next attempt goes (changes when a redirect is followed)
    int redirects = 0;
    bool started = false;
    bool answerLost = false;
    bool cancelling = false;
    int quotaAcquired = 0;
    Transport* transport = nullptr;
    std::optional<Scheduler::TaskId> waitTask;
    MonoTime waitDecidedAt { 0 };
};

void RetryEngine::registerMetaTypes()
{
    qRegisterMetaType<AttemptRecord>();
    qRegisterMetaType<AttemptPhaseEvent>();
    qRegisterMetaType<WaitInfo>();
    qRegisterMetaType<RunRecord>();
    qRegisterMetaType<AttemptPhase>();
}

RetryEngine::RetryEngine(const Clock& clock, Scheduler& scheduler, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_scheduler(scheduler)
    , m_nam(new QNetworkAccessManager(this))
{
    registerMetaTypes();
    m_nam->setProxy(QNetworkProxy::NoProxy); // no proxy unless the user sets one (qt-internals §1.5)
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_nam->setAutoDeleteReplies(false);
    m_factory = [this](QObject* p) -> Transport* { return new AttemptTransport(*m_nam, m_clock, p); };
}

RetryEngine::~RetryEngine()
{
    for (auto& [id, run] : m_runs) {
        if (run->waitTask)
            m_scheduler.cancel(*run->waitTask);
        if (run->transport) {
            run->transport->disconnect(this);
            delete run->transport; // aborts its reply without a signal
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
    return int(std::count_if(m_runs.begin(), m_runs.end(), [](const auto& e) { return e.second->started; }));
}

int RetryEngine::queuedCount() const
{
    return int(m_runs.size()) - runningCount();
}

int RetryEngine::submit(const RequestSpec& request, const RetryPolicy& policy, std::optional<std::uint64_t> seed)
{
    auto run = std::make_unique<Run>();
    const int id = m_nextId++;
    run->record.runId = id;
    run->record.request = request;
    run->record.request.method = request.method.toUpper();
    run->record.policy = policy;
    // The request's overrides become part of the run's policy snapshot.
    if (request.attemptTimeout)
        run->record.policy.limits.attemptTimeout = request.attemptTimeout;
    if (request.connectTimeout)
        run->record.policy.limits.connectTimeout = request.connectTimeout;
    if (request.deadline)
        run->record.policy.limits.deadline = request.deadline;
    run->record.seed = seed ? *seed : m_nextSeed++;
    run->record.submittedAt = m_clock.now();
    run->random = std::make_unique<SeededRandomSource>(run->record.seed);
    run->cookies = std::make_unique<QNetworkCookieJar>();
    run->target = request.url;
    m_runs.emplace(id, std::move(run));
    pump();
    return id;
}

void RetryEngine::pump()
{
    int running = runningCount();
    for (auto& [id, run] : m_runs) {
        if (running >= m_limit)
            break;
        if (run->started)
            continue;
        ++running;
        const int runId = id;
        startRun(*run);
        // startRun may have finished (and erased) runs; restart the scan from a valid iterator.
        if (!m_runs.count(runId)) {
            pump();
            return;
        }
    }
}

void RetryEngine::startRun(Run& run)
{
    run.started = true;
    run.record.startedAt = m_clock.now();
    run.idempotencyKey = chooseIdempotencyKey(run.record.request, run.record.policy);
    Q_EMIT runStarted(run.record);
    startAttempt(run, *run.record.startedAt);
}

RetryBudget& RetryEngine::budgetFor(const Run& run)
{
    const RetryPolicy& p = run.record.policy;
    const bool hostScoped = (p.quota.enabled && p.quota.scope == BudgetScope::Host)
        || (!p.quota.enabled && p.throttling.enabled && p.throttling.scope == BudgetScope::Host);
    QString key = p.name + u'|';
    if (hostScoped)
        key += run.target.host() + u':' + QString::number(run.target.port(run.target.scheme() == QLatin1String("https") ? 443 : 80));
    auto& slot = m_budgets[key];
    if (!slot)
        slot = std::make_unique<RetryBudget>(p.quota, p.throttling);
    return *slot;
}

AttemptRecord RetryEngine::prepareAttempt(Run& run, MonoTime scheduledAt)
{
    AttemptRecord a;
    a.runId = run.record.runId;
    a.index = int(run.record.attempts.size()) + 1;
    a.at.scheduled = scheduledAt;
    a.at.started = m_clock.now();
    a.phaseReached = AttemptPhase::Scheduled;
    const RequestSpec& spec = run.record.request;
    a.method = spec.method;
    a.url = run.target;
    a.idempotencyKey = run.idempotencyKey;
    a.attemptId = newAttemptId();
    QByteArray cookie;
    for (const QNetworkCookie& c : run.cookies->cookiesForUrl(a.url))
        cookie += (cookie.isEmpty() ? QByteArray() : QByteArrayLiteral("; ")) + c.toRawForm(QNetworkCookie::NameAndValueOnly);
    a.requestHeaders = buildRequestHeaders(spec, run.record.policy, a.url, a.idempotencyKey,
        spec.attemptIdEnabled ? a.attemptId : QString(), cookie);
    a.bodySize = spec.body.size();
    a.bodySha256 = bodyHash(spec.body);
    return a;
}

void RetryEngine::startAttempt(Run& run, MonoTime scheduledAt)
{
    const RetryPolicy& policy = run.record.policy;
    AttemptRecord a = prepareAttempt(run, scheduledAt);
    AttemptLimits limits;
    limits.attemptTimeout = policy.limits.attemptTimeout;
    limits.connectTimeout = policy.limits.connectTimeout;
    if (policy.limits.deadline && run.record.startedAt)
        limits.deadline = *run.record.startedAt + *policy.limits.deadline;
    limits.http2Allowed = run.record.request.http2Allowed;
    limits.bodyExcerptCap = run.record.request.bodyExcerptCap;
    limits.extraCaCertificates = run.record.request.extraCaCertificates;

    Transport* t = m_factory(this);
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
    t->start(a, run.record.request.body, limits);
}

void RetryEngine::onAttemptFinished(int runId, AttemptRecord record)
{
    auto it = m_runs.find(runId);
    if (it == m_runs.end())
        return;
    Run& run = *it->second;
    if (run.transport) {
        run.transport->disconnect(this);
        run.transport->deleteLater();
        run.transport = nullptr;
    }
    const RetryPolicy& policy = run.record.policy;
    const QDateTime wallNow = m_clock.wallNow();

    if (record.status) {
        record.retryAfter = parseRetryAfter(record.responseHeaders, wallNow);
        record.rateLimitHeaders = rateLimitFieldsOf(record.responseHeaders);
        for (const auto& [name, value] : std::as_const(record.responseHeaders)) {
            if (name.compare("set-cookie", Qt::CaseInsensitive) == 0)
                run.cookies->setCookiesFromUrl(QNetworkCookie::parseCookies(value), record.url);
        }
    }

    if (run.cancelling || record.abortReason == AbortReason::Cancelled) {
        run.record.attempts.append(record);
        Q_EMIT attemptFinished(record);
        finishRun(runId, FinalKind::Cancelled, tr("cancelled during attempt %1").arg(record.index));
        return;
    }

    AttemptOutcome outcome;
    outcome.status = record.status;
    outcome.headers = record.responseHeaders;
    outcome.body = record.bodyExcerpt;
    outcome.error = record.error;
    outcome.errorDetail = record.qtError;

    RequestFacts facts;
    facts.method = record.method;
    facts.hasIdempotencyKey = !record.idempotencyKey.isEmpty()
        || hasHeader(run.record.request.headers, policy.idempotency.header.toLatin1());
    facts.bodyRewindable = true; // the engine keeps the body and sends each attempt through a fresh device
    facts.answerLostEarlier = run.answerLost;

    RetryBudget& budget = budgetFor(run);
    const bool failure = record.error || (record.status && (*record.status >= 500 || *record.status == 429));
    if (failure)
        budget.recordFailure();

    DecisionContext context;
    context.attempt = record.index;
    context.elapsed = std::chrono::duration_cast<Millis>(m_clock.now() - *run.record.startedAt);
    context.now = wallNow;
    context.budget = budget.view();

    RandomSource& random = m_random ? *m_random : static_cast<RandomSource&>(*run.random);
    RetryDecision d = decide(policy, facts, outcome, context, run.backoff, random);

    bool redirect = false;
    if (record.abortReason == AbortReason::Deadline) {
        d = RetryDecision {};
        d.verdict = Verdict::Stop;
        d.finalKind = FinalKind::Deadline;
        d.reason = tr("the %1 deadline passed during attempt %2")
                       .arg(QString::number(policy.limits.deadline.value_or(Millis(0)).count()) + QStringLiteral(" ms"))
                       .arg(record.index);
    } else if (run.record.request.followRedirects && record.redirectTarget && record.status && *record.status >= 300
        && *record.status < 400 && d.verdict != Verdict::Retry) {
        if (run.redirects < kMaxRedirects) {
            ++run.redirects;
            redirect = true;
            d = RetryDecision {};
            d.verdict = Verdict::Retry;
            d.reason = tr("%1 redirect followed to %2").arg(*record.status).arg(record.redirectTarget->toString());
            run.target = *record.redirectTarget;
        }
    }
    if (d.verdict == Verdict::Retry && !redirect) {
        const int cost = retryQuotaCost(policy, outcome, d.throttling);
        if (cost > 0 && !budget.acquire(cost)) {
            d.verdict = Verdict::Stop;
            d.finalKind = FinalKind::BudgetExhausted;
            d.reason = tr("the retry quota has no %1 tokens left for this retry").arg(cost);
        } else {
            run.quotaAcquired += std::max(0, cost);
        }
    }
    if (d.verdict == Verdict::Success)
        budget.recordSuccess(record.index > 1, run.quotaAcquired);
    if (record.error && errorClassServerCouldHaveActed(*record.error))
        run.answerLost = true;

    record.decision = d;
    record.budgetAfter = budget.view();
    run.record.attempts.append(record);
    Q_EMIT attemptFinished(record);
    if (!m_runs.count(runId))
        return; // a slot cancelled it

    if (d.verdict != Verdict::Retry) {
        finishRun(runId, d.finalKind == FinalKind::None ? FinalKind::Success : d.finalKind, d.reason, d.serverAskedFor);
        return;
    }
    WaitInfo wait;
    wait.runId = runId;
    wait.nextIndex = record.index + 1;
    wait.scheduledAt = m_clock.now();
    wait.dueAt = wait.scheduledAt + d.delay;
    wait.decision = d;
    run.waitDecidedAt = wait.scheduledAt;
    const MonoTime due = wait.dueAt;
    run.waitTask = m_scheduler.scheduleAt(due, [this, runId, due] {
        auto found = m_runs.find(runId);
        if (found == m_runs.end())
            return;
        Run& r = *found->second;
        r.waitTask.reset();
        r.record.totalWait += std::chrono::duration_cast<Millis>(m_clock.now() - r.waitDecidedAt);
        startAttempt(r, due);
    });
    Q_EMIT waitScheduled(wait);
}

void RetryEngine::finishRun(int runId, FinalKind kind, const QString& reason, std::optional<Millis> serverAskedFor)
{
    auto it = m_runs.find(runId);
    if (it == m_runs.end())
        return;
    std::unique_ptr<Run> run = std::move(it->second);
    m_runs.erase(it);
    if (run->waitTask)
        m_scheduler.cancel(*run->waitTask);
    if (run->transport) {
        run->transport->disconnect(this);
        run->transport->deleteLater();
    }
    run->record.finishedAt = m_clock.now();
    run->record.outcome = kind;
    run->record.reason = reason;
    run->record.serverAskedFor = serverAskedFor;
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
    Run& run = *it->second;
    if (!run.started) {
        finishRun(runId, FinalKind::Cancelled, tr("cancelled before it started"));
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
    finishRun(runId, FinalKind::Cancelled, tr("cancelled while waiting"));
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
