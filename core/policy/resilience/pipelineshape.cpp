// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/resilience/pipelineshape.h"

#include <algorithm>

namespace {

int lastIndexOf(const QList<ResilienceStrategy>& strategies, ResilienceStrategy::Kind kind)
{
    int at = -1;
    for (qsizetype i = 0; i < strategies.size(); ++i)
        if (strategies.at(i).kind == kind)
            at = int(i);
    return at;
}

void tighten(std::optional<Millis>& limit, Millis value)
{
    limit = limit ? std::min(*limit, value) : value;
}

bool isTimeout(const ResilienceStrategy& s)
{
    return s.kind == ResilienceStrategy::Kind::TotalTimeout || s.kind == ResilienceStrategy::Kind::AttemptTimeout;
}

} // namespace

PipelineShape readPipeline(const RetryPolicy& policy)
{
    PipelineShape shape;
    shape.policy = policy;
    const QList<ResilienceStrategy>& pipeline = policy.pipeline;
    const int retryAt = lastIndexOf(pipeline, ResilienceStrategy::Kind::Retry);
    const int anchor = retryAt >= 0 ? retryAt : lastIndexOf(pipeline, ResilienceStrategy::Kind::Hedging);
    for (qsizetype i = 0; i < pipeline.size(); ++i) {
        const ResilienceStrategy& s = pipeline.at(i);
        if (isTimeout(s))
            tighten(anchor >= 0 && i < anchor ? shape.policy.limits.deadline : shape.policy.limits.attemptTimeout, s.timeout);
    }
    shape.policy.pipeline.removeIf(isTimeout);

    const QList<ResilienceStrategy>& kept = shape.policy.pipeline;
    shape.retryIndex = lastIndexOf(kept, ResilienceStrategy::Kind::Retry);
    shape.hedgingIndex = lastIndexOf(kept, ResilienceStrategy::Kind::Hedging);
    const int keptAnchor = shape.retryIndex >= 0 ? shape.retryIndex : shape.hedgingIndex;
    for (qsizetype i = 0; i < kept.size(); ++i) {
        switch (kept.at(i).kind) {
        case ResilienceStrategy::Kind::CircuitBreaker:
            shape.breakerIndex = int(i);
            shape.breakerPerAttempt = !(keptAnchor >= 0 && i < keptAnchor);
            shape.breakerInsideRetry = shape.retryIndex >= 0 && i > shape.retryIndex;
            shape.breakerPerCopy = shape.hedgingIndex >= 0 && i > shape.hedgingIndex;
            break;
        case ResilienceStrategy::Kind::RateLimiter:
        case ResilienceStrategy::Kind::Bulkhead:
            shape.limiterIndex = int(i);
            shape.limiterPerCopy = shape.hedgingIndex >= 0 && i > shape.hedgingIndex;
            break;
        default:
            break;
        }
    }
    // Hedging without a retry: each copy is one attempt (the policy's own retry has no strategy to run).
    if (shape.hedgingIndex >= 0 && shape.retryIndex < 0)
        shape.policy.limits.maxAttempts = 1;
    return shape;
}
