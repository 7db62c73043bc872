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
    // The pipeline's timeouts: outside the retry (or with no retry) a total timeout is the run's deadline;
    // inside it, either one bounds each attempt (an attempt timeout outside the retry bounds the whole call).
    const QList<ResilienceStrategy>& pipeline = policy.pipeline;
    qsizetype retryAt = -1;
    for (qsizetype i = 0; i < pipeline.size(); ++i)
        if (pipeline.at(i).kind == ResilienceStrategy::Kind::Retry)
            retryAt = i;
    const auto tighten = [](std::optional<Millis>& limit, Millis value) {
        limit = limit ? std::min(*limit, value) : value;
    };
    for (qsizetype i = 0; i < pipeline.size(); ++i) {
        const ResilienceStrategy& s = pipeline.at(i);
        const bool outside = retryAt < 0 || i < retryAt;
        if (s.kind == ResilienceStrategy::Kind::TotalTimeout || s.kind == ResilienceStrategy::Kind::AttemptTimeout)
            tighten(outside && retryAt >= 0 ? record.policy.limits.deadline : record.policy.limits.attemptTimeout, s.timeout);
    }
    // The snapshot a session keeps holds them once, as the limits they became (a policy may not state a
    // timeout both ways), so a recording reopens and replays as it ran.
    record.policy.pipeline.removeIf([](const ResilienceStrategy& s) {
        return s.kind == ResilienceStrategy::Kind::TotalTimeout || s.kind == ResilienceStrategy::Kind::AttemptTimeout;
    });
    const QList<ResilienceStrategy>& kept = record.policy.pipeline;
    retryAt = -1;
    for (qsizetype i = 0; i < kept.size(); ++i)
        if (kept.at(i).kind == ResilienceStrategy::Kind::Retry)
            retryAt = i;
    for (qsizetype i = 0; i < kept.size(); ++i) {
        switch (kept.at(i).kind) {
        case ResilienceStrategy::Kind::CircuitBreaker:
            breakerIndex = int(i);
            breakerPerAttempt = !(retryAt >= 0 && i < retryAt);
            breakerInsideRetry = retryAt >= 0 && i > retryAt;
            break;
        case ResilienceStrategy::Kind::RateLimiter:
        case ResilienceStrategy::Kind::Bulkhead:
            limiterIndex = int(i);
            break;
        default:
            break;
        }
    }
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

AttemptRecord EngineRun::nextAttempt(MonoTime scheduledAt, MonoTime now)
{
    AttemptRecord a;
    a.runId = record.runId;
    a.index = int(record.attempts.size()) + 1;
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
