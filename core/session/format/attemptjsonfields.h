// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fields of an attempt object in a session file (resources/docs/session-format.md), each key spelled
// once, in the order AttemptJsonWriter puts them and the reader expects them (it matches the next one in
// place, so an attempt of some sixty fields costs no lookup). Both sides name a field by its Id; a field
// the writer leaves out of an attempt (a decision's, an observed client's) is passed over in order.

#include <QByteArrayView>

#include <array>

namespace AttemptJsonFields {

enum class Id : quint8 {
    Run, Index,
    Scheduled, Queued, Started, Connecting, TlsDone, RequestSent, HeadersReceived, FirstByte, Finished, // the moments
    Phase, Method, Url, RequestHeaders, BodySize, BodySha, BytesUp, BytesDown, Reused, Http2, SentSignals, Key,
    AttemptId, Status, ReasonPhrase, ResponseHeaders, Excerpt, ExcerptTruncated, Error, QtError, QtErrorCode, Abort,
    Redirect, Decision, Final, Delay, Ceiling, Low, High, Source, Hint, Asked, Rule, Throttling, QuotaCost, Reason,
    ClientWait, AskedFor, AskedBy, Exchange, RetryAfter, RetryAfterRaw, RetryAfterSource, RateLimitFields, RateLimit,
    ThrottleWait, VerdictWait, RefusedBy, RefusedState, RefusedRetryIn, RefusedScope, Hedge, HedgeWon, Budget,
    Count
};

// By Id.
inline constexpr std::array<QByteArrayView, size_t(Id::Count)> kKeys = {
    "run", "index",
    "scheduled_ms", "queued_ms", "start_ms", "connecting_ms", "tls_done_ms", "request_sent_ms", "headers_ms",
    "first_byte_ms", "end_ms",
    "phase_reached", "method", "url", "request_headers", "body_size", "body_sha256", "bytes_up", "bytes_down",
    "connection_reused", "http2", "request_sent_signals", "idempotency_key", "attempt_id", "status", "reason_phrase",
    "response_headers", "body_excerpt_base64", "body_excerpt_truncated", "error", "qt_error", "qt_error_code",
    "abort_reason", "redirect_target", "decision", "final", "delay_ms", "delay_ceiling_ms", "delay_low_ms",
    "delay_high_ms", "delay_source", "hint_header", "server_asked_for_ms", "rule", "throttling", "quota_cost",
    "reason", "client_wait_ms", "asked_for_ms", "asked_by", "exchange", "retry_after_ms", "retry_after_raw",
    "retry_after_source", "rate_limit_fields", "rate_limit", "throttle_wait_ms", "verdict_wait_ms", "refused_by",
    "refused_state", "refused_retry_in_ms", "refused_scope", "hedge", "hedge_won", "budget",
};

constexpr QByteArrayView key(Id id) { return kKeys[size_t(id)]; }
// The moment of time slot SLOT (PackedAttempt::TimeSlot), in the same order.
constexpr Id moment(int slot) { return Id(int(Id::Scheduled) + slot); }
// The time slot of a moment's Id, or -1 for any other field.
constexpr int slotOf(Id id) { return id >= Id::Scheduled && id <= Id::Finished ? int(id) - int(Id::Scheduled) : -1; }

} // namespace AttemptJsonFields
