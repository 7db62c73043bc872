// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/attemptjson.h"

#include "session/enumnames.h"
#include "session/jsontext.h"

#include <QHash>

#include <cmath>

namespace {

const char* const kTimeKeys[PackedAttempt::SlotCount] = { "scheduled_ms", "start_ms", "connecting_ms", "tls_done_ms",
    "request_sent_ms", "headers_ms", "first_byte_ms", "end_ms" };

void writeHeaders(QByteArray& out, const AttemptStore& store, quint32 offset, const Redactor* redactor)
{
    out += '[';
    const int n = store.headerCount(offset);
    for (int i = 0; i < n; ++i) {
        if (i)
            out += ',';
        out += '[';
        const QByteArrayView name = store.headerName(offset, i);
        JsonText::string(out, name);
        out += ',';
        const QByteArrayView value = store.headerValue(offset, i);
        if (redactor && redactor->isSecretHeader(name))
            JsonText::string(out, QByteArrayView(redactor->value(value)));
        else
            JsonText::string(out, value);
        out += ']';
    }
    out += ']';
}

void text(QByteArray& out, const char* key, bool& first, const AttemptStore& s, quint32 id, bool nullWhenEmpty = false)
{
    JsonText::key(out, key, first);
    if (nullWhenEmpty && !id)
        out += "null";
    else
        JsonText::string(out, s.strings().view(id));
}

void optInt(QByteArray& out, const char* key, bool& first, qint64 v)
{
    JsonText::key(out, key, first);
    if (v == PackedAttempt::kUnset)
        out += "null";
    else
        JsonText::integer(out, v);
}

void name(QByteArray& out, const char* key, bool& first, const QString& value)
{
    JsonText::key(out, key, first);
    JsonText::string(out, value);
}

} // namespace

namespace AttemptJson {

void write(QByteArray& out, const AttemptStore& s, const PackedAttempt& p, const Redactor& redactor)
{
    bool f = true;
    out += '{';
    JsonText::key(out, "run", f);
    JsonText::integer(out, p.runId);
    JsonText::key(out, "index", f);
    JsonText::integer(out, p.index);
    for (int i = 0; i < PackedAttempt::SlotCount; ++i) {
        JsonText::key(out, kTimeKeys[i], f);
        if (p.at[i] == PackedAttempt::kUnset)
            out += "null";
        else
            JsonText::millisFromNs(out, p.at[i]);
    }
    name(out, "phase_reached", f, attemptPhaseName(AttemptPhase(p.phaseReached)));
    text(out, "method", f, s, p.method);
    JsonText::key(out, "url", f);
    JsonText::string(out, redactor.url(s.strings().string(p.url)));
    JsonText::key(out, "request_headers", f);
    writeHeaders(out, s, p.requestHeaders, &redactor);
    JsonText::key(out, "body_size", f);
    JsonText::integer(out, p.bodySize);
    text(out, "body_sha256", f, s, p.bodySha256);
    JsonText::key(out, "bytes_up", f);
    JsonText::integer(out, p.bytesUp);
    JsonText::key(out, "bytes_down", f);
    JsonText::integer(out, p.bytesDown);
    JsonText::key(out, "connection_reused", f);
    out += p.connectionReused ? "true" : "false";
    JsonText::key(out, "http2", f);
    out += p.http2 ? "true" : "false";
    JsonText::key(out, "request_sent_signals", f);
    JsonText::integer(out, p.requestSentSignals);
    text(out, "idempotency_key", f, s, p.idempotencyKey, true);
    text(out, "attempt_id", f, s, p.attemptId);
    optInt(out, "status", f, p.status < 0 ? PackedAttempt::kUnset : p.status);
    text(out, "reason_phrase", f, s, p.reasonPhrase);
    JsonText::key(out, "response_headers", f);
    writeHeaders(out, s, p.responseHeaders, &redactor);
    JsonText::key(out, "body_excerpt_base64", f);
    JsonText::string(out, QByteArrayView(s.strings().view(p.bodyExcerpt).toByteArray().toBase64()));
    JsonText::key(out, "body_excerpt_truncated", f);
    out += p.bodyExcerptTruncated ? "true" : "false";
    JsonText::key(out, "error", f);
    if (p.error < 0)
        out += "null";
    else
        JsonText::string(out, errorClassName(ErrorClass(p.error)));
    text(out, "qt_error", f, s, p.qtError);
    JsonText::key(out, "qt_error_code", f);
    JsonText::integer(out, p.qtErrorCode);
    name(out, "abort_reason", f, abortReasonName(AbortReason(p.abortReason)));
    text(out, "redirect_target", f, s, p.redirectTarget, true);
    const bool decided = p.verdict >= 0;
    name(out, "decision", f, decided ? verdictName(Verdict(p.verdict)) : QStringLiteral("cancelled"));
    if (decided) {
        name(out, "final", f, finalKindName(FinalKind(p.finalKind)));
        optInt(out, "delay_ms", f, p.delayMs);
        optInt(out, "delay_ceiling_ms", f, p.ceilingMs);
        optInt(out, "delay_low_ms", f, p.delayLowMs);
        optInt(out, "delay_high_ms", f, p.delayHighMs);
        name(out, "delay_source", f, delaySourceName(DelaySource(p.delaySource)));
        text(out, "hint_header", f, s, p.hintHeader);
        optInt(out, "server_asked_for_ms", f, p.serverAskedForMs);
        text(out, "rule", f, s, p.ruleName);
        JsonText::key(out, "throttling", f);
        out += p.throttling ? "true" : "false";
        JsonText::key(out, "quota_cost", f);
        JsonText::integer(out, p.quotaCost);
        text(out, "reason", f, s, p.reason);
    } else {
        out += ",\"delay_ms\":null,\"delay_ceiling_ms\":null,\"delay_source\":null,\"reason\":\"cancelled\"";
    }
    if (p.retryAfterValid) {
        optInt(out, "retry_after_ms", f, p.retryAfterMs);
        text(out, "retry_after_raw", f, s, p.retryAfterRaw);
        text(out, "retry_after_source", f, s, p.retryAfterSource);
    } else {
        out += ",\"retry_after_ms\":null";
    }
    JsonText::key(out, "rate_limit_fields", f);
    writeHeaders(out, s, p.rateLimitHeaders, nullptr);
    JsonText::key(out, "throttle_wait_ms", f);
    JsonText::integer(out, p.throttleWaitMs);
    JsonText::key(out, "budget", f);
    bool bf = true;
    out += '{';
    if (p.quotaTokens != std::numeric_limits<qint32>::min()) {
        JsonText::key(out, "quota_tokens", bf);
        JsonText::integer(out, p.quotaTokens);
    }
    if (!std::isnan(p.throttlingTokens)) {
        JsonText::key(out, "throttling_tokens", bf);
        JsonText::number(out, p.throttlingTokens);
    }
    if (p.hostResetInMs != PackedAttempt::kUnset) {
        JsonText::key(out, "host_reset_in_ms", bf);
        JsonText::integer(out, p.hostResetInMs);
    }
    out += "}}";
}

} // namespace AttemptJson
