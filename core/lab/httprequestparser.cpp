// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/httprequestparser.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

// Field values may hold VCHAR, obs-text, SP and HTAB, nothing else (RFC 9110 §5.5).
bool isFieldValue(QByteArrayView s)
{
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && u != '\t') || u == 0x7f)
            return false;
    }
    return true;
}

} // namespace

HttpRequestParser::HttpRequestParser(HttpParserLimits limits)
    : m_limits(limits)
{
}

void HttpRequestParser::reset()
{
    m_phase = Phase::RequestLine;
    m_state = State::NeedMore;
    m_request = {};
    m_consumed = 0;
    m_headerBytes = 0;
    m_remaining = 0;
    m_bodyBytes = 0;
    m_streaming = false;
    m_chunk.clear();
    m_errorStatus = 0;
    m_errorReason.clear();
}

LabRequest HttpRequestParser::takeRequest()
{
    LabRequest request = std::move(m_request);
    reset();
    return request;
}

HttpRequestParser::State HttpRequestParser::fail(int status, const QString& reason)
{
    m_errorStatus = status;
    m_errorReason = reason;
    m_state = State::Failed;
    return m_state;
}

bool HttpRequestParser::takeLine(QByteArray& buffer, QByteArray& line, qsizetype limit, bool& tooLong)
{
    tooLong = false;
    const qsizetype lf = buffer.indexOf('\n');
    if (lf < 0) {
        tooLong = buffer.size() > limit;
        return false;
    }
    if (lf > limit) {
        tooLong = true;
        return false;
    }
    line = buffer.left(lf);
    if (line.endsWith('\r'))
        line.chop(1);
    buffer.remove(0, lf + 1);
    m_consumed += lf + 1;
    return true;
}

void HttpRequestParser::streamBody()
{
    if (m_state == State::HeadComplete)
        m_streaming = true;
}

HttpRequestParser::State HttpRequestParser::feed(QByteArray& buffer)
{
    if (m_state == State::HeadComplete) { // the caller chose how the body is taken: its declared length is checked now
        m_state = State::NeedMore;
        const qint64 limit = m_streaming ? m_limits.maxStreamedBodyBytes : qint64(m_limits.maxBodyBytes);
        if ((limit > 0 || !m_streaming) && m_request.contentLength > limit)
            return fail(413, u"body larger than %1 bytes"_s.arg(limit));
    }
    if (m_state != State::NeedMore)
        return m_state;
    QByteArray line;
    bool tooLong = false;
    while (true) {
        switch (m_phase) {
        case Phase::RequestLine:
            if (!takeLine(buffer, line, m_limits.maxRequestLine, tooLong))
                return tooLong ? fail(414, u"request line too long"_s) : m_state;
            if (line.isEmpty() && m_consumed <= 2) // RFC 9112 §2.2: ignore one leading empty line
                continue;
            if (!parseRequestLine(line))
                return m_state;
            m_phase = Phase::Headers;
            break;
        case Phase::Headers: {
            const qsizetype room = m_limits.maxHeaderBytes - m_headerBytes;
            if (!takeLine(buffer, line, room, tooLong))
                return tooLong ? fail(431, u"header section too large"_s) : m_state;
            m_headerBytes += line.size() + 2;
            if (line.isEmpty()) {
                if (!finishHeaders())
                    return m_state;
                if (m_pauseAtHead && (m_phase == Phase::Body || m_phase == Phase::ChunkSize)) {
                    m_state = State::HeadComplete; // a body follows: the caller chooses how it is taken
                    return m_state;
                }
                break;
            }
            if (!parseHeaderLine(line))
                return m_state;
            break;
        }
        case Phase::Body: {
            if (!takeBodyBytes(buffer))
                return m_state;
            m_phase = Phase::Done;
            break;
        }
        case Phase::ChunkSize:
            if (!takeLine(buffer, line, 1024, tooLong))
                return tooLong ? fail(400, u"chunk size line too long"_s) : m_state;
            if (!parseChunkSize(line))
                return m_state;
            break;
        case Phase::ChunkData: {
            if (!takeBodyBytes(buffer))
                return m_state;
            m_phase = Phase::ChunkDataEnd;
            break;
        }
        case Phase::ChunkDataEnd: {
            const qsizetype eol = buffer.startsWith("\r\n") ? 2 : (buffer.startsWith('\n') ? 1 : 0);
            if (eol == 0) {
                if (buffer.size() >= 2 || (buffer.size() == 1 && buffer.at(0) != '\r'))
                    return fail(400, u"chunk data not followed by CRLF"_s);
                return m_state;
            }
            buffer.remove(0, eol);
            m_consumed += eol;
            m_phase = Phase::ChunkSize;
            break;
        }
        case Phase::Trailers: {
            const qsizetype room = m_limits.maxHeaderBytes - m_headerBytes;
            if (!takeLine(buffer, line, room, tooLong))
                return tooLong ? fail(431, u"trailer section too large"_s) : m_state;
            m_headerBytes += line.size() + 2;
            if (line.isEmpty()) {
                m_phase = Phase::Done;
                break;
            }
            if (line.indexOf(':') <= 0 || !isFieldValue(line))
                return fail(400, u"malformed trailer field"_s);
            break;
        }
        case Phase::Done:
            m_state = State::Complete;
            return m_state;
        }
    }
}

