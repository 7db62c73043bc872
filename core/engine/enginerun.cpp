// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/enginerun.h"

#include "engine/requestheaders.h"

#include <QNetworkCookie>

#include <algorithm>
#include <utility>

EngineRun::EngineRun(int id, const RequestSpec& request, const RetryPolicy& policy, std::uint64_t seed, MonoTime submittedAt)
    : random(std::make_unique<LazyRandomSource>(seed))
    , cookies(std::make_unique<QNetworkCookieJar>())
    , target(request.url)
{
    record.runId = id;
    record.request = request;
    record.request.method = request.method.toUpper();
    record.policy = policy;
    // The pipeline's timeouts: outside the retry (or the hedging: the strategy that makes several attempts)
    // a total timeout is the run's deadline; inside it, or with neither, either one bounds each attempt (an
    // attempt timeout outside the retry bounds the whole call).
    const QList<ResilienceStrategy>& pipeline = policy.pipeline;
    const auto indexOf = [](const QList<ResilienceStrategy>& strategies, ResilienceStrategy::Kind kind) {
        qsizetype at = -1;
        for (qsizetype i = 0; i < strategies.size(); ++i)
            if (strategies.at(i).kind == kind)
                at = i;
        return at;
    };
    qsizetype retryAt = indexOf(pipeline, ResilienceStrategy::Kind::Retry);
    qsizetype anchor = retryAt >= 0 ? retryAt : indexOf(pipeline, ResilienceStrategy::Kind::Hedging);
    const auto tighten = [](std::optional<Millis>& limit, Millis value) {
        limit = limit ? std::min(*limit, value) : value;
    };
    for (qsizetype i = 0; i < pipeline.size(); ++i) {
        const ResilienceStrategy& s = pipeline.at(i);
        if (s.kind == ResilienceStrategy::Kind::TotalTimeout || s.kind == ResilienceStrategy::Kind::AttemptTimeout)
            tighten(anchor >= 0 && i < anchor ? record.policy.limits.deadline : record.policy.limits.attemptTimeout, s.timeout);
    }
    // The snapshot a session keeps holds them once, as the limits they became (a policy may not state a
    // timeout both ways), so a recording reopens and replays as it ran.
    record.policy.pipeline.removeIf([](const ResilienceStrategy& s) {
        return s.kind == ResilienceStrategy::Kind::TotalTimeout || s.kind == ResilienceStrategy::Kind::AttemptTimeout;
    });
    const QList<ResilienceStrategy>& kept = record.policy.pipeline;
    retryAt = indexOf(kept, ResilienceStrategy::Kind::Retry);
    hedgingIndex = int(indexOf(kept, ResilienceStrategy::Kind::Hedging));
    anchor = retryAt >= 0 ? retryAt : hedgingIndex;
    for (qsizetype i = 0; i < kept.size(); ++i) {
        switch (kept.at(i).kind) {
        case ResilienceStrategy::Kind::CircuitBreaker:
            breakerIndex = int(i);
            breakerPerAttempt = !(anchor >= 0 && i < anchor);
            breakerInsideRetry = retryAt >= 0 && i > retryAt;
            breakerPerCopy = hedgingIndex >= 0 && i > hedgingIndex;
            break;
        case ResilienceStrategy::Kind::RateLimiter:
        case ResilienceStrategy::Kind::Bulkhead:
            limiterIndex = int(i);
            limiterPerCopy = hedgingIndex >= 0 && i > hedgingIndex;
            break;
        default:
            break;
        }
    }
    // Hedging without a retry: each copy is one attempt (the policy's own retry has no strategy to run).
    if (hedgingIndex >= 0 && retryAt < 0)
        record.policy.limits.maxAttempts = 1;
    if (request.attemptTimeout)
        record.policy.limits.attemptTimeout = request.attemptTimeout;
    if (request.connectTimeout)
        record.policy.limits.connectTimeout = request.connectTimeout;
    if (request.deadline)
        record.policy.limits.deadline = request.deadline;
    if (request.connectionsPerHost)
        record.policy.limits.connectionsPerHost = request.connectionsPerHost;
    record.seed = seed;
    record.submittedAt = submittedAt;
}

AttemptRecord EngineRun::nextAttempt(MonoTime scheduledAt, MonoTime now, int index)
{
    AttemptRecord a;
    a.runId = record.runId;
    a.index = index > 0 ? index : int(record.attempts.size()) + 1;
    a.at.scheduled = scheduledAt;
    a.at.started = now;
    a.phaseReached = AttemptPhase::Scheduled;
    const RequestSpec& spec = record.request;
    a.method = spec.method;
    a.url = target;
    a.idempotencyKey = idempotencyKey;
    a.attemptId = attemptIdFor(attemptRun, a.index);
    QByteArray cookie;
    for (const QNetworkCookie& c : cookies->cookiesForUrl(a.url))
        cookie += (cookie.isEmpty() ? QByteArray() : QByteArrayLiteral("; ")) + c.toRawForm(QNetworkCookie::NameAndValueOnly);
    a.requestHeaders = buildRequestHeaders(spec, record.policy, a.url, a.idempotencyKey,
        spec.attemptIdEnabled ? a.attemptId : QString(), cookie);
    a.bodySize = spec.body.size();
    a.bodySha256 = bodySha256;
    a.throttleWait = std::exchange(throttleHeld, Millis(0));
    return a;
}

AttemptLimits EngineRun::limits() const
{
    const RetryPolicy& policy = record.policy;
    AttemptLimits limits;
    limits.attemptTimeout = policy.limits.attemptTimeout;
    limits.connectTimeout = policy.limits.connectTimeout;
    if (policy.limits.deadline && record.startedAt)
        limits.deadline = *record.startedAt + *policy.limits.deadline;
    limits.http2Allowed = record.request.http2Allowed;
    limits.bodyExcerptCap = record.request.bodyExcerptCap;
    limits.extraCaCertificates = record.request.extraCaCertificates;
    return limits;
}
