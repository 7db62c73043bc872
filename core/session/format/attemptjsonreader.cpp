// SPDX-License-Identifier: GPL-3.0-or-later
// AttemptJson::read: one attempt object, field by field, straight into the compact store.
//
// A session of a million attempts has some fifty million fields, so a field costs no allocation: keys and
// texts are read as views of the read buffer, a key is matched by first trying the field that follows the
// previous one in the order the writer uses (then by length and bytes), and enumerations are compared as
// bytes. Attempt ids are stored without interning (each is new), header values are interned while they
// repeat (AttemptStore::headerValueId).
#include "session/format/attemptjson.h"

#include "session/format/attemptjsonfields.h"
#include "session/format/refusalnames.h"

#include "session/format/enumnames.h"
#include "session/format/enumspellings.h"
#include "json/jsontext.h"

#include <QCoreApplication>

#include <array>
#include <cstring>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

using F = AttemptJsonFields::Id;
using AttemptJsonFields::kKeys;

// Field names are short: a loop beats a call to memcmp.
bool same(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i] != b[i])
            return false;
    }
    return true;
}

// The index of KEY in kKeys (its Id), or -1. EXPECTED (the field after the previous one) is tried first.
int findField(QByteArrayView key, size_t expected)
{
    if (expected < kKeys.size() && same(kKeys[expected], key))
        return int(expected);
    for (size_t i = 0; i < kKeys.size(); ++i) {
        if (same(kKeys[i], key))
            return int(i);
    }
    return -1;
}

