// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/curlrequestbuilder.h"

#include "http/curlencoding.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("CurlRequestParser", text, disambiguation, n);
}

QString secondsText(std::chrono::milliseconds ms)
{
    return QString::number(double(ms.count()) / 1000.0, 'g', 6) + u" s"_s;
}

} // namespace

CurlRequestBuilder::CurlRequestBuilder(QString baseDir)
    : m_baseDir(std::move(baseDir))
{
}

CurlRequest CurlRequestBuilder::fail(const QString& error)
{
    if (m_out.error.isEmpty())
        m_out.error = error;
    return m_out;
}

void CurlRequestBuilder::note(const QString& written, bool applied, const QString& text)
{
    m_out.notes.append({ written, applied, text });
}

void CurlRequestBuilder::addUrl(const QString& url)
{
    m_urls.append(url);
}

std::optional<std::chrono::milliseconds> CurlRequestBuilder::readSeconds(const QString& written, const QString& value)
{
    bool ok = false;
    const double s = value.toDouble(&ok);
    if (!ok || s < 0 || s > 1e9) {
        fail(tr("%1 \"%2\" is not a number of seconds").arg(written, value));
        return std::nullopt;
    }
    return std::chrono::milliseconds(qint64(s * 1000.0 + 0.5));
}

QByteArray CurlRequestBuilder::readFile(const QString& written, const QString& path)
{
    if (path == u"-"_s) {
        fail(tr("%1 reads standard input: paste the data itself instead").arg(written));
        return {};
    }
    QFile file(QDir(m_baseDir.isEmpty() ? QDir::currentPath() : m_baseDir).filePath(path));
    if (!file.open(QIODevice::ReadOnly)) {
        fail(tr("%1 @%2: the file cannot be read (%3)").arg(written, path, file.errorString()));
        return {};
    }
    return file.readAll();
}

void CurlRequestBuilder::apply(const CurlOption& o, const QString& written, const QString& value, bool off,
    const QString& refusal)
{
    switch (o.effect) {
    case CurlOptionEffect::Request:
        applyRequest(o, written, value, off);
        return;
    case CurlOptionEffect::Retry:
        if (off) {
            note(written, true, tr("off (it is off unless given)"));
            if (o.name == "retry-all-errors"_L1)
                m_out.retry.allErrors = false;
            else if (o.name == "retry-connrefused"_L1)
                m_out.retry.connectionRefused = false;
            return;
        }
        applyRetry(o, written, value);
        return;
    case CurlOptionEffect::Refused:
        fail(tr("%1 %2").arg(written, refusal));
        return;
    case CurlOptionEffect::Auth:
        m_authScheme = written;
        break;
    default:
        break;
    }
    if (o.name == "insecure"_L1) {
        note(written, false, tr("not applied: Retrylab always verifies certificates (it trusts its lab's test CA)"));
        return;
    }
    if (o.name == "http1.0"_L1 || o.name == "http3"_L1 || o.name == "http3-only"_L1) {
        note(written, false, tr("not applied: Retrylab sends HTTP/1.1, or HTTP/2 when allowed"));
        return;
    }
    note(written, false, tr("not applied: %1").arg(CurlOptions::whyNotApplied(o.effect)));
}

void CurlRequestBuilder::applyRetry(const CurlOption& o, const QString& written, const QString& value)
{
    CurlRetryOptions& r = m_out.retry;
    if (o.name == "retry"_L1) {
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok || n < 0) {
            fail(tr("%1 \"%2\" is not a number of retries").arg(written, value));
            return;
        }
        r.retries = n;
        note(written, true, tr("%n retry(s) after the first attempt (the curl preset's limit)", nullptr, n));
    } else if (o.name == "retry-delay"_L1) {
        r.delay = readSeconds(written, value);
        if (r.delay)
            note(written, true, r.delay->count() ? tr("a fixed wait of %1 between attempts").arg(secondsText(*r.delay))
                                                 : tr("0: curl's doubling from 1 s"));
    } else if (o.name == "retry-max-time"_L1) {
        r.maxTime = readSeconds(written, value);
        if (r.maxTime)
            note(written, true, r.maxTime->count() ? tr("no retry after %1 (the deadline)").arg(secondsText(*r.maxTime))
                                                   : tr("0: no limit"));
    } else if (o.name == "retry-all-errors"_L1) {
        r.allErrors = true;
        note(written, true, tr("every transport error is retried"));
    } else if (o.name == "retry-connrefused"_L1) {
        r.connectionRefused = true;
        note(written, true, tr("a refused connection is retried"));
    }
}

