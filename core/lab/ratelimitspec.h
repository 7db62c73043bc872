// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultstep.h"

#include <QByteArray>

#include <chrono>

// Configuration of one rate limiter and of the header dialect it advertises (headers.md §2–§4).
struct RateLimitSpec
{
    enum class Algorithm { TokenBucket, FixedWindow };
    enum class Dialect {
        None,
        Ietf11, // RateLimit-Policy: "p";q=..;w=..  +  RateLimit: "p";r=..;t=..
        Ietf07, // RateLimit: limit=.., remaining=.., reset=..  +  RateLimit-Policy: q;w=..
        Legacy, // RateLimit-Policy: q;w=..  RateLimit-Limit / -Remaining / -Reset (delta seconds)
        XRateLimit, // X-RateLimit-Limit / -Remaining / -Reset (epoch seconds)
        GitHub, // x-ratelimit-limit / -remaining / -used / -reset (epoch) / -resource
    };

    Algorithm algorithm = Algorithm::FixedWindow;
    int limit = 10; // bucket capacity, or requests per window
    std::chrono::milliseconds window { 60000 }; // fixed window length; token bucket: time to refill `limit`
    Dialect dialect = Dialect::Ietf11;
    RetryAfterForm retryAfterForm = RetryAfterForm::Seconds;
    QByteArray policyName = "default";
    int status = 429;

    static QString dialectName(Dialect dialect);
    static std::optional<Dialect> dialectFromName(const QString& name);
};
