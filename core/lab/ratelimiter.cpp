// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/ratelimiter.h"

#include <cmath>

using std::chrono::milliseconds;

RateLimiter::RateLimiter(RateLimitSpec spec)
    : m_spec(std::move(spec))
{
    m_spec.limit = std::max(0, m_spec.limit);
    if (m_spec.window.count() <= 0)
        m_spec.window = milliseconds(1000);
    reset();
}

void RateLimiter::reset()
{
    m_tokens = m_spec.limit;
    m_lastMs = -1;
    m_windowStartMs = -1;
    m_used = 0;
}

void RateLimiter::advance(qint64 nowMs)
{
    const qint64 window = m_spec.window.count();
    if (m_spec.algorithm == RateLimitSpec::Algorithm::TokenBucket) {
        if (m_lastMs >= 0 && nowMs > m_lastMs) {
            const double rate = double(m_spec.limit) / double(window); // tokens per ms
            m_tokens = std::min<double>(m_spec.limit, m_tokens + rate * double(nowMs - m_lastMs));
        }
        m_lastMs = std::max(m_lastMs, nowMs);
        return;
    }
    if (m_windowStartMs < 0 || nowMs >= m_windowStartMs + window) {
        // Windows are aligned to the first request, then follow each other back to back.
        m_windowStartMs = m_windowStartMs < 0 ? nowMs : m_windowStartMs + ((nowMs - m_windowStartMs) / window) * window;
        m_used = 0;
    }
}

RateLimitVerdict RateLimiter::verdict(qint64 nowMs, bool allowed) const
{
    RateLimitVerdict v;
    v.allowed = allowed;
    v.limit = m_spec.limit;
    const double window = double(m_spec.window.count());
    if (m_spec.algorithm == RateLimitSpec::Algorithm::TokenBucket) {
        v.remaining = static_cast<int>(std::floor(m_tokens + 1e-9));
        const double rate = m_spec.limit > 0 ? double(m_spec.limit) / window : 0;
        const double missing = double(m_spec.limit) - m_tokens;
        v.resetIn = milliseconds(rate > 0 ? static_cast<qint64>(std::ceil(missing / rate)) : m_spec.window.count());
        const double needed = 1.0 - m_tokens;
        v.retryAfter = milliseconds(needed <= 0 ? 0 : (rate > 0 ? static_cast<qint64>(std::ceil(needed / rate)) : m_spec.window.count()));
    } else {
        v.remaining = std::max(0, m_spec.limit - m_used);
        const qint64 end = (m_windowStartMs < 0 ? nowMs : m_windowStartMs) + m_spec.window.count();
        v.resetIn = milliseconds(std::max<qint64>(0, end - nowMs));
        v.retryAfter = v.remaining > 0 ? milliseconds(0) : v.resetIn;
    }
    return v;
}

RateLimitVerdict RateLimiter::consume(qint64 nowMs)
{
    advance(nowMs);
    bool allowed = false;
    if (m_spec.algorithm == RateLimitSpec::Algorithm::TokenBucket) {
        if (m_tokens >= 1.0 - 1e-9) {
            m_tokens -= 1.0;
            allowed = true;
        }
    } else if (m_used < m_spec.limit) {
        ++m_used;
        allowed = true;
    }
    return verdict(nowMs, allowed);
}

RateLimitVerdict RateLimiter::peek(qint64 nowMs) const
{
    RateLimiter copy = *this;
    copy.advance(nowMs);
    return copy.verdict(nowMs, true);
}
