// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/export/redaction.h"

#include "http/secretheaders.h"

#include <QRandomGenerator>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

QByteArray RedactionSettings::newSalt()
{
    QByteArray raw(8, '\0');
    for (char& c : raw)
        c = char(QRandomGenerator::global()->bounded(256));
    return raw.toHex();
}

Redactor::Redactor(RedactionSettings settings)
    : m_settings(std::move(settings))
{
}

Redactor Redactor::none()
{
    RedactionSettings s;
    s.enabled = false;
    return Redactor(s);
}

bool Redactor::isSecretHeader(QByteArrayView name) const
{
    if (!m_settings.enabled)
        return false;
    if (::isSecretHeader(name))
        return true;
    const QByteArray lower = name.toByteArray().toLower();
    for (const QByteArray& extra : m_settings.headers) {
        if (extra.toLower() == lower)
            return true;
    }
    return false;
}

QString Redactor::lengthClass(qsizetype n)
{
    return QString::fromLatin1(SecretHeaders::lengthClass(n));
}

QByteArray Redactor::value(QByteArrayView v) const
{
    if (isRedacted(v))
        return v.toByteArray();
    return SecretHeaders::redactedValue(v, m_settings.salt);
}

QByteArray Redactor::header(QByteArrayView name, QByteArrayView v) const
{
    return isSecretHeader(name) ? value(v) : v.toByteArray();
}

QString Redactor::url(const QString& text) const
{
    if (!m_settings.enabled || m_settings.queryParameters.isEmpty() || !text.contains(u'?'))
        return text;
    QUrl u(text);
    QUrlQuery query(u);
    bool changed = false;
    QList<QPair<QString, QString>> items = query.queryItems(QUrl::FullyEncoded);
    for (auto& [key, val] : items) {
        if (m_settings.queryParameters.contains(key)) {
            val = QString::fromLatin1(QUrl::toPercentEncoding(QString::fromLatin1(value(val.toUtf8()))));
            changed = true;
        }
    }
    if (!changed)
        return text;
    query.setQueryItems(items);
    u.setQuery(query);
    return u.toString(QUrl::FullyEncoded);
}
