// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/requestheaders.h"

#include "http/idempotencykey.h"

#include <QCryptographicHash>
#include <QLocale>
#include <QUuid>

namespace {

// Replaces a header of the same name (case-insensitive) or appends one.
void put(QList<SentHeader>& list, const QByteArray& name, const QByteArray& value)
{
    for (SentHeader& h : list) {
        if (h.name.compare(name, Qt::CaseInsensitive) == 0) {
            h.value = value;
            h.secret = isSecretHeader(name);
            return;
        }
    }
    list.append({ name, value, isSecretHeader(name) });
}

QLatin1String latin1(QByteArrayView text)
{
    return QLatin1String(text.data(), text.size());
}

} // namespace

QList<SentHeader> defaultRequestHeaders(const QUrl& url)
{
    // Distinct and not secret: built without a search (static names and values).
    return { { QByteArrayLiteral("Host"), qtOwnHeaderValue("host", url), false },
        { QByteArrayLiteral("User-Agent"), QByteArrayLiteral("retrylab/" RETRYLAB_VERSION), false },
        { QByteArrayLiteral("Accept"), QByteArrayLiteral("*/*"), false },
        { QByteArrayLiteral("Accept-Encoding"), QByteArrayLiteral("identity"), false },
        { QByteArrayLiteral("Accept-Language"), QByteArrayLiteral("en"), false },
        { QByteArrayLiteral("Connection"), QByteArrayLiteral("keep-alive"), false } };
}

bool isQtAddedHeader(QByteArrayView name)
{
    const QLatin1String n = latin1(name);
    for (const char* added : { "connection", "accept-encoding", "accept-language", "user-agent", "host" }) {
        if (n.compare(QLatin1String(added), Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QByteArray qtOwnHeaderValue(QByteArrayView name, const QUrl& url)
{
    const QLatin1String n = latin1(name);
    const auto is = [&n](const char* other) { return n.compare(QLatin1String(other), Qt::CaseInsensitive) == 0; };
    if (is("connection"))
        return QByteArrayLiteral("Keep-Alive");
    if (is("accept-encoding"))
        return QByteArrayLiteral("zstd, br, gzip, deflate"); // QDecompressHelper::acceptedEncoding(), Debian 12
    if (is("user-agent"))
        return QByteArrayLiteral("Mozilla/5.0");
    if (is("accept-language")) {
        const QString locale = QLocale::system().name().replace(u'_', u'-');
        if (locale == QLatin1String("C"))
            return QByteArrayLiteral("en,*");
        if (locale.startsWith(QLatin1String("en-")))
            return locale.toLatin1() + ",*";
        return locale.toLatin1() + ",en,*";
    }
    if (is("host")) {
        QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
        if (host.contains(':'))
            host = '[' + host + ']';
        if (url.port() != -1)
            host += ':' + QByteArray::number(url.port());
        return host;
    }
    return {};
}

QList<SentHeader> buildRequestHeaders(const RequestSpec& spec, const RetryPolicy& policy, const QUrl& url,
    const QString& idempotencyKey, const QString& attemptId, const QByteArray& cookie)
{
    QList<SentHeader> list = defaultRequestHeaders(url);
    list.reserve(list.size() + spec.headers.size() + 5);
    if (!spec.omittedDefaults.isEmpty()) {
        // Turned off: not sent, except what Qt adds anyway — then Qt's value is what goes out.
        for (qsizetype i = list.size() - 1; i >= 0; --i) {
            SentHeader& h = list[i];
            if (!spec.omittedDefaults.contains(h.name.toLower()))
                continue;
            if (isQtAddedHeader(h.name))
                h.value = qtOwnHeaderValue(h.name, url);
            else
                list.removeAt(i);
        }
    }
    for (const auto& [name, value] : spec.headers) // an empty value of a header Qt adds is replaced by Qt's
        put(list, name, value.isEmpty() && isQtAddedHeader(name) ? qtOwnHeaderValue(name, url) : value);
    if (!spec.body.isEmpty() && !hasHeader(spec.headers, "content-type"))
        put(list, QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/octet-stream"));
    if (!idempotencyKey.isEmpty())
        put(list, policy.idempotency.header.toLatin1(), idempotencyKeyField(idempotencyKey, policy.idempotency.format));
    if (!attemptId.isEmpty())
        put(list, spec.attemptIdHeader, attemptId.toLatin1());
    if (!cookie.isEmpty())
        put(list, QByteArrayLiteral("Cookie"), cookie);
    put(list, QByteArrayLiteral("Content-Length"), QByteArray::number(spec.body.size()));
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

QString attemptIdFor(const QString& run, int index)
{
    return run + QLatin1String(";attempt=") + QString::number(index);
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
        const QLatin1String n = latin1(name);
        const auto starts = [&n](const char* prefix) { return n.startsWith(QLatin1String(prefix), Qt::CaseInsensitive); };
        const auto is = [&n](const char* other) { return n.compare(QLatin1String(other), Qt::CaseInsensitive) == 0; };
        if (starts("ratelimit") || starts("x-ratelimit") || starts("x-rate-limit") || is("retry-after")
            || is("retry-after-ms"))
            out.append({ name, value });
    }
    return out;
}
