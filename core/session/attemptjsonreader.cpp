// SPDX-License-Identifier: GPL-3.0-or-later
// AttemptJson::read: one attempt object, field by field, straight into the compact store.
#include "session/attemptjson.h"

#include "session/enumnames.h"
#include "session/jsontext.h"

#include <QCoreApplication>
#include <QHash>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

enum class F {
    Run, Index, Time, Phase, Method, Url, RequestHeaders, BodySize, BodySha, BytesUp, BytesDown, Reused, Http2,
    SentSignals, Key, AttemptId, Status, ReasonPhrase, ResponseHeaders, Excerpt, ExcerptTruncated, Error, QtError,
    QtErrorCode, Abort, Redirect, Decision, Final, Delay, Ceiling, Low, High, Source, Hint, Asked, Rule, Throttling,
    QuotaCost, Reason, RetryAfter, RetryAfterRaw, RetryAfterSource, RateLimit, RateLimitFields, ThrottleWait, Budget,
};

const QHash<QByteArray, std::pair<F, int>>& fields()
{
    static const QHash<QByteArray, std::pair<F, int>> map = {
        { "run", { F::Run, 0 } }, { "index", { F::Index, 0 } },
        { "scheduled_ms", { F::Time, PackedAttempt::Scheduled } }, { "start_ms", { F::Time, PackedAttempt::Started } },
        { "connecting_ms", { F::Time, PackedAttempt::Connecting } }, { "tls_done_ms", { F::Time, PackedAttempt::TlsDone } },
        { "request_sent_ms", { F::Time, PackedAttempt::RequestSent } }, { "headers_ms", { F::Time, PackedAttempt::HeadersReceived } },
        { "first_byte_ms", { F::Time, PackedAttempt::FirstByte } }, { "end_ms", { F::Time, PackedAttempt::Finished } },
        { "phase_reached", { F::Phase, 0 } }, { "method", { F::Method, 0 } }, { "url", { F::Url, 0 } },
        { "request_headers", { F::RequestHeaders, 0 } }, { "body_size", { F::BodySize, 0 } },
        { "body_sha256", { F::BodySha, 0 } }, { "bytes_up", { F::BytesUp, 0 } }, { "bytes_down", { F::BytesDown, 0 } },
        { "connection_reused", { F::Reused, 0 } }, { "http2", { F::Http2, 0 } },
        { "request_sent_signals", { F::SentSignals, 0 } }, { "idempotency_key", { F::Key, 0 } },
        { "attempt_id", { F::AttemptId, 0 } }, { "status", { F::Status, 0 } }, { "reason_phrase", { F::ReasonPhrase, 0 } },
        { "response_headers", { F::ResponseHeaders, 0 } }, { "body_excerpt_base64", { F::Excerpt, 0 } },
        { "body_excerpt_truncated", { F::ExcerptTruncated, 0 } }, { "error", { F::Error, 0 } },
        { "qt_error", { F::QtError, 0 } }, { "qt_error_code", { F::QtErrorCode, 0 } },
        { "abort_reason", { F::Abort, 0 } }, { "redirect_target", { F::Redirect, 0 } },
        { "decision", { F::Decision, 0 } }, { "final", { F::Final, 0 } }, { "delay_ms", { F::Delay, 0 } },
        { "delay_ceiling_ms", { F::Ceiling, 0 } }, { "delay_low_ms", { F::Low, 0 } }, { "delay_high_ms", { F::High, 0 } },
        { "delay_source", { F::Source, 0 } }, { "hint_header", { F::Hint, 0 } },
        { "server_asked_for_ms", { F::Asked, 0 } }, { "rule", { F::Rule, 0 } }, { "throttling", { F::Throttling, 0 } },
        { "quota_cost", { F::QuotaCost, 0 } }, { "reason", { F::Reason, 0 } }, { "retry_after_ms", { F::RetryAfter, 0 } },
        { "retry_after_raw", { F::RetryAfterRaw, 0 } }, { "retry_after_source", { F::RetryAfterSource, 0 } },
        { "rate_limit", { F::RateLimit, 0 } }, { "rate_limit_fields", { F::RateLimitFields, 0 } },
        { "throttle_wait_ms", { F::ThrottleWait, 0 } }, { "budget", { F::Budget, 0 } },
    };
    return map;
}

bool readHeaders(JsonPullReader& in, AttemptStore& store, quint32* offset)
{
    if (in.readNullIfPresent()) {
        *offset = 0;
        return true;
    }
    if (!in.enterArray())
        return false;
    std::vector<quint32> ids;
    while (in.nextElement()) {
        if (!in.enterArray())
            return false;
        for (int part = 0; part < 2; ++part) {
            if (!in.nextElement()) {
                in.fail(tr("a header must be a [name, value] pair"));
                return false;
            }
            static thread_local QByteArray scratch;
            if (!in.readUtf8Into(scratch))
                return false;
            ids.push_back(store.strings().intern(QByteArrayView(scratch)));
        }
        if (in.nextElement()) {
            in.fail(tr("a header must be a [name, value] pair"));
            return false;
        }
    }
    if (in.hasError())
        return false;
    *offset = store.addHeaderIds(ids);
    return true;
}

