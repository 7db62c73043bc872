// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rate limits a recorded attempt's answer stated, as every export shows them: parseAnswerRateLimits()
// (core/http/ratelimitparser.h) on its rate-limit fields (with its Age field, when it had one), its Date
// and the moment it was received: the session's wall origin + headers_ms (end_ms when the headers' moment
// is unknown). Derived each time an attempt is written, never stored: the packed store stays as it is.
//
// Attempts are read one after the other, and a batch's answers mostly repeat: the last parse (and its JSON)
// is used again while the next attempt has the same fields and Age, and either the same instant or a parse
// that did not depend on it (RateLimitParse::dependsOnNow: no reset stated as a point in time). The Date
// last read is kept parsed too. A session's million attempts then parse their fields a few times, not a
// million.

#include "http/ratelimitparse.h"
#include "session/store/attemptstore.h"

#include <QByteArray>
#include <QDateTime>

#include <vector>

class AttemptRateLimits
{
public:
    AttemptRateLimits(const AttemptStore& store, const QDateTime& wallOriginUtc);

    const RateLimitParse& parse(const PackedAttemptHot& attempt); // empty when it stated no rate limit
    QByteArrayView json(const PackedAttemptHot& attempt); // RateLimitJson::write of parse(): "null" when empty

    // The wall time an answer was received: WALL_ORIGIN_UTC + the moment its headers came (HEADERS), or the
    // attempt ended (FINISHED) when that is unknown, to the millisecond below. Invalid when the origin or
    // both moments are unknown. The rate-limit chart places an answer's resets by the same moment.
    static QDateTime receivedAt(
        const QDateTime& wallOriginUtc, std::optional<MonoTime> headers, std::optional<MonoTime> finished);

private:
    const AttemptStore& m_store;
    const QDateTime m_wallOrigin;
    // What m_parse was read from: the rate-limit fields' and Age fields' name and value ids, in pairs, and
    // the instant; m_key is the next attempt's, gathered in place.
    std::vector<quint32> m_parsedKey;
    std::vector<quint32> m_key;
    QDateTime m_instant;
    bool m_parsed = false;
    RateLimitParse m_parse;
    QByteArray m_json; // of m_parse, once asked for
    bool m_jsonValid = false;
    QByteArray m_dates; // several Date lines, combined (malformed: read as no Date)
    const RateLimitParse m_none;
};
