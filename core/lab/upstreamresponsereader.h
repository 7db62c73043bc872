// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"

#include <QByteArray>
#include <QString>

#include <utility>

// Reads an upstream's HTTP/1.x answer from the bytes as they arrive: status line, header fields, and the
// body framed by Transfer-Encoding: chunked, Content-Length, or the end of the connection (RFC 9112 §6.3).
// Interim 1xx answers are skipped. Anything that is not HTTP is Garbage, with the reason; an answer whose
// body is longer than MAXBODYBYTES (announced, or found while reading) is TooLarge — HTTP, but more than
// the caller will hold.
class UpstreamResponseReader
{
public:
    enum class State { NeedMore, Complete, Garbage, TooLarge };
    enum class Framing { Length, Chunked, Close };

    explicit UpstreamResponseReader(qsizetype maxBodyBytes = 64 * 1024 * 1024, bool headRequest = false)
        : m_maxBody(maxBodyBytes)
        , m_headRequest(headRequest)
    {
    }

    State feed(const QByteArray& bytes);
    // The connection ended: Complete when the body was framed by the close (or was complete), else Garbage.
    State finishAtEof();

    bool headComplete() const { return m_headDone; }
    int status() const { return m_status; }
    const HttpHeaderList& headers() const { return m_headers; }
    const QByteArray& body() const { return m_body; }
    // Streaming: the body bytes read since the last call (de-chunked), handed over and no longer held.
    // MAXBODYBYTES still bounds the whole body, counted as it passes.
    QByteArray takeBody() { return std::exchange(m_body, {}); }
    qint64 bodyBytesRead() const { return m_bodyTotal; }
    Framing framing() const { return m_framing; }
    qint64 contentLength() const { return m_length; } // Framing::Length: the announced length
    const QString& problem() const { return m_problem; }
    // Complete, framed by length or chunks, nothing after it, and the upstream did not say close: the
    // connection may carry another request.
    bool connectionReusable() const;

private:
    State parseHead();
    State parseBody();
    State garbage(const QString& why);
    State tooLarge(qint64 announced);
    void append(qsizetype n); // the first N buffered bytes are body

    QByteArray m_buffer;
    qsizetype m_maxBody;
    bool m_headRequest;
    bool m_headDone = false;
    int m_status = 0;
    HttpHeaderList m_headers;
    QByteArray m_body;
    qint64 m_bodyTotal = 0; // body bytes read, held or handed over
    Framing m_framing = Framing::Close;
    qint64 m_length = 0;
    qint64 m_chunkLeft = -1; // chunked: bytes left of the current chunk (-1: a size line is next)
    bool m_trailers = false;
    bool m_http11 = false;
    State m_state = State::NeedMore;
    QString m_problem;
};