// A string or null, interned (null → 0).
bool readText(JsonPullReader& in, AttemptStore& store, quint32* id)
{
    if (in.readNullIfPresent()) {
        *id = 0;
        return true;
    }
    static thread_local QByteArray scratch;
    if (!in.readUtf8Into(scratch))
        return false;
    *id = store.strings().intern(QByteArrayView(scratch));
    return true;
}

bool readOptInt(JsonPullReader& in, qint64* v)
{
    if (in.readNullIfPresent()) {
        *v = PackedAttempt::kUnset;
        return true;
    }
    const std::optional<qint64> n = in.readInteger();
    if (n)
        *v = *n;
    return n.has_value();
}

template<typename E, typename T>
bool readEnum(JsonPullReader& in, std::optional<E> (*lookup)(QByteArrayView), T* out, T nullValue, const char* what)
{
    if (in.readNullIfPresent()) {
        *out = nullValue;
        return true;
    }
    const std::optional<QByteArray> s = in.readUtf8();
    if (!s)
        return false;
    const std::optional<E> e = lookup(QByteArrayView(*s));
    if (!e) {
        in.fail(tr("unknown %1 \"%2\"").arg(QLatin1String(what), QString::fromUtf8(*s)));
        return false;
    }
    *out = T(*e);
    return true;
}

bool readBudget(JsonPullReader& in, PackedAttempt* p)
{
    if (in.readNullIfPresent())
        return true;
    if (!in.enterObject())
        return false;
    QByteArray key;
    while (in.nextKey(&key)) {
        if (key == "quota_tokens") {
            const auto v = in.readInteger();
            if (!v)
                return false;
            p->quotaTokens = qint32(*v);
        } else if (key == "throttling_tokens") {
            const auto v = in.readDouble();
            if (!v)
                return false;
            p->throttlingTokens = *v;
        } else if (key == "host_reset_in_ms") {
            if (!readOptInt(in, &p->hostResetInMs))
                return false;
        } else {
            in.fail(tr("unknown field \"budget.%1\"").arg(QString::fromUtf8(key)));
            return false;
        }
    }
    return !in.hasError();
}

} // namespace

