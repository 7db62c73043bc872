// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Backoff and jitter math: pure functions of the policy's Backoff and Jitter, a small state, and an
// injected RandomSource. Each formula is the one the named system documents (AWS "full jitter", gRPC's
// ±20 %, Polly's decorrelated jitter…); the tests pin one row per system.
//
// n is the retry index: 1 = the wait after the first failed attempt.
//   None           0
//   Constant       base
//   Linear         base + (n−1)·increment
//   Exponential    base·multiplier^(n−1+exponentOffset); ExponentOrigin::FirstRetryIsZero → n = 1 waits 0
//                  (no jitter either, only the floor), as urllib3
//   Decorrelated   AWS: min(cap, U(base, prev·3)), prev starts at base (the previous delay)
//   DecorrelatedV2 Polly: t = (n−1) + U(0,1); next = 2^t·tanh(√(4t)); d = (next − prev)/1.4·base; prev = next
//                  (prev starts at 0; capped by cap like Polly's MaxDelay)
// Then, in this order: the cap before or after jitter (CapOrder; with no jitter it simply bounds the
// delay), the jitter, the floor (max(floor, d)).
//
// The base is Backoff::throttlingBase instead of Backoff::base when `throttling` and it is set (AWS 2026).
//
// Units and limits: computed in double milliseconds, then floored to whole milliseconds (values within
// 1 µs below an integer count as that integer, so 100·1.2 is 120, not 119). Every delay saturates at
// kMaxBackoffDelay: attempt 10 000 or INT_MAX never gives inf, NaN, a negative value or UB.

#include "policy/randomsource.h"
#include "policy/retrypolicy.h"

#include <utility>

// The longest delay this code produces: 2^31 − 1 ms (24.8 days), the longest single QTimer interval.
// Uncapped exponential growth ends here (Polly with 2 s and no MaxDelay reaches it at retry 21).
inline constexpr Millis kMaxBackoffDelay { 2147483647 };

// What a backoff sequence remembers between retries. Reset it (resetExponent) when a server hint says
// so (gRPC pushback, cenkalti v5 RetryAfter).
struct BackoffState
{
    int retriesSinceReset = 0; // retries drawn since the start or the last reset; the next one is n = this + 1
    // Decorrelated: the previous delay in ms (0 = none yet, i.e. base).
    // DecorrelatedV2: the previous `next` of the formula (dimensionless; 0 at the start).
    double previous = 0.0;
    friend bool operator==(const BackoffState&, const BackoffState&) = default;
};

// One drawn delay and what produced it, for the timeline and `explain`.
struct DelayDraw
{
    int retryIndex = 0; // n of this draw (1-based)
    Millis ceiling { 0 }; // before jitter; already capped when CapOrder::BeforeJitter or there is no jitter
    Millis delay { 0 }; // the one to wait: jittered, capped, floored
    Millis low { 0 }; // the smallest delay the jitter could have chosen for this retry (same cap and floor)
    Millis high { 0 }; // the largest
    friend bool operator==(const DelayDraw&, const DelayDraw&) = default;
};

// Draws the delay of the next retry (n = state.retriesSinceReset + 1) and advances STATE. Takes at most
// one draw from RNG for the backoff family (Decorrelated, DecorrelatedV2) and one for the jitter, in
// that order.
DelayDraw drawBackoff(const Backoff& backoff, const Jitter& jitter, BackoffState& state, RandomSource& rng,
                      bool throttling = false);

// The delay range of retry RETRY_INDEX (≥ 1; smaller is read as 1) without state or randomness, for
// tables and charts. Exact for the stateless families; for Decorrelated and DecorrelatedV2 the
// theoretical bound over every possible history (Decorrelated: [base, min(cap, base·3^n)];
// DecorrelatedV2: [0, (f(n) − f(n−2))/1.4·base] with f(t) = 2^t·tanh(√(4t)), f(−1) = 0).
std::pair<Millis, Millis> backoffRange(const Backoff& backoff, const Jitter& jitter, int retryIndex,
                                       bool throttling = false);

// The next retry starts the sequence again (n = 1; Decorrelated prev = base; DecorrelatedV2 prev = 0).
void resetExponent(BackoffState& state);
