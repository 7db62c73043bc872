// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/attemptjsonwriter.h"

#include "session/format/enumspellings.h"
#include "json/jsontext.h"

#include <cmath>

namespace {

constexpr qsizetype kCacheLimit = 4096;

const QByteArrayView kTimeKeys[PackedAttempt::SlotCount] = { "scheduled_ms", "queued_ms", "start_ms", "connecting_ms", "tls_done_ms",
    "request_sent_ms", "headers_ms", "first_byte_ms", "end_ms" };

void text(JsonSink& out, QByteArrayView key, bool& first, const AttemptStore& s, quint32 id, bool nullWhenEmpty = false)
{
    JsonText::key(out, key, first);
    if (nullWhenEmpty && !id)
        out.append("null");
    else
        JsonText::string(out, s.strings().view(id));
}

void optInt(JsonSink& out, QByteArrayView key, bool& first, qint64 v)
{
    JsonText::key(out, key, first);
    if (v == PackedAttempt::kUnset)
        out.append("null");
    else
        JsonText::integer(out, v);
}

void name(JsonSink& out, QByteArrayView key, bool& first, QByteArrayView value)
{
    JsonText::key(out, key, first);
    JsonText::string(out, value);
}

void flag(JsonSink& out, QByteArrayView key, bool& first, bool value)
{
    JsonText::key(out, key, first);
    out.append(value ? QByteArrayView("true") : QByteArrayView("false"));
}

void base64(JsonSink& out, QByteArrayView bytes)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char* dst = out.room((bytes.size() + 2) / 3 * 4 + 2);
    *dst++ = '"';
    qsizetype i = 0;
    const auto byte = [&](qsizetype k) { return quint32(uchar(bytes[k])); };
    for (; i + 3 <= bytes.size(); i += 3) {
        const quint32 v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
        *dst++ = alphabet[v >> 18];
        *dst++ = alphabet[(v >> 12) & 63];
        *dst++ = alphabet[(v >> 6) & 63];
        *dst++ = alphabet[v & 63];
    }
    if (const qsizetype rest = bytes.size() - i) {
        const quint32 v = (byte(i) << 16) | (rest == 2 ? byte(i + 1) << 8 : 0);
        *dst++ = alphabet[v >> 18];
        *dst++ = alphabet[(v >> 12) & 63];
        *dst++ = rest == 2 ? alphabet[(v >> 6) & 63] : '=';
        *dst++ = '=';
    }
    *dst++ = '"';
    out.commit(dst);
}

} // namespace

AttemptJsonWriter::AttemptJsonWriter(
    const AttemptStore& store, const Redactor& redactor, const QDateTime& wallOriginUtc)
    : m_store(store)
    , m_redactor(redactor)
    , m_rateLimits(store, wallOriginUtc)
{
}

bool AttemptJsonWriter::isSecretName(quint32 nameId)
{
    if (!m_redactor.enabled())
        return false;
    const auto it = m_secretNames.constFind(nameId);
    if (it != m_secretNames.constEnd())
        return *it;
    if (m_secretNames.size() >= kCacheLimit)
        m_secretNames.clear();
    const bool secret = m_redactor.isSecretHeader(m_store.strings().view(nameId));
    m_secretNames.insert(nameId, secret);
    return secret;
}

QByteArray AttemptJsonWriter::redactedValue(quint32 valueId)
{
    const auto it = m_redactedValues.constFind(valueId);
    if (it != m_redactedValues.constEnd())
        return *it;
    if (m_redactedValues.size() >= kCacheLimit)
        m_redactedValues.clear();
    const QByteArray value = m_redactor.value(m_store.strings().view(valueId));
    m_redactedValues.insert(valueId, value);
    return value;
}

void AttemptJsonWriter::writeUrl(JsonSink& out, quint32 id)
{
    const QByteArrayView bytes = m_store.strings().view(id);
    if (!m_redactor.enabled() || !bytes.contains('?')) { // Redactor::url() changes only queries
        JsonText::string(out, bytes);
        return;
    }
    auto it = m_urls.constFind(id);
    if (it == m_urls.constEnd()) {
        if (m_urls.size() >= kCacheLimit)
            m_urls.clear();
        it = m_urls.insert(id, m_redactor.url(QString::fromUtf8(bytes)).toUtf8());
    }
    JsonText::string(out, QByteArrayView(*it));
}

void AttemptJsonWriter::writeHeaders(JsonSink& out, quint32 offset, bool redact)
{
    out.append('[');
    const int n = m_store.headerCount(offset);
    for (int i = 0; i < n; ++i) {
        if (i)
            out.append(',');
        out.append('[');
        const quint32 nameId = m_store.headerNameId(offset, i);
        JsonText::string(out, m_store.strings().view(nameId));
        out.append(',');
        const quint32 valueId = m_store.headerValueIdAt(offset, i);
        if (redact && isSecretName(nameId))
            JsonText::string(out, QByteArrayView(redactedValue(valueId)));
        else
            JsonText::string(out, m_store.strings().view(valueId));
        out.append(']');
    }
    out.append(']');
}

