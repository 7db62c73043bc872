// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/enginerun.h"

#include "engine/requestheaders.h"
#include "policy/resilience/pipelineshape.h"

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
    const PipelineShape shape = readPipeline(policy);
    record.policy = shape.policy;
    breakerIndex = shape.breakerIndex;
    breakerPerAttempt = shape.breakerPerAttempt;
    breakerInsideRetry = shape.breakerInsideRetry;
    breakerPerCopy = shape.breakerPerCopy;
    limiterIndex = shape.limiterIndex;
    limiterPerCopy = shape.limiterPerCopy;
    hedgingIndex = shape.hedgingIndex;
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
