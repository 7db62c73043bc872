// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/ratelimitparser.h"

#include "http/httpdate.h"
#include "http/ratelimitdialects.h"
#include "http/ratelimitvalue.h"

#include <algorithm>
#include <limits>
#include <tuple>

using namespace Qt::StringLiterals;

namespace {

// A sort key: lower is more restrictive.
std::tuple<int, double, double> rank(const RateLimitSnapshot& s)
{
    constexpr double infinity = std::numeric_limits<double>::infinity();
    if (s.remaining && *s.remaining == 0)
        return { 0, -(s.resetSeconds ? *s.resetSeconds : infinity), 0 };
    if (const std::optional<double> ratio = s.remainingRatio())
        return { 1, *ratio, s.resetSeconds ? *s.resetSeconds : infinity };
    if (s.remaining)
        return { 2, double(*s.remaining), s.resetSeconds ? *s.resetSeconds : infinity };
    return { 3, 0, 0 };
}

const QByteArray kRateLimitFieldNames[] = { "ratelimit", "ratelimit-policy", "ratelimit-limit",
    "ratelimit-remaining", "ratelimit-reset", "ratelimit-observed", "ratelimit-name", "ratelimit-resettime",
    "x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset", "x-shopify-shop-api-call-limit" };

bool isRateLimitField(const QByteArray& name)
{
    const QByteArray lowered = name.toLower();
    if (lowered.startsWith("x-ratelimit-"))
        return true;
    for (const QByteArray& known : kRateLimitFieldNames) {
        if (lowered == known)
            return true;
    }
    return false;
}

} // namespace

void appendSnapshot(RateLimitParse& out, RateLimitSnapshot snapshot)
{
    for (const QString& warning : std::as_const(snapshot.warnings))
        out.warnings << warning;
    out.snapshots << std::move(snapshot);
}

HttpHeaderList rateLimitFields(const HttpHeaderList& headers, std::initializer_list<QByteArrayView> names)
{
    HttpHeaderList fields;
    for (const auto& header : headers) {
        for (const QByteArrayView name : names) {
            if (header.first.compare(name, Qt::CaseInsensitive) == 0) {
                fields << header;
                break;
            }
        }
    }
    return fields;
}

std::optional<qsizetype> mostRestrictiveIndex(const QList<RateLimitSnapshot>& snapshots)
{
    std::optional<qsizetype> best;
    for (qsizetype i = 0; i < snapshots.size(); ++i) {
        if (!best || rank(snapshots.at(i)) < rank(snapshots.at(*best)))
            best = i;
    }
    return best;
}

RateLimitParse parseRateLimits(const HttpHeaderList& headers, const QDateTime& now)
{
    RateLimitParse result;
    if (hasHeader(headers, "Age")) {
        const std::optional<qint64> age = parseRateLimitInteger(combinedHeader(headers, "Age"));
        const bool anyField = std::any_of(
            headers.cbegin(), headers.cend(), [](const auto& header) { return isRateLimitField(header.first); });
        if (anyField && (!age || *age > 0)) {
            result.ignoredAsCached = true;
            result.warnings << u"rate-limit fields ignored: the response has an Age header, so it came from a "
                               u"cache and its quota is not current (RateLimit draft §7.3)"_s;
            return result;
        }
    }
    // RateLimit-Policy serves three readers; it is parsed once (a 150 KB field used to be parsed thrice).
    const RateLimitPolicyField policies = readRateLimitPolicy(headers, &result.warnings);
    readIetfRateLimit(headers, policies, result);
    readLegacyRateLimit(headers, now, policies, result);
    readVendorRateLimits(headers, now, result);
    result.mostRestrictiveIndex = mostRestrictiveIndex(result.snapshots);
    return result;
}

QDateTime rateLimitInstant(QByteArrayView date, const QDateTime& received)
{
    if (!date.isEmpty()) {
        const HttpDate parsed = parseHttpDate(date, received);
        if (parsed.isValid())
            return parsed.dateTime;
    }
    return received;
}

RateLimitParse parseAnswerRateLimits(const HttpHeaderList& fields, QByteArrayView date, const QDateTime& received)
{
    return parseRateLimits(fields, rateLimitInstant(date, received));
}
