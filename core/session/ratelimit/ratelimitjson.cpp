// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/ratelimit/ratelimitjson.h"

#include "json/jsontext.h"

#include <QLocale>

#include <cmath>

namespace {

void optionalInteger(JsonSink& out, QByteArrayView key, bool& first, const std::optional<qint64>& value)
{
    JsonText::key(out, key, first);
    if (value)
        JsonText::integer(out, *value);
    else
        out.append("null");
}

// A quota's five members, without the braces.
void quotaMembers(JsonSink& out, const RateLimitSnapshot& q)
{
    bool first = true;
    optionalInteger(out, "limit", first, q.limit);
    optionalInteger(out, "remaining", first, q.remaining);
    JsonText::key(out, "reset_seconds", first);
    if (q.resetSeconds && std::isfinite(*q.resetSeconds))
        out.append(QByteArrayView(QByteArray::number(*q.resetSeconds, 'g', QLocale::FloatingPointShortest)));
    else
        out.append("null");
    JsonText::key(out, "policy", first);
    if (q.policy.isEmpty())
        out.append("null");
    else
        JsonText::string(out, q.policy);
    JsonText::key(out, "dialect", first);
    JsonText::string(out, q.dialect);
}

} // namespace

namespace RateLimitJson {

void writeQuota(JsonSink& out, const RateLimitSnapshot& quota)
{
    out.append('{');
    quotaMembers(out, quota);
    out.append('}');
}

void write(JsonSink& out, const RateLimitParse& parse)
{
    const RateLimitSnapshot* most = parse.mostRestrictive();
    if (!most) {
        out.append("null");
        return;
    }
    out.append('{');
    quotaMembers(out, *most);
    out.append(",\"policies\":[");
    for (qsizetype i = 0; i < parse.snapshots.size(); ++i) {
        if (i)
            out.append(',');
        writeQuota(out, parse.snapshots.at(i));
    }
    out.append(']');
    if (!parse.warnings.isEmpty()) {
        out.append(",\"warnings\":[");
        for (qsizetype i = 0; i < parse.warnings.size(); ++i) {
            if (i)
                out.append(',');
            JsonText::string(out, parse.warnings.at(i));
        }
        out.append(']');
    }
    out.append('}');
}

QByteArray text(const RateLimitParse& parse)
{
    QByteArray out;
    {
        JsonSink sink(out);
        write(sink, parse);
    }
    return out;
}

} // namespace RateLimitJson
