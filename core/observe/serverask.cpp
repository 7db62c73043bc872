// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/serverask.h"

#include "http/ratelimitparser.h"
#include "http/retryafter.h"

#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("observe", text); }

} // namespace

std::optional<ServerAsk> serverAsk(const HttpHeaderList& headers, const QDateTime& answeredAt)
{
    const QDateTime now = rateLimitInstant(combinedHeader(headers, "date"), answeredAt);
    if (const std::optional<RetryAfterValue> hint = parseRetryAfter(headers, now); hint && hint->delay) {
        ServerAsk ask;
        ask.delay = std::max(Millis(0), *hint->delay);
        ask.by = hint->source;
        ask.raw = hint->raw;
        return ask;
    }
    const RateLimitParse limits = parseRateLimits(headers, now);
    const RateLimitSnapshot* tightest = limits.mostRestrictive();
    if (!tightest || !tightest->remaining || *tightest->remaining > 0 || !tightest->resetSeconds)
        return std::nullopt; // units left (or unknown): the quota asked for no wait
    ServerAsk ask;
    ask.delay = Millis(qint64(std::llround(std::max(0.0, *tightest->resetSeconds) * 1000.0)));
    ask.by = u"ratelimit-reset"_s;
    for (const auto& [name, value] : tightest->fields)
        ask.raw += (ask.raw.isEmpty() ? QByteArray() : QByteArrayLiteral("; ")) + name + ": " + value;
    return ask;
}

QString describeDuration(qint64 ms)
{
    if (std::abs(ms) < 1000)
        return u"%1 ms"_s.arg(ms);
    if (std::abs(ms) < 60000) {
        QString s = QString::number(double(ms) / 1000.0, 'f', 3);
        while (s.endsWith(u'0'))
            s.chop(1);
        if (s.endsWith(u'.'))
            s.chop(1);
        return s + u" s"_s;
    }
    const qint64 seconds = ms / 1000;
    return seconds % 60 ? u"%1 min %2 s"_s.arg(seconds / 60).arg(seconds % 60) : u"%1 min"_s.arg(seconds / 60);
}

QString describeAsk(const ServerAsk& ask)
{
    const QString d = describeDuration(ask.delay.count());
    if (ask.by == u"ratelimit-reset"_s)
        return tr("the rate limit reset in %1").arg(d);
    if (ask.by == u"retry-after"_s)
        return tr("Retry-After said %1").arg(d);
    return tr("%1 said %2").arg(ask.by, d);
}
