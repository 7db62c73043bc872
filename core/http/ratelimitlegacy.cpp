// SPDX-License-Identifier: GPL-3.0-or-later
// RateLimit-Limit / -Remaining / -Reset: IETF drafts -00…-06 and express-rate-limit "draft-6" (headers.md
// §2.3, §3.1), and GitLab's same-named fields whose Reset is a Unix time (headers.md §4).
#include "http/httpdate.h"
#include "http/ratelimitdialects.h"
#include "http/ratelimitvalue.h"
#include "http/structuredfield.h"

#include <algorithm>

namespace {

using namespace Qt::StringLiterals;

// RateLimit-Limit: an Integer Item (-04…-06) or a List whose first member is the limit and whose further
// members are `quota;w=window` policies (-00…-03): `100, 100;w=10`.
struct LimitField
{
    std::optional<qint64> limit;
    std::optional<qint64> window;
};

std::optional<LimitField> readLimitField(const QList<QByteArray>& lines)
{
    const std::optional<SfList> list = parseSfList(lines);
    if (!list || list->isEmpty())
        return std::nullopt;
    LimitField result;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const auto* item = std::get_if<SfItem>(&list->at(i));
        const auto* value = item ? std::get_if<qint64>(&item->value) : nullptr;
        if (!value || *value < 0)
            return std::nullopt;
        const std::optional<qint64> window = sfInteger(item->params, "w");
        if (item->params.contains("w") && (!window || *window <= 0))
            return std::nullopt;
        if (i == 0) {
            result.limit = *value;
            result.window = window;
        } else if (!result.window && window && *value == *result.limit) {
            result.window = window;
        }
    }
    return result;
}

// An Integer Item; parameters are ignored as drafts -04…-06 say.
std::optional<qint64> readIntegerItem(const QList<QByteArray>& lines)
{
    const std::optional<SfItem> item = parseSfItem(lines);
    const auto* value = item ? std::get_if<qint64>(&item->value) : nullptr;
    if (!value || *value < 0)
        return std::nullopt;
    return *value;
}

} // namespace

void readLegacyRateLimit(const HttpHeaderList& headers, const QDateTime& now, const RateLimitPolicyField& policies,
    RateLimitParse& out)
{
    const QList<QByteArray> limitLines = headerValues(headers, "RateLimit-Limit");
    const QList<QByteArray> remainingLines = headerValues(headers, "RateLimit-Remaining");
    const QList<QByteArray> resetLines = headerValues(headers, "RateLimit-Reset");
    const bool gitlab = hasHeader(headers, "RateLimit-Observed") || hasHeader(headers, "RateLimit-Name")
        || hasHeader(headers, "RateLimit-ResetTime");
    if (limitLines.isEmpty() && remainingLines.isEmpty() && resetLines.isEmpty() && !gitlab)
        return;

    RateLimitSnapshot snapshot;
    snapshot.dialect = gitlab ? u"gitlab"_s : u"ratelimit-legacy"_s;
    auto ignored = [&snapshot](const char* field, const QString& why) {
        snapshot.warnings << QString::fromLatin1(field) + u" ignored: "_s + why;
    };
    if (!limitLines.isEmpty()) {
        if (const std::optional<LimitField> limit = readLimitField(limitLines)) {
            snapshot.limit = limit->limit;
            snapshot.windowSeconds = limit->window;
        } else {
            ignored("RateLimit-Limit", u"not a non-negative Integer or a List of them"_s);
        }
    }
    if (snapshot.limit && !snapshot.windowSeconds)
        snapshot.windowSeconds = policies.integerWindow(*snapshot.limit);
    if (!remainingLines.isEmpty()) {
        snapshot.remaining = readIntegerItem(remainingLines);
        if (!snapshot.remaining)
            ignored("RateLimit-Remaining", u"not a non-negative Integer"_s);
    }
    if (!resetLines.isEmpty()) {
        bool conflict = false;
        const std::optional<QByteArray> reset = rateLimitSingleton(headers, "RateLimit-Reset", &conflict);
        if (!reset) {
            ignored("RateLimit-Reset", u"sent several times with different values"_s);
        } else {
            const ResetReading reading = readRateLimitReset(*reset,
                gitlab ? ResetUnit::EpochSeconds : ResetUnit::DelaySeconds, now, u"RateLimit-Reset"_s);
            snapshot.resetSeconds = reading.seconds;
            snapshot.resetGuessed = reading.guessed;
            snapshot.resetAbsolute = reading.absolute;
            if (!reading.note.isEmpty())
                snapshot.warnings << reading.note;
        }
    }
    if (gitlab) {
        bool conflict = false;
        if (const std::optional<QByteArray> name = rateLimitSingleton(headers, "RateLimit-Name", &conflict))
            snapshot.policy = QString::fromLatin1(name->trimmed());
        if (hasHeader(headers, "RateLimit-Observed")) {
            snapshot.used = parseRateLimitInteger(combinedHeader(headers, "RateLimit-Observed"));
            if (!snapshot.used)
                ignored("RateLimit-Observed", u"not a non-negative integer"_s);
        }
        // RateLimit-ResetTime (IMF-fixdate) stands in when RateLimit-Reset is missing or unreadable.
        if (!snapshot.resetSeconds && hasHeader(headers, "RateLimit-ResetTime")) {
            const HttpDate date = parseHttpDate(combinedHeader(headers, "RateLimit-ResetTime"), now);
            if (!date.isValid())
                ignored("RateLimit-ResetTime", u"not an HTTP-date"_s);
            else if (!now.isValid())
                ignored("RateLimit-ResetTime", u"a point in time, and when the answer came is not known"_s);
            else
                snapshot.resetSeconds = std::max<qint64>(0, now.secsTo(date.dateTime));
            snapshot.resetAbsolute = true;
        }
    }
    snapshot.fields = rateLimitFields(headers,
        { "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy", "RateLimit-Name",
            "RateLimit-Observed", "RateLimit-ResetTime" });
    out.dependsOnNow = out.dependsOnNow || snapshot.resetAbsolute;
    if (!snapshot.limit && !snapshot.remaining && !snapshot.resetSeconds) {
        out.warnings << snapshot.warnings;
        return;
    }
    appendSnapshot(out, std::move(snapshot));
}