void CurlRequestBuilder::applyRequest(const CurlOption& o, const QString& written, const QString& value, bool off)
{
    const QLatin1StringView n = o.name;
    if (off) {
        if (n == "compressed"_L1)
            m_compressed = false;
        else if (n == "location"_L1 || n == "location-trusted"_L1)
            m_out.followRedirects = false;
        else if (n == "get"_L1)
            m_get = false;
        else if (n == "head"_L1)
            m_head = false;
        else if (n == "globoff"_L1)
            m_globoff = false;
        note(written, true, tr("off"));
        return;
    }
    if (n == "request"_L1) {
        m_method = value;
        note(written, true, value == value.toUpper() ? tr("method %1").arg(value)
                                                     : tr("method %1 (curl sends \"%2\" as typed; Retrylab sends "
                                                          "methods in upper case)").arg(value.toUpper(), value));
    } else if (n == "header"_L1) {
        if (value.startsWith(u'@')) {
            const QByteArray file = readFile(written, value.mid(1));
            const QStringList lines = QString::fromUtf8(file).split(u'\n');
            for (const QString& line : lines) {
                if (!line.trimmed().isEmpty())
                    addHeaderLine(written, line.trimmed());
            }
        } else {
            addHeaderLine(written, value);
        }
    } else if (n.startsWith("data"_L1) || n == "json"_L1) {
        addData(o, written, value);
    } else if (n == "url"_L1) {
        addUrl(value);
        note(written, true, tr("the URL"));
    } else if (n == "get"_L1) {
        m_get = true;
        note(written, true, tr("the data goes into the URL's query; method GET"));
    } else if (n == "head"_L1) {
        m_head = true;
        note(written, true, tr("method HEAD"));
    } else if (n == "upload-file"_L1) {
        m_upload = readFile(written, value);
        note(written, true, tr("the body is %1; method PUT (curl also sends Expect: 100-continue and waits for the "
                               "server's go-ahead; Retrylab sends the body at once)").arg(value));
    } else if (n == "user"_L1) {
        if (!value.contains(u':')) {
            fail(tr("%1 %2 has no password: curl would ask for it; write %1 %2:PASSWORD").arg(written, value));
            return;
        }
        m_user = value;
    } else if (n == "oauth2-bearer"_L1) {
        m_bearer = value;
    } else if (n == "user-agent"_L1) {
        m_agent = value;
    } else if (n == "referer"_L1) {
        m_referer = value.endsWith(u";auto"_s) ? value.chopped(5) : value;
        if (m_referer->isEmpty())
            m_referer.reset();
    } else if (n == "cookie"_L1) {
        if (value.contains(u'=')) {
            m_cookies.append(value);
        } else {
            note(written, false, tr("not applied: reads cookies from the file %1; send them with -b 'name=value'").arg(value));
        }
    } else if (n == "compressed"_L1) {
        m_compressed = true;
    } else if (n == "range"_L1) {
        m_range = value;
    } else if (n == "continue-at"_L1) {
        bool ok = false;
        const qint64 offset = value.toLongLong(&ok);
        if (!ok || offset < 0)
            note(written, false, tr("not applied: \"%1\" resumes from the output file's size").arg(value));
        else
            m_range = QString::number(offset) + u'-';
    } else if (n == "url-query"_L1) {
        QString error;
        const QByteArray part = value.startsWith(u'+')
            ? value.mid(1).toUtf8()
            : CurlEncoding::dataUrlencode(value, [this, &written](const QString& path, QString* e) {
                  const QByteArray bytes = readFile(written, path);
                  if (!ok())
                      *e = m_out.error;
                  return bytes;
              }, &error);
        if (error.isEmpty()) {
            m_queries.append(part);
            note(written, true, tr("adds \"%1\" to the URL's query").arg(QString::fromUtf8(part)));
        }
    } else if (n == "max-time"_L1) {
        m_out.maxTime = readSeconds(written, value);
        if (m_out.maxTime)
            note(written, true, tr("each attempt may take at most %1 (the attempt timeout)").arg(secondsText(*m_out.maxTime)));
    } else if (n == "connect-timeout"_L1) {
        m_out.connectTimeout = readSeconds(written, value);
        if (m_out.connectTimeout)
            note(written, true, tr("connecting may take at most %1 (the connect timeout)").arg(secondsText(*m_out.connectTimeout)));
    } else if (n == "location"_L1 || n == "location-trusted"_L1) {
        m_out.followRedirects = true;
        note(written, true, n == "location"_L1 ? tr("redirects are followed, each as a new attempt")
                                               : tr("redirects are followed, each as a new attempt (with the same "
                                                    "headers, credentials included)"));
    } else if (n == "http1.1"_L1) {
        m_out.http2 = false;
        note(written, true, tr("HTTP/1.1 only"));
    } else if (n == "http2"_L1 || n == "http2-prior-knowledge"_L1) {
        m_out.http2 = true;
        note(written, true, n == "http2"_L1 ? tr("HTTP/2 allowed")
                                            : tr("HTTP/2 allowed (negotiated with TLS; a plain http:// URL stays on "
                                                 "HTTP/1.1, Qt has no prior-knowledge mode)"));
    } else if (n == "globoff"_L1) {
        m_globoff = true;
        note(written, true, tr("the URL is sent as written (Retrylab never expands […] or {…})"));
    } else if (n == "proto-default"_L1) {
        m_protoDefault = value;
        note(written, true, tr("a URL without a scheme gets %1://").arg(value));
    } else if (n == "basic"_L1) {
        note(written, true, tr("no change: -u is sent as Basic"));
    }
}

