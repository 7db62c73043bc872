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

// NOW is the instant reset times are measured from (the receive time, or the response's Date).
RateLimitParse parseRateLimits(const HttpHeaderList& headers, const QDateTime& now);

// The snapshot that constrains the client most, as an index into SNAPSHOTS (absent when empty). Order:
//  1. exhausted quotas (remaining 0) first, the one that resets last among them (unknown reset = last),
//     because no request can go out before that one is restored;
//  2. then the lowest remaining/limit ratio, ties broken by the sooner reset;
//  3. then quotas with a remaining count but no limit, lowest remaining first;
//  4. then quotas with no remaining count at all (a policy without state), in order.
// Equal ranks keep the first in SNAPSHOTS.
std::optional<qsizetype> mostRestrictiveIndex(const QList<RateLimitSnapshot>& snapshots);
