// SPDX-License-Identifier: GPL-3.0-or-later
// CurlRequestBuilder::finish()'s steps: the URL (scheme, credentials, -G data, --url-query), the body and
// the headers curl 7.88 derives from the options, in curl's order.
#include "http/curlrequestbuilder.h"

#include <QCoreApplication>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("CurlRequestParser", text);
}

// What Debian 12's curl 7.88.1 (zlib, brotli, zstd) sends for --compressed.
constexpr QByteArrayView kCompressedEncodings = "deflate, gzip, br, zstd";

// Where the path starts in SCHEME://AUTHORITY/PATH (an IPv6 host's brackets are the authority's).
qsizetype pathStart(const QString& url)
{
    const qsizetype authority = url.indexOf(u"://"_s) + 3;
    qsizetype i = authority;
    if (i < url.size() && url.at(i) == u'[') {
        const qsizetype close = url.indexOf(u']', i);
        i = close < 0 ? url.size() : close + 1;
    }
    while (i < url.size() && url.at(i) != u'/' && url.at(i) != u'?' && url.at(i) != u'#')
        ++i;
    return i;
}

} // namespace

void CurlRequestBuilder::finishUrl()
{
    QString url = m_urls.first();
    if (!url.contains(u"://"_s)) {
        const QString scheme = m_protoDefault.isEmpty() ? u"http"_s : m_protoDefault;
        url = scheme + u"://"_s + url;
        note(m_urls.first(), true, tr("no scheme: %1:// is assumed, as curl does").arg(scheme));
    }
    if (!m_globoff) {
        const QStringView rest = QStringView(url).mid(pathStart(url));
        for (const QChar c : { u'[', u']', u'{', u'}' }) {
            if (rest.contains(c)) {
                fail(tr("curl would expand […] or {…} in the URL into several requests; add -g (--globoff) to send "
                        "it as written"));
                return;
            }
        }
    }
    QUrl u(url, QUrl::TolerantMode);
    if (!u.isValid() || u.host().isEmpty()) {
        fail(tr("\"%1\" is not a URL with a host").arg(m_urls.first()));
        return;
    }
    if (!u.userName().isEmpty()) {
        if (!m_user) {
            m_user = u.userName(QUrl::FullyDecoded) + u':' + u.password(QUrl::FullyDecoded);
            note(m_urls.first(), true, tr("the user and password in the URL are sent as Authorization: Basic, as curl does"));
        }
        u.setUserInfo(QString());
    }
    QByteArray extra;
    if (m_get) {
        for (const DataPart& part : std::as_const(m_data))
            extra += (extra.isEmpty() ? QByteArray() : QByteArrayLiteral("&")) + part.bytes;
    }
    for (const QByteArray& q : std::as_const(m_queries))
        extra += (extra.isEmpty() ? QByteArray() : QByteArrayLiteral("&")) + q;
    if (!extra.isEmpty()) {
        const QString query = u.query(QUrl::FullyEncoded);
        const QString added = QString::fromUtf8(extra);
        u.setQuery(query.isEmpty() ? added : query + u'&' + added, QUrl::TolerantMode);
    }
    m_out.url = u.toString(QUrl::FullyEncoded);
}

void CurlRequestBuilder::finishBody()
{
    if (m_upload) {
        m_out.body = *m_upload;
        m_out.hasBody = true;
        return;
    }
    if (m_data.isEmpty() || m_get)
        return;
    // Parts join with '&', except that a --json part is appended as it is.
    for (qsizetype i = 0; i < m_data.size(); ++i) {
        if (i > 0 && !m_data.at(i).json)
            m_out.body += '&';
        m_out.body += m_data.at(i).bytes;
    }
    m_out.hasBody = true;
}

void CurlRequestBuilder::finishHeaders()
{
    if (m_bearer) {
        addImplied("Authorization", "Bearer " + m_bearer->toUtf8(), u"--oauth2-bearer"_s);
        if (m_user)
            note(u"-u"_s, false, tr("not applied: --oauth2-bearer sets Authorization"));
    } else if (m_user) {
        addImplied("Authorization", "Basic " + m_user->toUtf8().toBase64(), u"-u"_s);
    }
    if (m_range)
        addImplied("Range", "bytes=" + m_range->toUtf8(), u"-r"_s);
    if (m_agent)
        addImplied("User-Agent", m_agent->toUtf8(), u"-A"_s);
    if (m_referer)
        addImplied("Referer", m_referer->toUtf8(), u"-e"_s);
    if (!m_cookies.isEmpty())
        addImplied("Cookie", m_cookies.join(u';').toUtf8(), u"-b"_s);
    if (m_compressed) {
        if (hasCustom("accept-encoding")) {
            note(u"--compressed"_s, false, tr("not applied: -H Accept-Encoding replaces it, as in curl"));
        } else {
            m_out.headers.append({ QByteArrayLiteral("Accept-Encoding"), kCompressedEncodings.toByteArray() });
            note(u"--compressed"_s, true,
                tr("header Accept-Encoding: %1, as Debian 12's curl sends it; Retrylab records the answer as it "
                   "arrives (compressed), where curl would decompress it")
                    .arg(QString::fromLatin1(kCompressedEncodings)));
        }
    }
    const bool json = std::any_of(m_data.begin(), m_data.end(), [](const DataPart& p) { return p.json; });
    if (json) {
        if (!hasCustom("content-type"))
            m_out.headers.append({ QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json") });
        if (!hasCustom("accept"))
            m_out.headers.append({ QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json") });
    }
    m_out.headers.append(m_custom);
    if (!json && !m_data.isEmpty() && !m_get && !hasCustom("content-type")) {
        m_out.headers.append({ QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/x-www-form-urlencoded") });
        m_out.notes.append({ u"-d"_s, true, tr("header Content-Type: application/x-www-form-urlencoded, as curl sends "
                                              "with data") });
    }
    m_out.removedHeaders = m_removed;
}
