// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/upstreamresponsereader.h"

#include <algorithm>

#include <QCoreApplication>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("lab", text); }

constexpr qsizetype kMaxHead = 64 * 1024;

bool isToken(QByteArrayView name)
{
    if (name.isEmpty())
        return false;
    for (char c : name) {
        if (c <= 32 || c >= 127 || QByteArrayView("\"(),/:;<=>?@[\\]{}").contains(c))
            return false;
    }
    return true;
}

} // namespace

UpstreamResponseReader::State UpstreamResponseReader::garbage(const QString& why)
{
    m_problem = why;
    return m_state = State::Garbage;
}

UpstreamResponseReader::State UpstreamResponseReader::tooLarge(qint64 announced)
{
    m_problem = announced >= 0
        ? tr("the upstream's body (%1 bytes) is longer than the %2 bytes the lab keeps (--upstream-max-body)")
              .arg(announced)
              .arg(m_maxBody)
        : tr("the upstream's body is longer than the %1 bytes the lab keeps (--upstream-max-body)").arg(m_maxBody);
    m_buffer.clear(); // nothing more of it is kept
    m_body.clear();
    return m_state = State::TooLarge;
}

void UpstreamResponseReader::append(qsizetype n)
{
    if (m_body.isEmpty() && n == m_buffer.size())
        m_body = std::exchange(m_buffer, {}); // the whole read is body: handed over without a copy
    else {
        m_body += QByteArrayView(m_buffer).first(n);
        m_buffer.remove(0, n);
    }
    m_bodyTotal += n;
}

UpstreamResponseReader::State UpstreamResponseReader::feed(const QByteArray& bytes)
{
    if (m_state != State::NeedMore)
        return m_state;
    m_buffer += bytes;
    if (!m_headDone) {
        if (parseHead() != State::NeedMore || !m_headDone)
            return m_state;
    }
    return parseBody();
}

UpstreamResponseReader::State UpstreamResponseReader::parseHead()
{
    for (;;) {
        // Judged on the bytes there are, so the verdict does not depend on how TCP cut them.
        const qsizetype seen = std::min<qsizetype>(m_buffer.size(), 7);
        if (QByteArrayView(m_buffer).first(seen) != QByteArrayView("HTTP/1.").first(seen))
            return garbage(tr("the upstream's answer does not start with HTTP/1.x"));
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > kMaxHead)
                return garbage(tr("the upstream's header block is longer than 64 KiB"));
            return State::NeedMore;
        }
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        const QByteArray statusLine = lines.first().trimmed();
        bool ok = false;
        const int status = statusLine.size() >= 12 && statusLine.at(8) == ' ' ? statusLine.mid(9, 3).toInt(&ok) : 0;
        if (!ok || status < 100 || status > 999 || (statusLine.size() > 12 && statusLine.at(12) != ' '))
            return garbage(tr("the upstream's status line is malformed: \"%1\"")
                    .arg(QString::fromLatin1(statusLine.left(80).toPercentEncoding(" /.:"))));
        HttpHeaderList headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            QByteArray line = lines.at(i);
            if (line.endsWith('\r'))
                line.chop(1);
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0 || !isToken(QByteArrayView(line).first(colon)))
                return garbage(tr("the upstream sent a malformed header line"));
            headers.append({ line.left(colon), line.mid(colon + 1).trimmed() });
        }
        m_buffer.remove(0, end + 4);
        if (status < 200) // an interim answer (100 Continue, 103 Early Hints): the final one follows
            continue;
        m_status = status;
        m_http11 = statusLine.startsWith("HTTP/1.1");
        m_headers = headers;
        m_headDone = true;
        const QByteArray te = combinedHeader(headers, "Transfer-Encoding").toLower();
        const QList<QByteArray> lengths = headerValues(headers, "Content-Length");
        if (m_headRequest || status == 204 || status == 304) {
            m_framing = Framing::Length;
            m_length = 0;
        } else if (!te.isNull()) {
            if (!te.trimmed().endsWith("chunked"))
                m_framing = Framing::Close; // RFC 9112 §6.3 item 4 (for a response): read until close
            else
                m_framing = Framing::Chunked;
        } else if (!lengths.isEmpty()) {
            bool okLength = false;
            m_length = lengths.first().trimmed().toLongLong(&okLength);
            for (const QByteArray& other : lengths)
                okLength = okLength && other.trimmed() == lengths.first().trimmed();
            if (!okLength || m_length < 0)
                return garbage(tr("the upstream sent an invalid Content-Length"));
            if (m_length > m_maxBody)
                return tooLarge(m_length);
            m_framing = Framing::Length;
        } else {
            m_framing = Framing::Close;
        }
        return State::NeedMore;
    }
}