void AttemptJsonWriter::write(JsonSink& out, const PackedAttempt& p)
{
    using namespace EnumSpelling;
    const AttemptStore& s = m_store;
    bool f = true;
    out.append('{');
    JsonText::key(out, "run", f);
    JsonText::integer(out, p.runId);
    JsonText::key(out, "index", f);
    JsonText::integer(out, p.index);
    for (int i = 0; i < PackedAttempt::SlotCount; ++i) {
        if (i == PackedAttempt::Queued && p.at[i] == PackedAttempt::kUnset)
            continue; // only attempts that waited for a connection have one
        JsonText::key(out, kTimeKeys[i], f);
        if (p.at[i] == PackedAttempt::kUnset)
            out.append("null");
        else
            JsonText::millisFromNs(out, p.at[i]);
    }
    name(out, "phase_reached", f, phases().name(AttemptPhase(p.phaseReached)));
    text(out, "method", f, s, p.method);
    JsonText::key(out, "url", f);
    writeUrl(out, p.url);
    JsonText::key(out, "request_headers", f);
    writeHeaders(out, p.requestHeaders, true);
    JsonText::key(out, "body_size", f);
    JsonText::integer(out, p.bodySize);
    text(out, "body_sha256", f, s, p.bodySha256);
    JsonText::key(out, "bytes_up", f);
    JsonText::integer(out, p.bytesUp);
    JsonText::key(out, "bytes_down", f);
    JsonText::integer(out, p.bytesDown);
    flag(out, "connection_reused", f, p.connectionReused);
    flag(out, "http2", f, p.http2);
    JsonText::key(out, "request_sent_signals", f);
    JsonText::integer(out, p.requestSentSignals);
    text(out, "idempotency_key", f, s, p.idempotencyKey, true);
    text(out, "attempt_id", f, s, p.attemptId);
    optInt(out, "status", f, p.status < 0 ? PackedAttempt::kUnset : p.status);
    text(out, "reason_phrase", f, s, p.reasonPhrase);
    JsonText::key(out, "response_headers", f);
    writeHeaders(out, p.responseHeaders, true);
    JsonText::key(out, "body_excerpt_base64", f);
    base64(out, s.strings().view(p.bodyExcerpt));
    flag(out, "body_excerpt_truncated", f, p.bodyExcerptTruncated);
    JsonText::key(out, "error", f);
    if (p.error < 0)
        out.append("null");
    else
        JsonText::string(out, errorClasses().name(ErrorClass(p.error)));
    text(out, "qt_error", f, s, p.qtError);
    JsonText::key(out, "qt_error_code", f);
    JsonText::integer(out, p.qtErrorCode);
    name(out, "abort_reason", f, abortReasons().name(AbortReason(p.abortReason)));
    text(out, "redirect_target", f, s, p.redirectTarget, true);
    const bool decided = p.verdict >= 0;
    name(out, "decision", f, decided ? verdicts().name(Verdict(p.verdict)) : p.observed ? QByteArrayView("observed") : QByteArrayView("cancelled"));
    if (decided) {
        name(out, "final", f, finalKinds().name(FinalKind(p.finalKind)));
        optInt(out, "delay_ms", f, p.delayMs);
        optInt(out, "delay_ceiling_ms", f, p.ceilingMs);
        optInt(out, "delay_low_ms", f, p.delayLowMs);
        optInt(out, "delay_high_ms", f, p.delayHighMs);
        name(out, "delay_source", f, delaySources().name(DelaySource(p.delaySource)));
        text(out, "hint_header", f, s, p.hintHeader);
        optInt(out, "server_asked_for_ms", f, p.serverAskedForMs);
        text(out, "rule", f, s, p.ruleName);
        flag(out, "throttling", f, p.throttling);
        JsonText::key(out, "quota_cost", f);
        JsonText::integer(out, p.quotaCost);
        text(out, "reason", f, s, p.reason);
    } else if (p.observed) { // a client's attempt: its wait and the server's ask are facts, not a decision
        JsonText::key(out, "client_wait_ms", f);
        if (p.clientWaitNs == PackedAttempt::kUnset)
            out.append("null");
        else
            JsonText::millisFromNs(out, p.clientWaitNs);
        optInt(out, "asked_for_ms", f, p.askedForMs);
        text(out, "asked_by", f, s, p.askedBy, true);
        JsonText::key(out, "exchange", f);
        JsonText::integer(out, p.exchange);
    } else {
        out.append(",\"delay_ms\":null,\"delay_ceiling_ms\":null,\"delay_source\":null,\"reason\":\"cancelled\"");
    }
    if (p.retryAfterValid) {
        optInt(out, "retry_after_ms", f, p.retryAfterMs);
        text(out, "retry_after_raw", f, s, p.retryAfterRaw);
        text(out, "retry_after_source", f, s, p.retryAfterSource);
    } else {
        out.append(",\"retry_after_ms\":null");
    }
    JsonText::key(out, "rate_limit_fields", f);
    writeHeaders(out, p.rateLimitHeaders, false);
    JsonText::key(out, "rate_limit", f); // derived from the fields above, the Date and when they came
    out.append(m_rateLimits.json(p));
    JsonText::key(out, "throttle_wait_ms", f);
    JsonText::integer(out, p.throttleWaitMs);
    JsonText::key(out, "budget", f);
    bool bf = true;
    out.append('{');
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
    out.append("}}");
}