void CurlRequestBuilder::addHeaderLine(const QString& written, const QString& line)
{
    const qsizetype colon = line.indexOf(u':');
    if (colon > 0) {
        const QByteArray name = line.left(colon).trimmed().toLatin1();
        const QByteArray value = line.mid(colon + 1).trimmed().toUtf8();
        if (value.isEmpty()) { // "Accept:" removes curl's own header
            m_removed.append(name.toLower());
            note(written, true, tr("curl sends no %1 header of its own").arg(QString::fromLatin1(name)));
            return;
        }
        m_custom.append({ name, value });
        note(written, true, tr("header %1").arg(QString::fromLatin1(name)));
        return;
    }
    if (line.endsWith(u';') && line.size() > 1) { // "X-Empty;" sends the header with no value
        const QByteArray name = line.chopped(1).trimmed().toLatin1();
        m_custom.append({ name, QByteArray() });
        note(written, true, tr("header %1 with an empty value").arg(QString::fromLatin1(name)));
        return;
    }
    note(written, false, tr("not applied: \"%1\" is not a header line (no colon); curl ignores it too").arg(line));
}

void CurlRequestBuilder::addData(const CurlOption& o, const QString& written, const QString& value)
{
    const QLatin1StringView n = o.name;
    DataPart part;
    part.json = n == "json"_L1;
    QString what;
    if (n == "data-urlencode"_L1) {
        QString error;
        part.bytes = CurlEncoding::dataUrlencode(value, [this, &written](const QString& path, QString* e) {
            const QByteArray bytes = readFile(written, path);
            if (!ok())
                *e = m_out.error;
            return bytes;
        }, &error);
        if (!error.isEmpty())
            return;
        what = tr("URL-encoded data \"%1\"").arg(QString::fromUtf8(part.bytes));
    } else if (n != "data-raw"_L1 && value.startsWith(u'@')) {
        part.bytes = readFile(written, value.mid(1));
        if (!ok())
            return;
        if (n == "data"_L1 || n == "data-ascii"_L1) { // -d @file drops carriage returns and newlines
            part.bytes.replace('\r', QByteArray()).replace('\n', QByteArray());
            what = tr("the contents of %1 without its line breaks (%n byte(s))", nullptr, int(part.bytes.size())).arg(value.mid(1));
        } else {
            what = tr("the contents of %1 (%n byte(s))", nullptr, int(part.bytes.size())).arg(value.mid(1));
        }
    } else {
        part.bytes = value.toUtf8();
        what = tr("%n byte(s) of data", nullptr, int(part.bytes.size()));
    }
    m_data.append(part);
    note(written, true, part.json ? tr("%1, as JSON").arg(what) : what);
}

bool CurlRequestBuilder::hasCustom(QByteArrayView name) const
{
    if (m_removed.contains(name.toByteArray().toLower()))
        return true;
    return hasHeader(m_custom, name);
}

void CurlRequestBuilder::addImplied(const QByteArray& name, const QByteArray& value, const QString& because)
{
    if (hasCustom(name)) {
        note(because, false, tr("not applied: -H %1 replaces it, as in curl").arg(QString::fromLatin1(name)));
        return;
    }
    m_out.headers.append({ name, value });
    note(because, true, tr("header %1").arg(QString::fromLatin1(name)));
}

CurlRequest CurlRequestBuilder::finish()
{
    if (!ok())
        return m_out;
    if (m_urls.isEmpty())
        return fail(tr("no URL in the command"));
    if (m_urls.size() > 1)
        return fail(tr("more than one URL (\"%1\", \"%2\"): paste one request").arg(m_urls.at(0), m_urls.at(1)));
    if (!m_authScheme.isEmpty() && m_user)
        return fail(tr("%1 with -u needs a challenge round trip that Retrylab does not do; use --basic").arg(m_authScheme));
    if (m_head && (!m_data.isEmpty() || m_upload) && !m_get)
        return fail(tr("-I cannot send a body (curl refuses it too)"));
    if (m_upload && !m_data.isEmpty() && !m_get)
        return fail(tr("-T and -d both give a body: keep one"));
    finishUrl();
    if (!ok())
        return m_out;
    finishBody();
    finishHeaders();
    if (!m_method.isEmpty())
        m_out.method = m_method.toUpper();
    else if (m_head)
        m_out.method = u"HEAD"_s;
    else if (m_get)
        m_out.method = u"GET"_s;
    else if (m_upload)
        m_out.method = u"PUT"_s;
    else if (m_out.hasBody)
        m_out.method = u"POST"_s;
    return m_out;
}
