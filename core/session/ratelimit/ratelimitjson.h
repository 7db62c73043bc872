// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An answer's parsed rate limits as JSON, the one spelling of them every output uses: the `rate_limit` of a
// session attempt (and so of `run --json` and `run --export`), the HAR entry's `_rateLimit`, and
// `inspect --json` (resources/docs/session-format.md, inspect.md).
//   a quota:   {"limit":N|null,"remaining":N|null,"reset_seconds":S|null,"policy":"…"|null,"dialect":"…"}
//   an answer: the most restrictive quota's five members, then "policies":[every quota, in the parse's
//              order], then "warnings":["…"] only when some field was ignored or guessed; null when the
//              answer stated no quota.
// Numbers are written as QJsonDocument writes them (inspect printed them so before this writer existed):
// integers as integers, reset seconds as the shortest decimal that reads back to the same double.

#include "http/ratelimitparse.h"
#include "json/jsonsink.h"

namespace RateLimitJson {
void writeQuota(JsonSink& out, const RateLimitSnapshot& quota);
void write(JsonSink& out, const RateLimitParse& parse);
QByteArray text(const RateLimitParse& parse); // write() into a new array
} // namespace RateLimitJson