bool readHeaders(JsonPullReader& in, AttemptStore& store, quint32* offset)
{
    if (in.readNullIfPresent()) {
        *offset = 0;
        return true;
    }
    if (!in.enterArray())
        return false;
    static thread_local std::vector<quint32> ids;
    ids.clear();
    while (in.nextElement()) {
        if (!in.enterArray())
            return false;
        quint32 nameId = 0;
        for (int part = 0; part < 2; ++part) {
            if (!in.nextElement()) {
                in.fail(tr("a header must be a [name, value] pair"));
                return false;
            }
            QByteArrayView text;
            if (!in.readUtf8View(&text))
                return false;
            if (part == 0)
                nameId = store.strings().intern(text);
            ids.push_back(part == 0 ? nameId : store.headerValueId(nameId, text));
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

// A string or null, interned (null → 0). UNIQUE: stored without interning (each attempt's own id).
bool readText(JsonPullReader& in, AttemptStore& store, quint32* id)
{
    if (in.readNullIfPresent()) {
        *id = 0;
        return true;
    }
    QByteArrayView text;
    if (!in.readUtf8View(&text))
        return false;
    *id = store.strings().intern(text);
    return true;
}

// The attempt id, which the attempt-id header usually sent too (request_headers come before it): then the
// header value's copy is the id's, instead of a second copy of a text unique to the attempt.
bool readAttemptId(JsonPullReader& in, AttemptStore& store, quint32 requestHeaders, quint32* id)
{
    if (in.readNullIfPresent()) {
        *id = 0;
        return true;
    }
    QByteArrayView text;
    if (!in.readUtf8View(&text))
        return false;
    for (int i = store.headerCount(requestHeaders) - 1; i >= 0 && !text.isEmpty(); --i) {
        if (store.headerValue(requestHeaders, i) == text) {
            *id = store.headerValueIdAt(requestHeaders, i);
            return true;
        }
    }
    *id = store.strings().add(text);
    return true;
}

bool readOptInt(JsonPullReader& in, qint64* v)
{
    if (in.readNullIfPresent()) {
        *v = PackedAttempt::kUnset;
        return true;
    }
    return in.readInteger(v);
}

bool readFlag(JsonPullReader& in, bool* out)
{
    const std::optional<bool> b = in.readBool();
    *out = b.value_or(false);
    return b.has_value();
}

// SPELLINGS answers the names as written; LOOKUP (the general reader) any other accepted spelling.
template<typename E, typename T>
bool readEnum(JsonPullReader& in, const EnumSpellings<E>& spellings, std::optional<E> (*lookup)(QByteArrayView), T* out,
    T nullValue, const char* what)
{
    if (in.readNullIfPresent()) {
        *out = nullValue;
        return true;
    }
    QByteArrayView s;
    if (!in.readUtf8View(&s))
        return false;
    std::optional<E> e = spellings.find(s);
    if (!e)
        e = lookup(s);
    if (!e) {
        in.fail(tr("unknown %1 \"%2\"").arg(QLatin1String(what), QString::fromUtf8(s)));
        return false;
    }
    *out = T(*e);
    return true;
}

// Strict base64 into OUT; false when TEXT is not plain padded base64 (the caller then asks Qt, which is lenient).
bool decodeBase64(QByteArrayView text, QByteArray& out)
{
    static const std::array<qint8, 256> values = [] {
        std::array<qint8, 256> v {};
        v.fill(-1);
        const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            v[uchar(alphabet[i])] = qint8(i);
        return v;
    }();
    qsizetype n = text.size();
    if (n % 4)
        return false;
    int padding = 0;
    while (n > 0 && padding < 2 && text[n - 1] == '=') {
        --n;
        ++padding;
    }
    out.resize(text.size() / 4 * 3 - padding);
    char* dst = out.data();
    quint32 bits = 0;
    int count = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const qint8 v = values[uchar(text[i])];
        if (v < 0)
            return false;
        bits = (bits << 6) | quint32(v);
        if (++count == 4) {
            *dst++ = char(bits >> 16);
            *dst++ = char(bits >> 8);
            *dst++ = char(bits);
            bits = 0;
            count = 0;
        }
    }
    if (count == 3) {
        *dst++ = char(bits >> 10);
        *dst++ = char(bits >> 2);
    } else if (count == 2) {
        *dst++ = char(bits >> 4);
    }
    return dst == out.constData() + out.size();
}

bool readExcerpt(JsonPullReader& in, AttemptStore& store, quint32* id)
{
    QByteArrayView text;
    if (!in.readUtf8View(&text))
        return false;
    static thread_local QByteArray decoded;
    if (!decodeBase64(text, decoded))
        decoded = QByteArray::fromBase64(text.toByteArray());
    *id = store.strings().intern(QByteArrayView(decoded));
    return true;
}

bool readBudget(JsonPullReader& in, PackedAttempt* p)
{
    if (in.readNullIfPresent())
        return true;
    if (!in.enterObject())
        return false;
    QByteArrayView key;
    while (in.nextKeyView(&key)) {
        if (key == "quota_tokens") {
            qint64 v = 0;
            if (!in.readInteger(&v))
                return false;
            p->quotaTokens = qint32(v);
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
    using namespace EnumSpelling;
    *p = PackedAttempt();
    bool cancelled = false;
    if (!in.enterObject())
        return false;
    // The field being read, for the caller's message: its Id, or OTHER for a '_' field.
    int current = -1;
    QByteArray other;
    const auto fieldName = [&]() {
        return current >= 0 ? kKeys[size_t(current)].toByteArray() : other;
    };
    QByteArrayView key;
    for (;;) {
        // The field the writer puts next is matched in place; any other is read and looked up.
        const size_t expected = size_t(current + 1);
        int found = -1;
        if (expected < kKeys.size() && in.nextKeyIs(kKeys[expected])) {
            found = int(expected);
        } else {
            if (!in.nextKeyView(&key))
                break;
            found = findField(key, expected);
        }
        if (found < 0) {
            if (key.startsWith('_')) {
                other = key.toByteArray();
                current = -1;
                in.skipValue();
                continue;
            }
            *field = key.toByteArray();
            in.fail(tr("unknown field \"%1\"").arg(QString::fromUtf8(key)));
            return false;
        }
        current = found;
        const F id = F(found);
        bool ok = true;
        qint64 v = 0;
        switch (id) {
        case F::Run: ok = readOptInt(in, &v); p->runId = qint32(v); break;
        case F::Index: ok = readOptInt(in, &v); p->index = qint32(v); break;
        case F::Scheduled:
        case F::Queued:
        case F::Started:
        case F::Connecting:
        case F::TlsDone:
        case F::RequestSent:
        case F::HeadersReceived:
        case F::FirstByte:
        case F::Finished:
            if (in.readNullIfPresent()) {
                p->at[AttemptJsonFields::slotOf(id)] = PackedAttempt::kUnset;
            } else {
                QByteArrayView number;
                const bool read = in.readNumberView(&number);
                ok = read && JsonText::nsFromMillisText(number, &p->at[AttemptJsonFields::slotOf(id)]);
                if (read && !ok)
                    in.fail(tr("malformed time"));
            }
            break;
        case F::Phase: ok = readEnum(in, phases(), &EnumNames::phase, &p->phaseReached, qint8(0), "phase"); break;
        case F::Method: ok = readText(in, store, &p->method); break;
        case F::Url: ok = readText(in, store, &p->url); break;
        case F::RequestHeaders: ok = readHeaders(in, store, &p->requestHeaders); break;
        case F::BodySize: ok = readOptInt(in, &p->bodySize); break;
        case F::BodySha: ok = readText(in, store, &p->bodySha256); break;
        case F::BytesUp: ok = readOptInt(in, &p->bytesUp); break;
        case F::BytesDown: ok = readOptInt(in, &p->bytesDown); break;
        case F::Reused: ok = readFlag(in, &p->connectionReused); break;
        case F::Http2: ok = readFlag(in, &p->http2); break;
        case F::SentSignals: ok = readOptInt(in, &v); p->requestSentSignals = qint16(v); break;
        case F::Key: ok = readText(in, store, &p->idempotencyKey); break;
        case F::AttemptId: ok = readAttemptId(in, store, p->requestHeaders, &p->attemptId); break;
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
        case F::Excerpt: ok = readExcerpt(in, store, &p->bodyExcerpt); break;
        case F::ExcerptTruncated: ok = readFlag(in, &p->bodyExcerptTruncated); break;
        case F::Error: ok = readEnum(in, errorClasses(), &EnumNames::errorClass, &p->error, qint8(-1), "error class"); break;
        case F::QtError: ok = readText(in, store, &p->qtError); break;
        case F::QtErrorCode: ok = readOptInt(in, &v); p->qtErrorCode = qint32(v); break;
        case F::Abort:
            // null reads as "" (none); an unknown reason is refused
            if (in.readNullIfPresent())
                p->abortReason = qint8(AbortReason::None);
            else
                ok = readEnum(in, abortReasons(), &EnumNames::abortReason, &p->abortReason, qint8(AbortReason::None), "abort reason");
            break;
        case F::Redirect: ok = readText(in, store, &p->redirectTarget); break;
        case F::Decision: {
            QByteArrayView s;
            ok = in.readUtf8View(&s);
            if (ok && s == "cancelled") {
                cancelled = true;
            } else if (ok && s == "observed") {
                p->observed = true;
            } else if (ok) {
                std::optional<Verdict> d = verdicts().find(s);
                if (!d)
                    d = EnumNames::verdict(s);
                ok = d.has_value();
                if (!ok)
                    in.fail(tr("unknown decision \"%1\"").arg(QString::fromUtf8(s)));
                p->verdict = qint8(d.value_or(Verdict::Stop));
            }
            break;
        }
        case F::Final: ok = readEnum(in, finalKinds(), &EnumNames::finalKind, &p->finalKind, qint8(0), "final kind"); break;
        case F::Delay: ok = readOptInt(in, &p->delayMs); break;
        case F::Ceiling: ok = readOptInt(in, &v); p->ceilingMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::Low: ok = readOptInt(in, &v); p->delayLowMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::High: ok = readOptInt(in, &v); p->delayHighMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::Source: ok = readEnum(in, delaySources(), &EnumNames::delaySource, &p->delaySource, qint8(0), "delay source"); break;
        case F::Hint: ok = readText(in, store, &p->hintHeader); break;
        case F::Asked: ok = readOptInt(in, &p->serverAskedForMs); break;
        case F::Rule: ok = readText(in, store, &p->ruleName); break;
        case F::Throttling: ok = readFlag(in, &p->throttling); break;
        case F::QuotaCost: ok = readOptInt(in, &v); p->quotaCost = qint32(v); break;
        case F::Reason: ok = readText(in, store, &p->reason); break;
        case F::ClientWait:
            if (in.readNullIfPresent()) {
                p->clientWaitNs = PackedAttempt::kUnset;
            } else {
                QByteArrayView number;
                const bool read = in.readNumberView(&number);
                ok = read && JsonText::nsFromMillisText(number, &p->clientWaitNs);
                if (read && !ok)
                    in.fail(tr("malformed time"));
            }
            break;
        case F::AskedFor: ok = readOptInt(in, &p->askedForMs); break;
        case F::AskedBy: ok = readText(in, store, &p->askedBy); break;
        case F::Exchange: ok = readOptInt(in, &v); p->exchange = v == PackedAttempt::kUnset ? 0 : v; break;
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
                in.skipStructure(); // written again from the fields when the session is
            break;
        case F::RateLimitFields: ok = readHeaders(in, store, &p->rateLimitHeaders); break;
        case F::ThrottleWait: ok = readOptInt(in, &v); p->throttleWaitMs = v == PackedAttempt::kUnset ? 0 : v; break;
        case F::VerdictWait:
            if (in.readNullIfPresent()) {
                p->verdictWaitNs = PackedAttempt::kUnset;
            } else {
                QByteArrayView number;
                const bool read = in.readNumberView(&number);
                ok = read && JsonText::nsFromMillisText(number, &p->verdictWaitNs);
                if (read && !ok)
                    in.fail(tr("malformed time"));
            }
            break;
        case F::RefusedBy:
        case F::RefusedState: {
            QByteArrayView name;
            ok = in.readUtf8View(&name);
            if (!ok)
                break;
            if (id == F::RefusedBy) {
                const std::optional<StrategyRefusal::By> by = refusalByFromName(name);
                if (by)
                    p->refusedBy = qint8(*by);
                else
                    in.fail(tr("unknown strategy \"%1\" (circuit_breaker, rate_limiter)").arg(QString::fromUtf8(name)));
                ok = by.has_value();
            } else {
                const std::optional<CircuitBreaker::State> state = breakerStateFromName(name);
                if (state)
                    p->refusedState = qint8(*state);
                else
                    in.fail(tr("unknown circuit state \"%1\" (closed, open, half-open)").arg(QString::fromUtf8(name)));
                ok = state.has_value();
            }
            break;
        }
        case F::RefusedRetryIn:
            ok = readOptInt(in, &v);
            p->refusedRetryInMs = v == PackedAttempt::kUnset ? 0 : v;
            if (ok && p->refusedRetryInMs < 0) {
                in.fail(tr("must not be negative"));
                ok = false;
            }
            break;
        case F::RefusedScope: ok = readText(in, store, &p->refusedScope); break;
        case F::Hedge: {
            QByteArrayView name;
            ok = in.readUtf8View(&name);
            if (!ok)
                break;
            const std::optional<HedgeFacts::Trigger> trigger = hedgeTriggerFromName(name);
            if (trigger)
                p->hedgeTrigger = qint8(*trigger);
            else
                in.fail(tr("unknown hedge trigger \"%1\" (first, delay, failure, parallel)").arg(QString::fromUtf8(name)));
            ok = trigger.has_value();
            break;
        }
        case F::HedgeWon: ok = readFlag(in, &p->hedgeWon); break;
        case F::Budget: ok = readBudget(in, p); break;
        case F::Count: break;
        }
        if (!ok || in.hasError()) {
            if (!in.hasError())
                in.fail(tr("invalid value"));
            *field = fieldName();
            return false;
        }
    }
    if (in.hasError()) {
        if (current >= 0 || !other.isEmpty())
            *field = fieldName();
        return false;
    }
    field->clear();
    if (cancelled || p->observed) {
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