bool HttpRequestParser::parseRequestLine(const QByteArray& line)
{
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() != 3) {
        fail(400, u"malformed request line"_s);
        return false;
    }
    if (!isToken(parts.at(0))) {
        fail(400, u"malformed method"_s);
        return false;
    }
    const QByteArray& target = parts.at(1);
    if (target.isEmpty() || !isFieldValue(target) || target.contains(' ') || target.contains('\t')) {
        fail(400, u"malformed request target"_s);
        return false;
    }
    const QByteArray& version = parts.at(2);
    if (version == "HTTP/1.1") {
        m_request.minorVersion = 1;
    } else if (version == "HTTP/1.0") {
        m_request.minorVersion = 0;
    } else if (version.startsWith("HTTP/") && version.size() == 8 && version.at(6) == '.') {
        fail(505, u"unsupported HTTP version"_s);
        return false;
    } else {
        fail(400, u"malformed HTTP version"_s);
        return false;
    }
    m_request.method = parts.at(0);
    m_request.target = target;
    QByteArray pathPart = target;
    if (target.startsWith("http://") || target.startsWith("https://")) { // absolute-form
        const QUrl url = QUrl::fromEncoded(target);
        pathPart = url.path(QUrl::FullyEncoded).toLatin1();
        if (url.hasQuery())
            pathPart += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    }
    const qsizetype q = pathPart.indexOf('?');
    if (q >= 0) {
        m_request.query = pathPart.mid(q + 1);
        pathPart.truncate(q);
    }
    m_request.path = QUrl::fromPercentEncoding(pathPart);
    return true;
}

bool HttpRequestParser::parseHeaderLine(const QByteArray& line)
{
    if (line.startsWith(' ') || line.startsWith('\t')) {
        fail(400, u"obsolete line folding"_s);
        return false;
    }
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0 || !isToken(QByteArrayView(line).first(colon))) {
        fail(400, u"malformed header field"_s);
        return false;
    }
    const QByteArray value = line.mid(colon + 1).trimmed();
    if (!isFieldValue(value)) {
        fail(400, u"control character in a header field"_s);
        return false;
    }
    if (m_request.headers.size() >= m_limits.maxHeaderCount) {
        fail(431, u"too many header fields"_s);
        return false;
    }
    m_request.headers.append(qMakePair(line.left(colon), value));
    return true;
}

bool HttpRequestParser::finishHeaders()
{
    const HttpHeaderList& headers = m_request.headers;
    const QByteArray connection = combinedHeader(headers, "Connection").toLower();
    m_request.keepAlive = m_request.minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive");

    const bool hasTe = hasHeader(headers, "Transfer-Encoding");
    const QList<QByteArray> lengths = headerValues(headers, "Content-Length");
    if (hasTe && !lengths.isEmpty()) {
        fail(400, u"both Transfer-Encoding and Content-Length"_s);
        return false;
    }
    if (hasTe) {
        const QByteArray te = combinedHeader(headers, "Transfer-Encoding").toLower().trimmed();
        if (te != "chunked") {
            fail(501, u"unsupported transfer coding"_s);
            return false;
        }
        m_request.chunked = true;
        m_phase = Phase::ChunkSize;
        return true;
    }
    qint64 length = 0;
    bool first = true;
    for (const QByteArray& raw : lengths) {
        for (const QByteArray& member : raw.split(',')) {
            const QByteArray v = member.trimmed();
            bool ok = !v.isEmpty() && v.size() <= 15;
            for (char c : v)
                ok = ok && c >= '0' && c <= '9';
            const qint64 n = ok ? v.toLongLong(&ok) : -1;
            if (!ok || (!first && n != length)) {
                fail(400, u"invalid Content-Length"_s);
                return false;
            }
            length = n;
            first = false;
        }
    }
    m_request.contentLength = lengths.isEmpty() ? -1 : length;
    // Refused before its body is waited for; when pausing at the head, once the caller chose how to take it.
    if (!m_pauseAtHead && length > m_limits.maxBodyBytes) {
        fail(413, u"body larger than %1 bytes"_s.arg(m_limits.maxBodyBytes));
        return false;
    }
    m_remaining = static_cast<qsizetype>(length);
    m_phase = m_remaining > 0 ? Phase::Body : Phase::Done;
    return true;
}

bool HttpRequestParser::takeBodyBytes(QByteArray& buffer)
{
    const qsizetype n = std::min(m_remaining, buffer.size());
    QByteArray& sink = m_streaming ? m_chunk : m_request.body;
    if (n == buffer.size())
        sink += std::exchange(buffer, {}); // the whole buffer: shared, not copied
    else {
        sink += QByteArrayView(buffer).first(n);
        buffer.remove(0, n);
    }
    m_bodyBytes += n;
    m_consumed += n;
    m_remaining -= n;
    return m_remaining == 0;
}

bool HttpRequestParser::parseChunkSize(const QByteArray& line)
{
    QByteArray size = line;
    const qsizetype semicolon = size.indexOf(';');
    if (semicolon >= 0)
        size.truncate(semicolon);
    size = size.trimmed();
    bool ok = !size.isEmpty() && size.size() <= 8;
    for (char c : size)
        ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
    const qint64 n = ok ? size.toLongLong(&ok, 16) : -1;
    if (!ok || n < 0) {
        fail(400, u"invalid chunk size"_s);
        return false;
    }
    const qint64 limit = m_streaming ? m_limits.maxStreamedBodyBytes : qint64(m_limits.maxBodyBytes);
    if ((limit > 0 || !m_streaming) && m_bodyBytes + n > limit) {
        fail(413, u"body larger than %1 bytes"_s.arg(limit));
        return false;
    }
    m_remaining = static_cast<qsizetype>(n);
    m_phase = n == 0 ? Phase::Trailers : Phase::ChunkData;
    return true;
}
