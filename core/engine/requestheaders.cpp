// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/requestheaders.h"

#include "http/idempotencykey.h"

#include <QCryptographicHash>
#include <QUuid>

namespace {

void put(QList<SentHeader>& list, const QByteArray& name, const QByteArray& value)
{
    for (SentHeader& h : list) {
        if (h.name.compare(name, Qt::CaseInsensitive) == 0) {
            h.value = value;
            return;
        }
    }
    list.append({ name, value, isSecretHeader(name) });
}

} // namespace

bool isSecretHeader(QByteArrayView name)
{
    const QByteArray n = name.toByteArray().toLower();
    return n == "authorization" || n == "proxy-authorization" || n == "cookie" || n == "set-cookie"
        || n == "x-api-key" || n.contains("token") || n.contains("secret") || n.contains("api-key");
}

QList<SentHeader> buildRequestHeaders(const RequestSpec& spec, const RetryPolicy& policy, const QUrl& url,
    const QString& idempotencyKey, const QString& attemptId, const QByteArray& cookie)
{
    QList<SentHeader> list;
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (url.port() != -1)
        host += ':' + QByteArray::number(url.port());
    put(list, "Host", host);
    put(list, "User-Agent", QByteArrayLiteral("retrylab/" RETRYLAB_VERSION));
    put(list, "Accept", "*/*");
    put(list, "Accept-Encoding", "identity");
    put(list, "Accept-Language", "en");
    put(list, "Connection", "keep-alive");
    for (const auto& [name, value] : spec.headers)
        put(list, name, value);
    if (!spec.body.isEmpty() && !hasHeader(spec.headers, "content-type"))
        put(list, "Content-Type", "application/octet-stream");
    if (!idempotencyKey.isEmpty())
        put(list, policy.idempotency.header.toLatin1(), idempotencyKeyField(idempotencyKey, policy.idempotency.format));
    if (!attemptId.isEmpty())
        put(list, spec.attemptIdHeader, attemptId.toLatin1());
    if (!cookie.isEmpty())
        put(list, "Cookie", cookie);
    put(list, "Content-Length", QByteArray::number(spec.body.size()));
    return list;
}

QString chooseIdempotencyKey(const RequestSpec& spec, const RetryPolicy& policy)
{
    switch (spec.keyMode) {
    case IdempotencyKeyMode::None:
        return {};
    case IdempotencyKeyMode::Value:
        return spec.idempotencyKey;
    case IdempotencyKeyMode::Auto:
        break;
    }
    if (!policy.idempotency.autoAdd || !policy.idempotency.methods.contains(spec.method, Qt::CaseInsensitive))
        return {};
    if (hasHeader(spec.headers, policy.idempotency.header.toLatin1()))
        return {}; // the user's own key is sent as given
    return newIdempotencyKey(policy.idempotency.prefix);
}

QByteArray idempotencyKeyField(const QString& key, KeyFormat format)
{
    const QByteArray field = formatIdempotencyKey(key,
        format == KeyFormat::Quoted ? IdempotencyKeyFormat::Quoted : IdempotencyKeyFormat::Bare);
    // A key the format cannot carry (a user's key with a space, sent bare) goes out as given.
    return field.isEmpty() ? key.toUtf8() : field;
}

QString newAttemptId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QByteArray bodyHash(const QByteArray& body)
{
    if (body.isEmpty()) // SHA-256 of nothing: no need to hash it for every GET
        return QByteArrayLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    return QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex();
}

HttpHeaderList rateLimitFieldsOf(const HttpHeaderList& headers)
{
    HttpHeaderList out;
    for (const auto& [name, value] : headers) {
        const QByteArray n = name.toLower();
        if (n.startsWith("ratelimit") || n.startsWith("x-ratelimit") || n.startsWith("x-rate-limit")
            || n == "retry-after" || n == "retry-after-ms")
            out.append({ name, value });
    }
    return out;
}
