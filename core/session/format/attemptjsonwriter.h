// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writes the attempts of one file (or journal) one after the other, remembering what repeats between them:
// a URL with its listed query parameters redacted, a secret header value's redacted form, which header
// names are secret, the last answer's parsed rate limits. A million attempts then do not hash the same
// secret, or parse the same rate-limit fields, a million times.
//
// Each attempt's `rate_limit` (its answer's quotas, parsed) is derived as it is written (AttemptRateLimits),
// measured from when the answer came: WALL_ORIGIN_UTC, the session's meta.wallOriginUtc, is that moment's
// origin on the wall clock.

#include "session/store/attemptstore.h"
#include "json/jsonsink.h"
#include "session/export/redaction.h"
#include "session/ratelimit/attemptratelimits.h"

#include <QByteArray>
#include <QHash>

class AttemptJsonWriter
{
public:
    AttemptJsonWriter(const AttemptStore& store, const Redactor& redactor, const QDateTime& wallOriginUtc);

    void write(JsonSink& out, const PackedAttempt& attempt); // one attempt object

private:
    void writeHeaders(JsonSink& out, quint32 offset, bool redact);
    void writeUrl(JsonSink& out, quint32 id);
    bool isSecretName(quint32 nameId);
    QByteArray redactedValue(quint32 valueId);

    const AttemptStore& m_store;
    const Redactor& m_redactor;
    // Bounded: cleared when full (a session whose URLs or secrets never repeat just recomputes them).
    QHash<quint32, QByteArray> m_urls;
    QHash<quint32, bool> m_secretNames;
    QHash<quint32, QByteArray> m_redactedValues;
    AttemptRateLimits m_rateLimits;
};
