// SPDX-License-Identifier: GPL-3.0-or-later
// Vendor rate-limit fields (headers.md §2.3 appendix, §3.1 legacy, §4): the X-RateLimit-* family and its
// vendor readings, X's X-Rate-Limit-*, Shopify's call limit and OpenAI's per-dimension fields.
#include "http/ratelimitdialects.h"
#include "http/ratelimitvalue.h"

#include <QMap>

namespace {

using namespace Qt::StringLiterals;

QString lower(QByteArrayView name) { return QString::fromLatin1(name).toLower(); }

// Reads the non-negative integer field NAME into *TARGET, warning when it is present but unreadable.
void readCount(const HttpHeaderList& headers, QByteArrayView name, std::optional<qint64>* target,
    RateLimitSnapshot& snapshot)
{
    bool conflict = false;
    const std::optional<QByteArray> value = rateLimitSingleton(headers, name, &conflict);
    if (conflict) {
        snapshot.warnings << lower(name) + u" ignored: sent several times with different values"_s;
        return;
    }
    if (!value)
        return;
    *target = parseRateLimitInteger(*value);
    if (!*target)
        snapshot.warnings << lower(name) + u" \""_s + QString::fromLatin1(value->trimmed().left(64))
                + u"\" ignored: not a non-negative integer"_s;
}

void readReset(const HttpHeaderList& headers, QByteArrayView name, ResetUnit unit, const QDateTime& now,
    RateLimitSnapshot& snapshot)
{
    bool conflict = false;
    const std::optional<QByteArray> value = rateLimitSingleton(headers, name, &conflict);
    if (conflict)
        snapshot.warnings << lower(name) + u" ignored: sent several times with different values"_s;
    if (!value)
        return;
    const ResetReading reading = readRateLimitReset(*value, unit, now, lower(name));
    snapshot.resetSeconds = reading.seconds;
    snapshot.resetGuessed = reading.guessed;
    snapshot.resetAbsolute = reading.absolute;
    if (!reading.note.isEmpty())
        snapshot.warnings << reading.note;
}

bool hasAny(const RateLimitSnapshot& s) { return s.limit || s.remaining || s.used || s.resetSeconds; }

void finish(RateLimitParse& out, RateLimitSnapshot snapshot)
{
    out.dependsOnNow = out.dependsOnNow || snapshot.resetAbsolute;
    if (hasAny(snapshot))
        appendSnapshot(out, std::move(snapshot));
    else
        out.warnings << snapshot.warnings;
}

void readXRateLimit(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out)
{
    const bool any = hasHeader(headers, "X-RateLimit-Limit") || hasHeader(headers, "X-RateLimit-Remaining")
        || hasHeader(headers, "X-RateLimit-Reset") || hasHeader(headers, "X-RateLimit-Used")
        || hasHeader(headers, "X-RateLimit-Reset-After");
    if (!any)
        return;
    const bool limitSent = hasHeader(headers, "X-RateLimit-Limit");
    const bool usedSent = hasHeader(headers, "X-RateLimit-Used");
    RateLimitSnapshot snapshot;
    if (hasHeader(headers, "X-RateLimit-Resource") || (usedSent && limitSent))
        snapshot.dialect = u"github"_s;
    else if (hasHeader(headers, "X-RateLimit-Reset-After") || hasHeader(headers, "X-RateLimit-Bucket")
        || hasHeader(headers, "X-RateLimit-Scope") || hasHeader(headers, "X-RateLimit-Global"))
        snapshot.dialect = u"discord"_s;
    else if (usedSent)
        snapshot.dialect = u"reddit"_s;
    else
        snapshot.dialect = u"x-ratelimit"_s;

    readCount(headers, "X-RateLimit-Limit", &snapshot.limit, snapshot);
    readCount(headers, "X-RateLimit-Remaining", &snapshot.remaining, snapshot);
    readCount(headers, "X-RateLimit-Used", &snapshot.used, snapshot);
    bool conflict = false;
    if (snapshot.dialect == u"github"_s) {
        if (const auto resource = rateLimitSingleton(headers, "X-RateLimit-Resource", &conflict))
            snapshot.policy = QString::fromLatin1(resource->trimmed());
        readReset(headers, "X-RateLimit-Reset", ResetUnit::EpochSeconds, now, snapshot);
    } else if (snapshot.dialect == u"discord"_s) {
        if (const auto bucket = rateLimitSingleton(headers, "X-RateLimit-Bucket", &conflict))
            snapshot.policy = QString::fromLatin1(bucket->trimmed());
        // The relative Reset-After is preferred over the absolute Reset (headers.md §4, order step 2).
        readReset(headers, "X-RateLimit-Reset-After", ResetUnit::DelaySeconds, now, snapshot);
        if (!snapshot.resetSeconds)
            readReset(headers, "X-RateLimit-Reset", ResetUnit::EpochSeconds, now, snapshot);
    } else if (snapshot.dialect == u"reddit"_s) {
        readReset(headers, "X-RateLimit-Reset", ResetUnit::DelaySeconds, now, snapshot);
        if (snapshot.used && snapshot.remaining)
            snapshot.limit = *snapshot.used + *snapshot.remaining; // Reddit sends no limit field
    } else {
        readReset(headers, "X-RateLimit-Reset", ResetUnit::Unstated, now, snapshot);
    }
    snapshot.fields = rateLimitFields(headers,
        { "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Used",
            "X-RateLimit-Resource", "X-RateLimit-Reset-After", "X-RateLimit-Bucket", "X-RateLimit-Scope",
            "X-RateLimit-Global" });
    finish(out, std::move(snapshot));
}

// x-ratelimit-{limit,remaining,reset}-SUFFIX: OpenAI's -requests/-tokens, or a window such as -minute.
void readSuffixed(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out)
{
    static const QByteArray prefixes[] = { "x-ratelimit-limit-", "x-ratelimit-remaining-", "x-ratelimit-reset-" };
    QStringList suffixes;
    for (const auto& header : headers) {
        const QByteArray name = header.first.toLower();
        for (const QByteArray& prefix : prefixes) {
            if (name.startsWith(prefix) && name.size() > prefix.size()) {
                const QString suffix = QString::fromLatin1(name.mid(prefix.size()));
                if (suffix != u"after"_s && !suffixes.contains(suffix))
                    suffixes << suffix;
            }
        }
    }
    static const QMap<QString, qint64> windows { { u"second"_s, 1 }, { u"minute"_s, 60 }, { u"hour"_s, 3600 },
        { u"day"_s, 86400 }, { u"week"_s, 604800 } };
    for (const QString& suffix : std::as_const(suffixes)) {
        const QByteArray tail = suffix.toLatin1();
        const QByteArray limitName = "x-ratelimit-limit-" + tail;
        const QByteArray remainingName = "x-ratelimit-remaining-" + tail;
        const QByteArray resetName = "x-ratelimit-reset-" + tail;
        RateLimitSnapshot snapshot;
        const bool openai = suffix == u"requests"_s || suffix == u"tokens"_s;
        snapshot.dialect = openai ? u"openai"_s : u"x-ratelimit"_s;
        snapshot.policy = suffix;
        if (openai) {
            snapshot.quotaUnit = suffix;
            // Azure OpenAI sends -1 for "no such limit": a sentinel, not a count, in either count field.
            bool conflict = false;
            const auto readOrSentinel = [&](const QByteArray& name, std::optional<qint64>* target) {
                if (const auto value = rateLimitSingleton(headers, name, &conflict); value && value->trimmed() == "-1")
                    snapshot.warnings << QString::fromLatin1(name) + u" is -1 (no limit reported); read as unknown"_s;
                else
                    readCount(headers, name, target, snapshot);
            };
            readOrSentinel(limitName, &snapshot.limit);
            readOrSentinel(remainingName, &snapshot.remaining);
            if (!snapshot.limit && !snapshot.remaining) {
                // A reset with no count known (Azure's "-1"s, or counts that did not read) says nothing
                // about a quota: no snapshot, rather than one that resets a quota nobody stated.
                out.warnings << snapshot.warnings;
                if (hasHeader(headers, resetName))
                    out.warnings << QString::fromLatin1(resetName) + u" ignored: no count of that quota was readable"_s;
                continue;
            }
            if (const auto reset = rateLimitSingleton(headers, resetName, &conflict)) {
                snapshot.resetSeconds = parseGoDuration(*reset);
                if (!snapshot.resetSeconds)
                    snapshot.warnings << QString::fromLatin1(resetName) + u" \""_s
                            + QString::fromLatin1(reset->trimmed().left(64))
                            + u"\" ignored: not a Go duration such as 6m0s"_s;
            }
        } else {
            snapshot.windowSeconds = windows.contains(suffix) ? std::optional<qint64>(windows.value(suffix))
                                                              : std::nullopt;
            readCount(headers, limitName, &snapshot.limit, snapshot);
            readCount(headers, remainingName, &snapshot.remaining, snapshot);
            readReset(headers, resetName, ResetUnit::Unstated, now, snapshot);
        }
        snapshot.fields = rateLimitFields(headers, { limitName, remainingName, resetName });
        finish(out, std::move(snapshot));
    }
}

// X (Twitter): x-rate-limit-limit / -remaining / -reset, the reset in epoch seconds.
void readX(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out)
{
    if (!hasHeader(headers, "X-Rate-Limit-Limit") && !hasHeader(headers, "X-Rate-Limit-Remaining")
        && !hasHeader(headers, "X-Rate-Limit-Reset"))
        return;
    RateLimitSnapshot snapshot;
    snapshot.dialect = u"x"_s;
    readCount(headers, "X-Rate-Limit-Limit", &snapshot.limit, snapshot);
    readCount(headers, "X-Rate-Limit-Remaining", &snapshot.remaining, snapshot);
    readReset(headers, "X-Rate-Limit-Reset", ResetUnit::EpochSeconds, now, snapshot);
    snapshot.fields = rateLimitFields(headers, { "X-Rate-Limit-Limit", "X-Rate-Limit-Remaining", "X-Rate-Limit-Reset" });
    finish(out, std::move(snapshot));
}

// Shopify REST Admin: X-Shopify-Shop-Api-Call-Limit: USED/BUCKET.
void readShopify(const HttpHeaderList& headers, RateLimitParse& out)
{
    if (!hasHeader(headers, "X-Shopify-Shop-Api-Call-Limit"))
        return;
    bool conflict = false;
    const std::optional<QByteArray> value = rateLimitSingleton(headers, "X-Shopify-Shop-Api-Call-Limit", &conflict);
    const qsizetype slash = value ? value->indexOf('/') : -1;
    const std::optional<qint64> used = slash > 0 ? parseRateLimitInteger(value->first(slash)) : std::nullopt;
    const std::optional<qint64> bucket = slash > 0 ? parseRateLimitInteger(value->mid(slash + 1)) : std::nullopt;
    if (!used || !bucket || *used > *bucket) {
        out.warnings << u"x-shopify-shop-api-call-limit ignored: not USED/BUCKET with USED ≤ BUCKET"_s;
        return;
    }
    RateLimitSnapshot snapshot;
    snapshot.dialect = u"shopify"_s;
    snapshot.used = used;
    snapshot.limit = bucket;
    snapshot.remaining = *bucket - *used;
    snapshot.fields = rateLimitFields(headers, { "X-Shopify-Shop-Api-Call-Limit" });
    appendSnapshot(out, std::move(snapshot));
}

} // namespace

void readVendorRateLimits(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out)
{
    readXRateLimit(headers, now, out);
    readSuffixed(headers, now, out);
    readX(headers, now, out);
    readShopify(headers, out);
}
