// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/attemptevidence.h"

#include "http/idempotencykey.h"

using namespace Qt::StringLiterals;

namespace {

// A decimal count of at most 6 digits (no client makes a million attempts), or nullopt.
std::optional<int> smallCount(QByteArrayView text)
{
    text = text.trimmed();
    if (text.isEmpty() || text.size() > 6)
        return std::nullopt;
    int n = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

// "attempt=2; max=3" (amz-sdk-request): the parameters by name, order and spacing free.
std::optional<int> parameter(QByteArrayView text, QByteArrayView name)
{
    for (const QByteArray& field : text.toByteArray().split(';')) {
        const QByteArrayView part = QByteArrayView(field).trimmed();
        const qsizetype eq = part.indexOf('=');
        if (eq > 0 && part.first(eq).trimmed().compare(name, Qt::CaseInsensitive) == 0)
            return smallCount(part.sliced(eq + 1));
    }
    return std::nullopt;
}

using Reader = std::optional<AttemptEvidence> (*)(const HttpHeaderList& headers);

AttemptEvidence evidence(const char* header, const QByteArray& value)
{
    AttemptEvidence e;
    e.header = QByteArray(header);
    e.value = value;
    return e;
}

std::optional<AttemptEvidence> retrylab(const HttpHeaderList& headers)
{
    const QByteArray value = combinedHeader(headers, "x-retrylab-attempt");
    const qsizetype at = value.indexOf(";attempt=");
    if (at <= 0)
        return std::nullopt; // an older engine's bare UUID, or a hand-made id: unique, so it groups nothing
    AttemptEvidence e = evidence("x-retrylab-attempt", value);
    e.runId = value.first(at);
    e.attempt = smallCount(QByteArrayView(value).sliced(at + 9));
    if (!e.attempt || *e.attempt < 1)
        return std::nullopt;
    return e;
}

std::optional<AttemptEvidence> aws(const HttpHeaderList& headers)
{
    const QByteArray id = combinedHeader(headers, "amz-sdk-invocation-id").trimmed();
    if (id.isEmpty())
        return std::nullopt;
    AttemptEvidence e = evidence("amz-sdk-invocation-id", id);
    e.runId = id;
    const QByteArray request = combinedHeader(headers, "amz-sdk-request");
    e.attempt = parameter(request, "attempt");
    e.maxAttempts = parameter(request, "max");
    if (e.attempt && *e.attempt < 1)
        e.attempt.reset();
    return e;
}

// A count header: ZERO_BASED when the first attempt says 0 (a retry count) rather than 1 (an attempt count).
std::optional<AttemptEvidence> count(const HttpHeaderList& headers, const char* name, bool zeroBased, bool absentOnFirst)
{
    const QByteArray value = combinedHeader(headers, QByteArrayView(name, qstrlen(name)));
    if (value.isNull())
        return std::nullopt;
    const std::optional<int> n = smallCount(value);
    if (!n || (!zeroBased && *n < 1))
        return std::nullopt;
    AttemptEvidence e = evidence(name, value);
    e.attempt = *n + (zeroBased ? 1 : 0);
    e.absentOnFirst = absentOnFirst;
    return e;
}

std::optional<AttemptEvidence> stainless(const HttpHeaderList& h) { return count(h, "x-stainless-retry-count", true, false); }
std::optional<AttemptEvidence> grpc(const HttpHeaderList& h) { return count(h, "grpc-previous-rpc-attempts", true, true); }
std::optional<AttemptEvidence> envoy(const HttpHeaderList& h) { return count(h, "x-envoy-attempt-count", false, false); }
std::optional<AttemptEvidence> graph(const HttpHeaderList& h) { return count(h, "retry-attempt", true, true); }

std::optional<AttemptEvidence> azure(const HttpHeaderList& headers)
{
    const QByteArray id = combinedHeader(headers, "x-ms-client-request-id").trimmed();
    if (id.isEmpty())
        return std::nullopt;
    AttemptEvidence e = evidence("x-ms-client-request-id", id);
    e.runId = id;
    return e;
}

std::optional<AttemptEvidence> google(const HttpHeaderList& headers)
{
    const QByteArray value = combinedHeader(headers, "x-goog-api-client");
    for (const QByteArray& token : value.simplified().split(' ')) {
        if (token.startsWith("gccl-invocation-id/") && token.size() > 19) {
            AttemptEvidence e = evidence("x-goog-api-client", value);
            e.runId = token.sliced(19);
            return e;
        }
    }
    return std::nullopt;
}

} // namespace

QString AttemptEvidence::describe() const
{
    QString text = QString::fromLatin1(header);
    if (!runId.isEmpty())
        text += u' ' + QString::fromUtf8(runId.left(36));
    else
        text += u": "_s + QString::fromUtf8(value.left(40));
    if (attempt && !runId.isEmpty())
        text += u", attempt %1"_s.arg(*attempt);
    if (maxAttempts)
        text += u" of %1"_s.arg(*maxAttempts);
    return text;
}

std::optional<AttemptEvidence> readAttemptEvidence(const HttpHeaderList& headers)
{
    static constexpr Reader readers[] = { retrylab, aws, stainless, grpc, envoy, graph, azure, google };
    for (Reader read : readers) {
        if (std::optional<AttemptEvidence> e = read(headers))
            return e;
    }
    return std::nullopt;
}

QByteArray idempotencyKeyOf(const HttpHeaderList& headers)
{
    const std::optional<IdempotencyKey> key = parseIdempotencyKeyHeader(headers);
    if (!key || key->key.isEmpty())
        return {};
    return key->key.toUtf8();
}
