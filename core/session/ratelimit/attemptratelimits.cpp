// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/ratelimit/attemptratelimits.h"

#include "http/ratelimitparser.h"
#include "session/ratelimit/ratelimitjson.h"

namespace {

std::optional<MonoTime> moment(qint64 ns)
{
    return ns == PackedAttemptHot::kUnset ? std::nullopt : std::optional<MonoTime>(MonoTime(ns));
}

bool isName(QByteArrayView name, QByteArrayView lower)
{
    return name.size() == lower.size() && name.compare(lower, Qt::CaseInsensitive) == 0;
}

} // namespace

AttemptRateLimits::AttemptRateLimits(const AttemptStore& store, const QDateTime& wallOriginUtc)
    : m_store(store)
    , m_wallOrigin(wallOriginUtc.toUTC())
{ }

QDateTime AttemptRateLimits::receivedAt(
    const QDateTime& wallOriginUtc, std::optional<MonoTime> headers, std::optional<MonoTime> finished)
{
    const std::optional<MonoTime> when = headers ? headers : finished;
    if (!wallOriginUtc.isValid() || !when)
        return {};
    return wallOriginUtc.toUTC().addMSecs(std::chrono::floor<std::chrono::milliseconds>(*when).count());
}

const RateLimitParse& AttemptRateLimits::parse(const PackedAttemptHot& a)
{
    if (!a.rateLimitHeaders)
        return m_none;
    m_key.clear();
    for (int i = 0, n = m_store.headerCount(a.rateLimitHeaders); i < n; ++i) {
        m_key.push_back(m_store.headerNameId(a.rateLimitHeaders, i));
        m_key.push_back(m_store.headerValueIdAt(a.rateLimitHeaders, i));
    }
    QByteArrayView date;
    int dates = 0;
    for (int i = 0, n = m_store.headerCount(a.responseHeaders); i < n; ++i) {
        const QByteArrayView name = m_store.headerName(a.responseHeaders, i);
        if (isName(name, "age")) { // an answer from a cache: its quota is not current (draft §7.3)
            m_key.push_back(m_store.headerNameId(a.responseHeaders, i));
            m_key.push_back(m_store.headerValueIdAt(a.responseHeaders, i));
        } else if (isName(name, "date")) {
            const QByteArrayView value = m_store.headerValue(a.responseHeaders, i);
            if (++dates == 1) {
                date = value;
            } else { // as combinedHeader() joins them, which no HTTP-date reads
                m_dates = (dates == 2 ? date.toByteArray() : m_dates) + ", " + value.toByteArray();
                date = m_dates;
            }
        }
    }
    const bool sameFields = m_parsed && m_key == m_parsedKey;
    if (sameFields && !m_parse.dependsOnNow)
        return m_parse;
    const QDateTime received = receivedAt(
        m_wallOrigin, moment(a.at[PackedAttemptHot::HeadersReceived]), moment(a.at[PackedAttemptHot::Finished]));
    const QDateTime instant = rateLimitInstant(date, received);
    if (sameFields && instant == m_instant)
        return m_parse;

    HttpHeaderList fields;
    fields.reserve(qsizetype(m_key.size() / 2));
    for (size_t i = 0; i + 1 < m_key.size(); i += 2)
        fields.append({ m_store.strings().bytes(m_key[i]), m_store.strings().bytes(m_key[i + 1]) });
    m_parse = parseAnswerRateLimits(fields, date, received);
    m_parsedKey.swap(m_key);
    m_instant = instant;
    m_parsed = true;
    m_jsonValid = false;
    return m_parse;
}

QByteArrayView AttemptRateLimits::json(const PackedAttemptHot& attempt)
{
    const RateLimitParse& parse = this->parse(attempt);
    if (&parse == &m_none)
        return "null";
    if (!m_jsonValid) {
        m_json = RateLimitJson::text(m_parse);
        m_jsonValid = true;
    }
    return m_json;
}