UpstreamResponseReader::State UpstreamResponseReader::parseBody()
{
    switch (m_framing) {
    case Framing::Length: {
        const qsizetype take = qsizetype(std::min<qint64>(m_length - m_bodyTotal, m_buffer.size()));
        append(take); // takes them out of the buffer
        // Bytes after the framed body stay in the buffer: they are not part of this answer, and a connection
        // that carried them must not be reused (the next answer would be read from the wrong place).
        return m_state = m_bodyTotal == m_length ? State::Complete : State::NeedMore;
    }
    case Framing::Close:
        append(m_buffer.size());
        if (m_bodyTotal > m_maxBody)
            return tooLarge(-1);
        return State::NeedMore;
    case Framing::Chunked:
        for (;;) {
            if (m_trailers) {
                const qsizetype eol = m_buffer.indexOf("\r\n");
                if (eol < 0)
                    return State::NeedMore;
                const bool last = eol == 0;
                m_buffer.remove(0, eol + 2);
                if (last)
                    return m_state = State::Complete;
                continue;
            }
            if (m_chunkLeft < 0) {
                const qsizetype eol = m_buffer.indexOf("\r\n");
                if (eol < 0)
                    return m_buffer.size() > 1024 ? garbage(tr("the upstream sent a malformed chunk size")) : State::NeedMore;
                QByteArray size = m_buffer.left(eol);
                if (const qsizetype ext = size.indexOf(';'); ext >= 0)
                    size.truncate(ext);
                bool ok = false;
                m_chunkLeft = size.trimmed().toLongLong(&ok, 16);
                if (!ok || m_chunkLeft < 0 || size.trimmed().isEmpty())
                    return garbage(tr("the upstream sent a malformed chunk size"));
                if (m_bodyTotal + m_chunkLeft > m_maxBody)
                    return tooLarge(-1);
                m_buffer.remove(0, eol + 2);
                if (m_chunkLeft == 0) {
                    m_trailers = true;
                    continue;
                }
            }
            if (m_buffer.size() < m_chunkLeft + 2) {
                const qsizetype take = std::min<qsizetype>(m_buffer.size(), qsizetype(m_chunkLeft));
                append(take);
                m_chunkLeft -= take;
                return State::NeedMore;
            }
            if (m_buffer.mid(qsizetype(m_chunkLeft), 2) != "\r\n")
                return garbage(tr("the upstream's chunk does not end with CRLF"));
            append(qsizetype(m_chunkLeft));
            m_buffer.remove(0, 2);
            m_chunkLeft = -1;
        }
    }
    return State::NeedMore;
}

UpstreamResponseReader::State UpstreamResponseReader::finishAtEof()
{
    if (m_state != State::NeedMore)
        return m_state;
    if (!m_headDone)
        return garbage(m_buffer.isEmpty() ? tr("the upstream closed the connection without answering")
                                          : tr("the upstream closed the connection in the middle of its header block"));
    if (m_framing == Framing::Close)
        return m_state = State::Complete;
    return garbage(tr("the upstream closed the connection before the end of its body (%1 bytes read)").arg(m_bodyTotal));
}

bool UpstreamResponseReader::connectionReusable() const
{
    if (m_state != State::Complete || m_framing == Framing::Close || !m_buffer.isEmpty() || !m_http11)
        return false;
    for (const QByteArray& value : headerValues(m_headers, "Connection")) {
        for (const QByteArray& option : value.split(',')) {
            if (option.trimmed().compare("close", Qt::CaseInsensitive) == 0)
                return false;
        }
    }
    return true;
}
