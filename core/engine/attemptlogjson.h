// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The `retrylab run --export` JSON until the sessions format exists (issue 4):
// { "format": "retrylab-attempt-log", "version": 1,
//   "runs": [ { "run", "seed", "policy", "method", "url", "outcome", "reason", "server_asked_for_ms",
//               "attempts": [ { "index", "start_ms", "end_ms", "status", "error", "qt_error", "abort_reason",
//                               "decision", "delay_ms", "delay_ceiling_ms", "delay_source", "reason",
//                               "idempotency_key", "attempt_id", "request_headers", "response_headers",
//                               "rate_limit", "rate_limit_fields", "throttle_wait_ms", "retry_after_ms",
//                               "body_size", "body_sha256", "bytes_down", "connection_reused", "http2" } ] } ] }
// "rate_limit" is the most restrictive quota the answer stated, in any dialect, or null:
//   { "limit", "remaining", "reset_seconds", "policy", "dialect", "policies": [ every quota, same fields ],
//     "warnings": [ … ] (only when some field was ignored or guessed) }
// and "rate_limit_fields" the raw rate-limit fields ([name, value] pairs, as received).
// Times are milliseconds on the session's monotonic axis. Headers are [name, value] pairs in order;
// secret values (Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key…) read "[redacted]"
// unless REDACT is false.

#include "engine/runrecord.h"

#include <QJsonObject>
#include <QList>

QJsonObject attemptToJson(const AttemptRecord& attempt, bool redact = true);
QJsonObject runToJson(const RunRecord& run, bool redact = true);
QJsonObject attemptLogToJson(const QList<RunRecord>& runs, bool redact = true);
