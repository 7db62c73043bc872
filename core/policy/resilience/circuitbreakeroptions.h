// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A circuit breaker as data: every way the libraries of resilience-fleets.md §1 open, probe and close one
// (Polly 8, Microsoft.Extensions.Http.Resilience, resilience4j 2, cockatiel 3, opossum 9), as knobs with
// Polly 8's defaults. What counts as a failure is said by the pipeline that holds the breaker; the breaker
// is told each call's verdict (CircuitBreaker::record). The libraries' own settings: breakerPresets.h.

#include "policy/rulecondition.h" // Millis

#include <QList>
#include <QString>

#include <optional>

struct CircuitBreakerOptions
{
    // How failures are counted while closed.
    enum class Window : quint8 {
        Consecutive, // cockatiel's ConsecutiveBreaker: N failures in a row; a success starts over
        Count, // resilience4j COUNT_BASED: the last N calls
        Time, // Polly (10 buckets), opossum (10 × 1 s), cockatiel's SamplingBreaker (≥ 5 buckets), r4j TIME_BASED
    };
    // Where a time window's buckets start. Polly: a bucket opens at the first call that finds the last one
    // over (RollingHealthMetrics), so a quiet spell leaves no empty buckets; opossum: buckets turn every
    // sampling/buckets from the breaker's creation (a setInterval), calls or none.
    enum class BucketStart : quint8 { AtCall, Fixed };
    enum class Comparator : quint8 { AtLeast, Above }; // failures/calls ≥ ratio (Polly, r4j) or > (opossum, cockatiel)
    enum class HalfOpenCallers : quint8 { Rejected, Wait }; // beyond the probes: refused (Polly, r4j, opossum) or held for the verdict (cockatiel)
    enum class Transition : quint8 { Lazy, Timer }; // open → half-open on the next call (Polly, r4j, cockatiel) or when the break ends (opossum)
    enum class Scope : quint8 { Client, Host }; // one breaker for the client, or one per host (authority)

    Window window = Window::Time;
    int consecutiveFailures = 5; // Consecutive: opens at this many in a row
    int windowCalls = 100; // Count: how many of the last calls are counted
    Millis samplingDuration { 30000 }; // Time: the window
    int buckets = 10; // Time: into how many buckets it rolls
    BucketStart bucketStart = BucketStart::AtCall;
    double failureRatio = 0.1; // Count, Time: in [0, 1]
    Comparator comparator = Comparator::AtLeast;
    // Count, Time: no verdict before this many calls are in the window (Count: at most windowCalls of them,
    // as resilience4j caps it).
    int minimumCalls = 100;
    // Time: instead of minimumCalls, calls per second over the window (cockatiel's minimumRps).
    std::optional<double> minimumCallsPerSecond;
    // The window is judged after every call (resilience4j), not only after a failure (Polly, opossum,
    // cockatiel): a success that brings the count to the minimum can open a breaker already over its ratio.
    bool judgeAfterSuccess = false;
    bool countRejected = false; // calls the open breaker refused count as calls (opossum's fires)
    bool resetOnClose = true; // the window starts empty when the breaker closes (Polly, r4j, cockatiel); opossum keeps it

    Millis breakDuration { 5000 };
    double breakGrowth = 1.0; // each half-open since the last close multiplies the break (a BreakDurationGenerator)
    std::optional<Millis> maxBreakDuration;
    int halfOpenProbes = 1; // r4j: 10; the verdict once every probe answered
    HalfOpenCallers halfOpenCallers = HalfOpenCallers::Rejected;
    Transition transition = Transition::Lazy;
    Scope scope = Scope::Client;

    friend bool operator==(const CircuitBreakerOptions&, const CircuitBreakerOptions&) = default;
};

struct CircuitBreakerProblem
{
    QString path; // relative to the breaker's object: "failure_ratio", "buckets"
    QString message;
};

// Every problem at once, with the ranges the libraries enforce (Polly: minimum throughput ≥ 2, sampling and
// break durations 0.5 s to 1 day; a ratio in [0, 1]; at least one probe).
QList<CircuitBreakerProblem> validate(const CircuitBreakerOptions& options);
