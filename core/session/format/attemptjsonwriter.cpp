// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/attemptjsonwriter.h"

#include "session/format/refusalnames.h"

#include "session/format/attemptjsonfields.h"
#include "session/format/enumspellings.h"
#include "json/jsontext.h"

#include <cmath>

namespace {

constexpr qsizetype kCacheLimit = 4096;

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
    using namespace AttemptJsonFields;
    using F = Id;
    const AttemptStore& s = m_store;
    bool f = true;
    out.append('{');
    JsonText::key(out, key(F::Run), f);
    JsonText::integer(out, p.runId);
    JsonText::key(out, key(F::Index), f);
    JsonText::integer(out, p.index);
    for (int i = 0; i < PackedAttempt::SlotCount; ++i) {
        if (i == PackedAttempt::Queued && p.at[i] == PackedAttempt::kUnset)
            continue; // only attempts that waited for a connection have one
        JsonText::key(out, key(moment(i)), f);
        if (p.at[i] == PackedAttempt::kUnset)
            out.append("null");
        else
            JsonText::millisFromNs(out, p.at[i]);
    }
    name(out, key(F::Phase), f, phases().name(AttemptPhase(p.phaseReached)));
    text(out, key(F::Method), f, s, p.method);
    JsonText::key(out, key(F::Url), f);
    writeUrl(out, p.url);
    JsonText::key(out, key(F::RequestHeaders), f);
    writeHeaders(out, p.requestHeaders, true);
    JsonText::key(out, key(F::BodySize), f);
    JsonText::integer(out, p.bodySize);
    text(out, key(F::BodySha), f, s, p.bodySha256);
    JsonText::key(out, key(F::BytesUp), f);
    JsonText::integer(out, p.bytesUp);
    JsonText::key(out, key(F::BytesDown), f);
    JsonText::integer(out, p.bytesDown);
    flag(out, key(F::Reused), f, p.connectionReused);
    flag(out, key(F::Http2), f, p.http2);
    JsonText::key(out, key(F::SentSignals), f);
    JsonText::integer(out, p.requestSentSignals);
    text(out, key(F::Key), f, s, p.idempotencyKey, true);
    text(out, key(F::AttemptId), f, s, p.attemptId);
    optInt(out, key(F::Status), f, p.status < 0 ? PackedAttempt::kUnset : p.status);
    text(out, key(F::ReasonPhrase), f, s, p.reasonPhrase);
    JsonText::key(out, key(F::ResponseHeaders), f);
    writeHeaders(out, p.responseHeaders, true);
    JsonText::key(out, key(F::Excerpt), f);
    base64(out, s.strings().view(p.bodyExcerpt));
    flag(out, key(F::ExcerptTruncated), f, p.bodyExcerptTruncated);
    JsonText::key(out, key(F::Error), f);
    if (p.error < 0)
        out.append("null");
    else
        JsonText::string(out, errorClasses().name(ErrorClass(p.error)));
    text(out, key(F::QtError), f, s, p.qtError);
    JsonText::key(out, key(F::QtErrorCode), f);
    JsonText::integer(out, p.qtErrorCode);
    name(out, key(F::Abort), f, abortReasons().name(AbortReason(p.abortReason)));
    text(out, key(F::Redirect), f, s, p.redirectTarget, true);
    const bool decided = p.verdict >= 0;
    name(out, key(F::Decision), f, decided ? verdicts().name(Verdict(p.verdict)) : p.observed ? QByteArrayView("observed") : QByteArrayView("cancelled"));
    if (decided) {
        name(out, key(F::Final), f, finalKinds().name(FinalKind(p.finalKind)));
        optInt(out, key(F::Delay), f, p.delayMs);
        optInt(out, key(F::Ceiling), f, p.ceilingMs);
        optInt(out, key(F::Low), f, p.delayLowMs);
        optInt(out, key(F::High), f, p.delayHighMs);
        name(out, key(F::Source), f, delaySources().name(DelaySource(p.delaySource)));
        text(out, key(F::Hint), f, s, p.hintHeader);
        optInt(out, key(F::Asked), f, p.serverAskedForMs);
        text(out, key(F::Rule), f, s, p.ruleName);
        flag(out, key(F::Throttling), f, p.throttling);
        JsonText::key(out, key(F::QuotaCost), f);
        JsonText::integer(out, p.quotaCost);
        text(out, key(F::Reason), f, s, p.reason);
    } else if (p.observed) { // a client's attempt: its wait and the server's ask are facts, not a decision
        JsonText::key(out, key(F::ClientWait), f);
        if (p.clientWaitNs == PackedAttempt::kUnset)
            out.append("null");
        else
            JsonText::millisFromNs(out, p.clientWaitNs);
        optInt(out, key(F::AskedFor), f, p.askedForMs);
        text(out, key(F::AskedBy), f, s, p.askedBy, true);
        JsonText::key(out, key(F::Exchange), f);
        JsonText::integer(out, p.exchange);
    } else {
        for (const F field : { F::Delay, F::Ceiling, F::Source }) {
            JsonText::key(out, key(field), f);
            out.append("null");
        }
        JsonText::key(out, key(F::Reason), f);
        out.append("\"cancelled\"");
    }
    if (p.retryAfterValid) {
        optInt(out, key(F::RetryAfter), f, p.retryAfterMs);
        text(out, key(F::RetryAfterRaw), f, s, p.retryAfterRaw);
        text(out, key(F::RetryAfterSource), f, s, p.retryAfterSource);
    } else {
        JsonText::key(out, key(F::RetryAfter), f);
        out.append("null");
    }
    JsonText::key(out, key(F::RateLimitFields), f);
    writeHeaders(out, p.rateLimitHeaders, false);
    JsonText::key(out, key(F::RateLimit), f); // derived from the fields above, the Date and when they came
    out.append(m_rateLimits.json(p));
    JsonText::key(out, key(F::ThrottleWait), f);
    JsonText::integer(out, p.throttleWaitMs);
    if (p.verdictWaitNs != PackedAttempt::kUnset) { // only on a call that waited for a half-open verdict
        JsonText::key(out, key(F::VerdictWait), f);
        JsonText::millisFromNs(out, p.verdictWaitNs);
    }
    if (p.refusedBy >= 0) { // only on a call the pipeline refused
        name(out, key(F::RefusedBy), f, refusalBy(StrategyRefusal::By(p.refusedBy)));
        name(out, key(F::RefusedState), f, breakerStates(CircuitBreaker::State(p.refusedState)));
        JsonText::key(out, key(F::RefusedRetryIn), f);
        JsonText::integer(out, p.refusedRetryInMs);
        text(out, key(F::RefusedScope), f, s, p.refusedScope);
    }
    if (p.hedgeTrigger > 0) { // only on the copies of a hedged request
        name(out, key(F::Hedge), f, hedgeTriggers(HedgeFacts::Trigger(p.hedgeTrigger)));
        flag(out, key(F::HedgeWon), f, p.hedgeWon);
    }
    JsonText::key(out, key(F::Budget), f);
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
