// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the resilience4j targets share (Java code and Spring Boot YAML): whether resilience4j's own interval
// functions draw the policy's curve, what its circuit breaker can carry, and the Java of the per-call
// `RetryCall` that judges each attempt by the policy's rules, draws the backoff and reads the hints as
// core/policy/decide.cpp does. Facts: retry-systems.md §8, resilience-fleets.md §1.4 and §5 (resilience4j
// af9e7c97: resilience4j-retry RetryConfig.java, internal/RetryImpl.java; resilience4j-core IntervalFunction.java,
// IntervalBiFunction.java; resilience4j-circuitbreaker CircuitBreakerConfig.java; resilience4j-framework-common
// Common{Retry,CircuitBreaker}ConfigurationProperties.java).

#include "codegen/codewriter.h"
#include "policy/resilience/pipelineshape.h"

#include <QSet>
#include <QString>

// resilience4j's interval for the policy's curve: waitDuration, ofRandomized, ofExponential(Random)Backoff.
struct R4jInterval
{
    bool exact = false; // draws the policy's curve (to resilience4j's whole-millisecond steps)
    bool exponential = false;
    bool randomized = false;
    Millis wait { 0 };
    double multiplier = 1.5;
    double factor = 0.5;
    std::optional<Millis> max;
};

// The closest interval; EXACT false adds to LOST why (paths backoff.*, jitter.*) when LOST is given.
R4jInterval r4jInterval(const RetryPolicy& policy, LossList* lost);

// What resilience4j's CircuitBreakerConfig cannot carry of the breaker at PATH.
void r4jBreakerLosses(const ResilienceStrategy& breaker, const QString& path, LossList& lost);

struct JavaUnit
{
    QSet<QString> imports; // fully qualified names
    QString members; // private members of the class after the public ones
};

// The Java condition of WHEN over `a` (an Attempt) and the call's fields (method, hasKey, lostAnswer), or empty
// when STATIC (a breaker's predicate, which sees no call) and the condition needs the call.
QString javaCondition(const RuleCondition& when, bool isStatic, JavaUnit& unit);

// RetryCall: retryConfig() (maxAttempts, the rules as retryOnResult/retryOnException, the wait), the
// attempt's request (the attempt timeout, what is left of the deadline), judge and chooseWait; and the helpers
// they use. NATIVE: the interval is resilience4j's own (no hints, no deadline).
void writeJavaState(const PipelineShape& shape, const R4jInterval& interval, JavaUnit& unit);

// The helpers conditions use (in, headerIs, bodyField, errorClass), each once.
void writeJavaHelpers(JavaUnit& unit);

// "Duration.ofSeconds(2)", "Duration.ofMillis(200)".
QString javaDuration(Millis ms);
// A Spring Boot duration: "500ms", "2s", "1m".
QString springDuration(Millis ms);
