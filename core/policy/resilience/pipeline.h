// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A resilience pipeline: strategies in order, outermost first, as Polly 8, Microsoft.Extensions.Http.
// Resilience, resilience4j and cockatiel's wrap() compose them (resilience-fleets.md §1.2, §1.5). The retry
// strategy is the policy's own retry (RetryPolicy's limits, backoff, rules…); the others carry their own
// settings here. A policy without a pipeline is one retry (policy format 1). Written as `pipeline` in policy
// format 2 (resources/docs/policy-format.md).

#include "policy/resilience/circuitbreakeroptions.h"
#include "policy/resilience/hedging.h"
#include "policy/rulecondition.h"

#include <QList>

struct PolicyProblem;
struct RetryPolicy;

struct ResilienceStrategy
{
    enum class Kind : quint8 {
        TotalTimeout, // the logical request, every attempt and wait inside it
        Retry, // the policy's retry
        CircuitBreaker,
        AttemptTimeout, // one attempt
        Hedging,
        RateLimiter, // concurrent calls: permits, then a queue (MEHR's ConcurrencyLimiter)
        Bulkhead, // the same, as cockatiel and resilience4j call it
    };
    Kind kind = Kind::Retry;
    Millis timeout { 0 }; // TotalTimeout, AttemptTimeout
    CircuitBreakerOptions breaker; // CircuitBreaker
    // CircuitBreaker: what counts as a failure; Hedging: an answer that sends the next copy instead of
    // ending the request (gRPC's non-fatal statuses, Polly's ShouldHandle). In the rules' own conditions,
    // an attempt that matches any. The default is Polly's: any error (an exception), no status.
    QList<RuleCondition> failures { RuleCondition { OutcomeKind::Error, {}, {}, {}, {}, {}, {}, {}, {} } };
    std::optional<Millis> slowCall; // CircuitBreaker: a call longer than this is a failure (resilience4j)
    HedgingOptions hedging; // Hedging
    bool hedgeUnsafe = false; // Hedging: copies of requests the policy sends without an idempotency key
    int permits = 1000; // RateLimiter, Bulkhead: calls at once
    int queue = 0; // RateLimiter, Bulkhead: calls waiting for a permit beyond those

    friend bool operator==(const ResilienceStrategy&, const ResilienceStrategy&) = default;
};

QString strategyKindName(ResilienceStrategy::Kind kind); // "total_timeout", "circuit_breaker"…
QStringList strategyKindNames(); // in Kind order

// The problems of POLICY's pipeline with paths ("pipeline[2].timeout_ms"): each strategy's own ranges,
// then the rules across strategies the libraries enforce — at most one of each kind (rate limiters
// aside); no retry strategy means one attempt; a pipeline's timeouts are its strategies, not also limits;
// an attempt timeout within the total (MEHR), a breaker's sampling at least twice the attempt timeout
// (MEHR, on Polly's breaker: a time window whose buckets start at a call), hedges × delay within the total (MEHR's hedging validator); hedging copies only requests that
// carry an idempotency key unless hedge_unsafe says otherwise (issue 28 §1).
QList<PolicyProblem> validatePipeline(const RetryPolicy& policy);