namespace AttemptJson {

bool read(JsonPullReader& in, AttemptStore& store, PackedAttempt* p, QByteArray* field)
{
    *p = PackedAttempt();
    bool cancelled = false;
    if (!in.enterObject())
        return false;
    QByteArray key;
    while (in.nextKey(&key)) {
        *field = key;
        const auto it = fields().constFind(key);
        if (it == fields().constEnd()) {
            if (key.startsWith('_')) {
                in.skipValue();
                continue;
            }
            in.fail(tr("unknown field \"%1\"").arg(QString::fromUtf8(key)));
            return false;
        }
        bool ok = true;
        qint64 v = 0;
        switch (it->first) {
        case F::Run: ok = readOptInt(in, &v); p->runId = qint32(v); break;
        case F::Index: ok = readOptInt(in, &v); p->index = qint32(v); break;
        case F::Time:
            if (in.readNullIfPresent()) {
                p->at[it->second] = PackedAttempt::kUnset;
            } else {
                static thread_local QByteArray number;
                const bool read = in.readNumberInto(number);
                ok = read && JsonText::nsFromMillisText(QByteArrayView(number), &p->at[it->second]);
                if (read && !ok)
                    in.fail(tr("malformed time"));
            }
            break;
        case F::Phase: ok = readEnum(in, &EnumNames::phase, &p->phaseReached, qint8(0), "phase"); break;
        case F::Method: ok = readText(in, store, &p->method); break;
        case F::Url: ok = readText(in, store, &p->url); break;
        case F::RequestHeaders: ok = readHeaders(in, store, &p->requestHeaders); break;
        case F::BodySize: ok = readOptInt(in, &p->bodySize); break;
        case F::BodySha: ok = readText(in, store, &p->bodySha256); break;
        case F::BytesUp: ok = readOptInt(in, &p->bytesUp); break;
        case F::BytesDown: ok = readOptInt(in, &p->bytesDown); break;
        case F::Reused: { const auto b = in.readBool(); ok = b.has_value(); p->connectionReused = b.value_or(false); break; }
        case F::Http2: { const auto b = in.readBool(); ok = b.has_value(); p->http2 = b.value_or(false); break; }
        case F::SentSignals: ok = readOptInt(in, &v); p->requestSentSignals = qint16(v); break;
        case F::Key: ok = readText(in, store, &p->idempotencyKey); break;
        case F::AttemptId: ok = readText(in, store, &p->attemptId); break;
        case F::Status:
            ok = readOptInt(in, &v);
            p->status = v == PackedAttempt::kUnset ? -1 : qint32(v);
            if (ok && v != PackedAttempt::kUnset && (v < 100 || v > 999)) {
                in.fail(tr("status %1 is not an HTTP status").arg(v));
                ok = false;
            }
            break;
        case F::ReasonPhrase: ok = readText(in, store, &p->reasonPhrase); break;
        case F::ResponseHeaders: ok = readHeaders(in, store, &p->responseHeaders); break;
        case F::Excerpt: {
            const auto s = in.readUtf8();
            ok = s.has_value();
            if (ok)
                p->bodyExcerpt = store.strings().intern(QByteArrayView(QByteArray::fromBase64(*s)));
            break;
        }
        case F::ExcerptTruncated: { const auto b = in.readBool(); ok = b.has_value(); p->bodyExcerptTruncated = b.value_or(false); break; }
        case F::Error: ok = readEnum(in, &EnumNames::errorClass, &p->error, qint8(-1), "error class"); break;
        case F::QtError: ok = readText(in, store, &p->qtError); break;
        case F::QtErrorCode: ok = readOptInt(in, &v); p->qtErrorCode = qint32(v); break;
        case F::Abort: {
            const auto s = in.readNullIfPresent() ? std::optional<QByteArray>(QByteArray()) : in.readUtf8();
            ok = s.has_value();
            if (ok) {
                const auto a = EnumNames::abortReason(QByteArrayView(*s));
                p->abortReason = qint8(a.value_or(AbortReason::None));
                if (!a) {
                    in.fail(tr("unknown abort reason \"%1\"").arg(QString::fromUtf8(*s)));
                    ok = false;
                }
            }
            break;
        }
        case F::Redirect: ok = readText(in, store, &p->redirectTarget); break;
        case F::Decision: {
            const auto s = in.readUtf8();
            ok = s.has_value();
            if (ok && *s == "cancelled") {
                cancelled = true;
            } else if (ok) {
                const auto d = EnumNames::verdict(QByteArrayView(*s));
                ok = d.has_value();
                if (!ok)
                    in.fail(tr("unknown decision \"%1\"").arg(QString::fromUtf8(*s)));
                p->verdict = qint8(d.value_or(Verdict::Stop));
            }
            break;
        }
        case F::Final: ok = readEnum(in, &EnumNames::finalKind, &p->finalKind, qint8(0), "final kind"); break;
        case F::Delay: ok = readOptInt(in, &p->delayMs); break;
        case F::Ceiling: ok = readOptInt(in, &v); p->ceilingMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::Low: ok = readOptInt(in, &v); p->delayLowMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::High: ok = readOptInt(in, &v); p->delayHighMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::Source: ok = readEnum(in, &EnumNames::delaySource, &p->delaySource, qint8(0), "delay source"); break;
        case F::Hint: ok = readText(in, store, &p->hintHeader); break;
        case F::Asked: ok = readOptInt(in, &p->serverAskedForMs); break;
        case F::Rule: ok = readText(in, store, &p->ruleName); break;
        case F::Throttling: { const auto b = in.readBool(); ok = b.has_value(); p->throttling = b.value_or(false); break; }
        case F::QuotaCost: ok = readOptInt(in, &v); p->quotaCost = qint32(v); break;
        case F::Reason: ok = readText(in, store, &p->reason); break;
        case F::RetryAfter:
            ok = readOptInt(in, &p->retryAfterMs);
            if (p->retryAfterMs != PackedAttempt::kUnset)
                p->retryAfterValid = true;
            break;
        case F::RetryAfterRaw: ok = readText(in, store, &p->retryAfterRaw); p->retryAfterValid = p->retryAfterValid || p->retryAfterRaw; break;
        case F::RetryAfterSource: ok = readText(in, store, &p->retryAfterSource); break;
        case F::RateLimit: // early attempt logs: the raw fields; later: the parsed quotas (derived, not stored)
            if (in.peek() == JsonPullReader::Kind::Array)
                ok = readHeaders(in, store, &p->rateLimitHeaders);
            else
                in.skipValue();
            break;
        case F::RateLimitFields: ok = readHeaders(in, store, &p->rateLimitHeaders); break;
        case F::ThrottleWait: ok = readOptInt(in, &v); p->throttleWaitMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::Budget: ok = readBudget(in, p); break;
        }
        if (!ok || in.hasError()) {
            if (!in.hasError())
                in.fail(tr("invalid value"));
            return false;
        }
    }
    if (in.hasError())
        return false;
    field->clear();
    if (cancelled) {
        p->verdict = -1;
        p->delayMs = PackedAttempt::kUnset;
        p->reason = 0;
    } else if (p->verdict < 0) {
        in.fail(tr("the attempt has no \"decision\""));
        *field = "decision";
        return false;
    }
    if (p->index < 1) {
        in.fail(tr("\"index\" must be 1 or more"));
        *field = "index";
        return false;
    }
    return true;
}

} // namespace AttemptJson
