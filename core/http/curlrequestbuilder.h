// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CurlRequestParser's state while it reads a command: what each option asked for, collected in curl's
// terms, then put together by finish() the way curl 7.88 builds its request (data joined with '&',
// -G moving it into the query, -H replacing curl's own headers, -d implying POST and a form Content-Type).

#include "http/curloptions.h"
#include "http/curlrequest.h"

class CurlRequestBuilder
{
public:
    explicit CurlRequestBuilder(QString baseDir);

    bool ok() const { return m_out.error.isEmpty(); }
    CurlRequest fail(const QString& error); // the first error wins
    // One option as WRITTEN ("-d", "--retry") with its VALUE; OFF for --no-NAME; REFUSAL says why a
    // Refused option cannot be taken.
    void apply(const CurlOption& option, const QString& written, const QString& value, bool off, const QString& refusal);
    void addUrl(const QString& url);
    CurlRequest finish();

private:
    struct DataPart
    {
        QByteArray bytes;
        bool json = false; // --json parts join without '&'
    };

    void note(const QString& written, bool applied, const QString& text);
    void applyRequest(const CurlOption& option, const QString& written, const QString& value, bool off);
    void applyRetry(const CurlOption& option, const QString& written, const QString& value);
    void addData(const CurlOption& option, const QString& written, const QString& value);
    void addHeaderLine(const QString& written, const QString& line);
    std::optional<std::chrono::milliseconds> readSeconds(const QString& written, const QString& value);
    QByteArray readFile(const QString& written, const QString& path);
    bool hasCustom(QByteArrayView name) const; // -H NAME given, or removed with -H 'NAME:'
    void addImplied(const QByteArray& name, const QByteArray& value, const QString& because);
    void finishUrl();
    void finishBody();
    void finishHeaders();

    CurlRequest m_out;
    QString m_baseDir;
    QStringList m_urls;
    QString m_method; // -X
    bool m_head = false;
    bool m_get = false;
    bool m_compressed = false;
    bool m_globoff = false;
    std::optional<QByteArray> m_upload; // -T FILE's bytes
    QList<DataPart> m_data;
    HttpHeaderList m_custom; // -H, in order
    QList<QByteArray> m_removed; // -H 'Name:', lower case
    std::optional<QString> m_user; // -u
    std::optional<QString> m_bearer;
    std::optional<QString> m_agent;
    std::optional<QString> m_referer;
    QStringList m_cookies;
    std::optional<QString> m_range;
    QList<QByteArray> m_queries; // --url-query parts
    QString m_protoDefault;
    QString m_authScheme; // --digest, --ntlm…: refused when -u is given
};
