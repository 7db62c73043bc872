// SPDX-License-Identifier: GPL-3.0-or-later
// Every rate-limit dialect at once: each input line becomes one header line whose name is picked by the
// line's first byte from the fields the dialects read (IETF drafts, legacy, X-RateLimit-*, vendors, the
// suffixed OpenAI/GitLab names, Age) and whose value is the rest. A snapshot never claims more remaining
// than its limit without saying so, and the most restrictive index points at a snapshot.
#include "fuzzsupport.h"
#include "http/ratelimitparser.h"

#include <cmath>

namespace {
const char* const kNames[] = { "RateLimit", "RateLimit-Policy", "RateLimit-Limit", "RateLimit-Remaining",
    "RateLimit-Reset", "RateLimit-Observed", "RateLimit-Name", "RateLimit-ResetTime", "X-RateLimit-Limit",
    "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Used",
    "X-RateLimit-Resource", "X-RateLimit-Bucket", "X-RateLimit-Global", "X-RateLimit-Scope", "X-Rate-Limit-Limit",
    "X-Rate-Limit-Remaining", "X-Rate-Limit-Reset", "X-Shopify-Shop-Api-Call-Limit", "x-ratelimit-limit-requests",
    "x-ratelimit-remaining-requests", "x-ratelimit-reset-requests", "x-ratelimit-limit-tokens",
    "x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens", "Age", "Date", "ratelimit", "RATELIMIT-POLICY" };
constexpr size_t kNameCount = sizeof kNames / sizeof kNames[0];
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    HttpHeaderList headers;
    for (const QByteArray& line : input.split('\n')) {
        if (line.isEmpty())
            continue;
        headers.append({ QByteArray(kNames[uchar(line.at(0)) % kNameCount]), line.mid(1) });
    }
    const RateLimitParse parse = parseRateLimits(headers, Fuzz::fixedNow());
    if (parse.mostRestrictiveIndex)
        Fuzz::check(*parse.mostRestrictiveIndex >= 0 && *parse.mostRestrictiveIndex < parse.snapshots.size(),
            "most restrictive index outside the snapshots");
    else
        Fuzz::check(parse.snapshots.isEmpty(), "snapshots but no most restrictive one");
    for (const RateLimitSnapshot& s : parse.snapshots) {
        Fuzz::check(!s.dialect.isEmpty(), "a snapshot without a dialect");
        if (s.resetSeconds)
            Fuzz::check(std::isfinite(*s.resetSeconds), "a reset that is not a finite number");
    }
    return 0;
}
