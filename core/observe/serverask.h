// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What an answer asked its client to wait before trying again, read with the project's parsers
// (http/retryafter.h, http/ratelimitparser.h): Retry-After in any of its forms, else retry-after-ms, else
// the reset of an exhausted rate-limit quota in any dialect. It is set beside the wait the client then
// took, so "waited 0.21 s where Retry-After said 2 s" can be read off an observed attempt.

#include "http/httpfield.h"
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <optional>

struct ServerAsk
{
    Millis delay { 0 };
    QString by; // "retry-after", "retry-after-ms" or "ratelimit-reset"
    QByteArray raw; // the field value as received ("RateLimit: …" for a rate limit: name and value)
};

// RESPONSE_HEADERS' ask, measured from ANSWERED_AT (HTTP-dates and epoch resets are relative to it; the
// answer's own Date field is used instead when it has a valid one, since the server computed the date
// against its clock). nullopt when the answer asked nothing: no such field, an invalid value, a quota
// with units left.
std::optional<ServerAsk> serverAsk(const HttpHeaderList& responseHeaders, const QDateTime& answeredAt);

// "Retry-After said 2 s", "retry-after-ms said 250 ms", "the rate limit reset in 30 s".
QString describeAsk(const ServerAsk& ask);
// "0.21 s", "2 s", "1.005 s", "250 ms", "1 min 5 s".
QString describeDuration(qint64 ms);
