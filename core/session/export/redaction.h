// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Redaction of secrets in saved sessions and every export. On by default; a session remembers whether
// its owner turned it off. A redacted value reads "[redacted:LENGTH-CLASS:HASH]", e.g.
// "[redacted:33-64:9f2c1ab0]": the length class and a short salted SHA-256, so two attempts that sent the
// same secret can still be told apart from two that did not.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

struct RedactionSettings
{
    bool enabled = true;
    QList<QByteArray> headers; // added by the user (case-insensitive), besides SecretHeaders' list
    QStringList queryParameters; // URL query parameters to redact (case-sensitive, as URLs are)
    QByteArray salt; // hex; per session, so hashes compare within a session only
    friend bool operator==(const RedactionSettings&, const RedactionSettings&) = default;

    static QByteArray newSalt();
};

class Redactor
{
public:
    explicit Redactor(RedactionSettings settings);
    static Redactor none(); // redacts nothing

    bool enabled() const { return m_settings.enabled; }
    // The one list of secret headers (http/secretheaders.h) and the user's additions; false when disabled.
    bool isSecretHeader(QByteArrayView name) const;
    QByteArray header(QByteArrayView name, QByteArrayView value) const; // VALUE, or its redacted form
    QByteArray value(QByteArrayView value) const; // the redacted form, always
    QString url(const QString& url) const; // query parameters on the list redacted
    static bool isRedacted(QByteArrayView value) { return value.startsWith("[redacted"); }
    static QString lengthClass(qsizetype length);

private:
    RedactionSettings m_settings;
};
