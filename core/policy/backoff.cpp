// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/backoff.h"

#include "policy/jitter.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace {

constexpr double kMaxMs = double(kMaxBackoffDelay.count());

// Into [0, kMaxMs]; NaN and negatives are 0, +inf is the maximum.
double saturate(double ms)
{
    if (!(ms > 0))
        return 0;
    return std::min(ms, kMaxMs);
}

// Whole milliseconds, rounding down (with 1 µs of slack for floating-point noise).
Millis toMillis(double ms) { return std::min(kMaxBackoffDelay, Millis(qint64(std::floor(saturate(ms) + 1e-3)))); }

double baseMs(const Backoff& backoff, bool throttling)
{
    const Millis base = throttling && backoff.throttlingBase ? *backoff.throttlingBase : backoff.base;
    return saturate(double(base.count()));
}

double capMs(const Backoff& backoff) { return backoff.cap ? saturate(double(backoff.cap->count())) : kMaxMs; }

// The uncapped value of the stateless families for retry N.
double statelessCeiling(const Backoff& backoff, int n, double base)
{
    switch (backoff.kind) {
    case BackoffKind::None:
        return 0;
    case BackoffKind::Constant:
        return base;
    case BackoffKind::Linear:
        return saturate(base + double(n - 1) * saturate(double(backoff.increment.count())));
    case BackoffKind::Exponential:
        if (backoff.origin == ExponentOrigin::FirstRetryIsZero && n == 1)
            return 0;
        if (base == 0)
            return 0;
        return saturate(base * std::pow(backoff.multiplier, double(n - 1) + double(backoff.exponentOffset)));
    case BackoffKind::Decorrelated:
    case BackoffKind::DecorrelatedV2:
        break;
    }
    return 0;
}

// Polly's DecorrelatedJitterBackoffV2 curve: f(t) = 2^t·tanh(√(4t)), 0 for t ≤ 0.
double v2Curve(double t) { return t <= 0 ? 0.0 : std::pow(2.0, t) * std::tanh(std::sqrt(4.0 * t)); }

// (next − prev)/1.4·base, saturated (inf − inf and friends included).
double v2Delay(double next, double prev, double base)
{
    if (!std::isfinite(next) || !std::isfinite(prev))
        return kMaxMs;
    return saturate((next - prev) / 1.4 * base);
}

// Cap (before or after jitter), jitter with draw U, floor. CEILING is the family's value, uncapped.
double finish(const Backoff& backoff, const Jitter& jitter, double ceiling, double u)
{
    const double cap = capMs(backoff);
    double d = 0;
    if (jitter.kind == JitterKind::None)
        d = std::min(ceiling, cap);
    else if (jitter.capOrder == CapOrder::BeforeJitter)
        d = applyJitter(jitter, std::min(ceiling, cap), u);
    else
        d = std::min(applyJitter(jitter, ceiling, u), cap);
    return saturate(std::max(d, double(jitter.floor.count())));
}

// urllib3: the first retry waits 0 outright, jitter included (get_backoff_time returns 0 for k ≤ 1).
bool waitsZero(const Backoff& backoff, int n)
{
    return backoff.kind == BackoffKind::Exponential && backoff.origin == ExponentOrigin::FirstRetryIsZero && n == 1;
}

double shownCeiling(const Backoff& backoff, const Jitter& jitter, double ceiling)
{
    if (jitter.kind == JitterKind::None || jitter.capOrder == CapOrder::BeforeJitter)
        return std::min(ceiling, capMs(backoff));
    return ceiling;
}

} // namespace

DelayDraw drawBackoff(const Backoff& backoff, const Jitter& jitter, BackoffState& state, RandomSource& rng,
                      bool throttling)
{
    const int n = state.retriesSinceReset < INT_MAX ? state.retriesSinceReset + 1 : INT_MAX;
    state.retriesSinceReset = n;
    const double base = baseMs(backoff, throttling);
    const double cap = capMs(backoff);

    double ceiling = 0; // this retry's family value, uncapped except where the family caps itself
    double lowCeiling = 0, highCeiling = 0; // what the family could have produced this time
    switch (backoff.kind) {
    case BackoffKind::Decorrelated: {
        const double prev = state.previous > 0 ? state.previous : base;
        const double high = std::max(base, saturate(prev * 3));
        ceiling = std::min(cap, base + (high - base) * rng.uniform01());
        lowCeiling = std::min(cap, base);
        highCeiling = std::min(cap, high);
        state.previous = ceiling;
        break;
    }
    case BackoffKind::DecorrelatedV2: {
        const double prev = state.previous;
        const double next = v2Curve(double(n - 1) + rng.uniform01());
        ceiling = std::min(cap, v2Delay(next, prev, base));
        lowCeiling = std::min(cap, v2Delay(v2Curve(double(n - 1)), prev, base));
        highCeiling = std::min(cap, v2Delay(v2Curve(double(n)), prev, base));
        state.previous = next;
        break;
    }
    default:
        ceiling = lowCeiling = highCeiling = statelessCeiling(backoff, n, base);
        break;
    }

    DelayDraw draw;
    if (waitsZero(backoff, n)) {
        draw.retryIndex = n;
        draw.delay = draw.low = draw.high = toMillis(double(jitter.floor.count()));
        return draw;
    }
    const double u = jitterDraws(jitter) ? rng.uniform01() : 0.0;
    draw.retryIndex = n;
    draw.ceiling = toMillis(shownCeiling(backoff, jitter, ceiling));
    draw.delay = toMillis(finish(backoff, jitter, ceiling, u));
    draw.low = toMillis(finish(backoff, jitter, lowCeiling, 0.0));
    draw.high = toMillis(finish(backoff, jitter, highCeiling, 1.0));
    return draw;
}

std::pair<Millis, Millis> backoffRange(const Backoff& backoff, const Jitter& jitter, int retryIndex, bool throttling)
{
    const int n = std::max(1, retryIndex);
    const double base = baseMs(backoff, throttling);
    const double cap = capMs(backoff);
    if (waitsZero(backoff, n)) {
        const Millis floor = toMillis(double(jitter.floor.count()));
        return { floor, floor };
    }
    double low = 0, high = 0;
    switch (backoff.kind) {
    case BackoffKind::Decorrelated:
        low = std::min(cap, base);
        high = std::min(cap, saturate(base * std::pow(3.0, double(n))));
        break;
    case BackoffKind::DecorrelatedV2:
        low = 0;
        high = std::min(cap, v2Delay(v2Curve(double(n)), v2Curve(double(n) - 2), base));
        break;
    default:
        low = high = statelessCeiling(backoff, n, base);
        break;
    }
    return { toMillis(finish(backoff, jitter, low, 0.0)), toMillis(finish(backoff, jitter, high, 1.0)) };
}

void resetExponent(BackoffState& state) { state = BackoffState {}; }
