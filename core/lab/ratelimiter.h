// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/ratelimitspec.h"

#include <chrono>

// The limiter's answer for one request, and what the rate-limit headers report.
struct RateLimitVerdict
{
    bool allowed = true;
    int limit = 0;
    int remaining = 0; // after this request
    std::chrono::milliseconds resetIn { 0 }; // until the window ends / the bucket is full again
    std::chrono::milliseconds retryAfter { 0 }; // until one request would be allowed (when !allowed)
};

// A token bucket (capacity `limit`, refilled at limit/window) or a fixed window (`limit` per window).
// Time is passed in, in milliseconds on any monotonic clock, so tests drive it by hand.
class RateLimiter
{
public:
    explicit RateLimiter(RateLimitSpec spec = {});

    RateLimitVerdict consume(qint64 nowMs);
    RateLimitVerdict peek(qint64 nowMs) const;
    void reset();
    const RateLimitSpec& spec() const { return m_spec; }

private:
    void advance(qint64 nowMs);
    RateLimitVerdict verdict(qint64 nowMs, bool allowed) const;

    RateLimitSpec m_spec;
    double m_tokens = 0;
    qint64 m_lastMs = -1;
    qint64 m_windowStartMs = -1;
    int m_used = 0;
};
