// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/secretheaders.h"

#include <QCryptographicHash>
#include <QLatin1StringView>

namespace {

constexpr QByteArrayView kExact[] = { "authorization", "proxy-authorization", "cookie", "set-cookie", "set-cookie2" };
constexpr QByteArrayView kParts[] = { "token", "secret", "api-key", "apikey", "password", "passwd", "credential" };

} // namespace

namespace SecretHeaders {

QList<QByteArrayView> exactNames()
{
    return QList<QByteArrayView>(std::begin(kExact), std::end(kExact));
}

QList<QByteArrayView> nameParts()
{
    return QList<QByteArrayView>(std::begin(kParts), std::end(kParts));
}

QByteArray lengthClass(qsizetype n)
{
    if (n == 0)
        return "0";
    static const qsizetype bounds[] = { 8, 16, 32, 64, 128 };
    qsizetype low = 1;
    for (qsizetype b : bounds) {
        if (n <= b)
            return QByteArray::number(low) + '-' + QByteArray::number(b);
        low = b + 1;
    }
    return "129+";
}

QByteArray redactedValue(QByteArrayView value, QByteArrayView salt)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(salt);
    h.addData(value);
    return "[redacted:" + lengthClass(value.size()) + ':' + h.result().toHex().left(8) + ']';
}

} // namespace SecretHeaders

bool isSecretHeader(QByteArrayView name)
{
    const QLatin1StringView n(name.data(), name.size());
    for (const QByteArrayView exact : kExact) {
        if (n.compare(QLatin1StringView(exact.data(), exact.size()), Qt::CaseInsensitive) == 0)
            return true;
    }
    for (const QByteArrayView part : kParts) {
        if (n.contains(QLatin1StringView(part.data(), part.size()), Qt::CaseInsensitive))
            return true;
    }
    return false;
}
