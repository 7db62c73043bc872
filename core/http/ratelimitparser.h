// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads every rate-limit dialect of headers.md §2–§4 from one response head.
//
// The dialect is chosen by field names first (GitLab's RateLimit-Reset is a Unix time, the IETF one is
// delay-seconds; GitHub's X-RateLimit-Reset is a Unix time…); the magnitude heuristic (> 1e9 ⇒ epoch
// seconds, > 1e12 ⇒ epoch milliseconds) is used only where the dialect leaves the unit open or the value
// contradicts it, and is then reported in the warnings. Malformed fields are ignored whole, with a warning
// (draft §7, RFC 9651 §4.2). A response with a positive Age came from a cache: its rate-limit fields are
// ignored and a warning says so (draft §7.3).

#include "http/httpfield.h"
#include "http/ratelimitparse.h"

#include <QDateTime>

// NOW is the instant reset times are measured from (see rateLimitInstant()). An invalid NOW leaves a reset
// stated as a point in time unknown, with a warning.
RateLimitParse parseRateLimits(const HttpHeaderList& headers, const QDateTime& now);

// The instant an answer's reset times are measured from, for every reader of an answer (exports, inspect,
// the chart, observed runs): its Date field when that is an HTTP-date, since an absolute reset (GitHub's
// epoch X-RateLimit-Reset, GitLab's RateLimit-ResetTime) is stated on the server's clock (headers.md §4:
// "compute against the response Date header"); else RECEIVED, the wall time the answer arrived (for a
// recorded one: the session's wall origin + its headers_ms, or end_ms). Invalid when neither is known.
// RECEIVED is also the reference for an RFC 850 Date's two-digit year.
QDateTime rateLimitInstant(QByteArrayView date, const QDateTime& received);

// An answer's rate limits: parseRateLimits(FIELDS, rateLimitInstant(DATE, RECEIVED)). FIELDS are its
// rate-limit fields as recorded, with its Age field when it had one (a cached answer's quota is ignored).
RateLimitParse parseAnswerRateLimits(const HttpHeaderList& fields, QByteArrayView date, const QDateTime& received);

// The snapshot that constrains the client most, as an index into SNAPSHOTS (absent when empty). Order:
//  1. exhausted quotas (remaining 0) first, the one that resets last among them (unknown reset = last),
//     because no request can go out before that one is restored;
//  2. then the lowest remaining/limit ratio, ties broken by the sooner reset;
//  3. then quotas with a remaining count but no limit, lowest remaining first;
//  4. then quotas with no remaining count at all (a policy without state), in order.
// Equal ranks keep the first in SNAPSHOTS.
std::optional<qsizetype> mostRestrictiveIndex(const QList<RateLimitSnapshot>& snapshots);
