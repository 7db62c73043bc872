// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultstep.h"
#include "lab/ratelimiter.h"
#include "lab/ratelimitspec.h"

#include <QDateTime>

struct LabResponse;

// Writes rate-limit fields in one of the dialects of headers.md §2–§4, and Retry-After in each form.
class RateLimitHeaders
{
public:
    static void apply(LabResponse& response, const RateLimitSpec& spec, const RateLimitVerdict& verdict,
        const QDateTime& nowUtc);
    // Retry-After: seconds (rounded up) / an HTTP-date in one of three forms; or retry-after-ms.
    static void applyRetryAfter(LabResponse& response, RetryAfterForm form, std::chrono::milliseconds wait,
        const QDateTime& nowUtc);
};
