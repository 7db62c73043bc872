// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/labrequest.h"

#include <QByteArray>
#include <QString>

#include <utility>

// Size bounds for one request; exceeding one is answered with a 4xx instead of growing a buffer.
struct HttpParserLimits
{
    qsizetype maxRequestLine = 8 * 1024; // → 414
    qsizetype maxHeaderBytes = 32 * 1024; // all header lines together → 431
    int maxHeaderCount = 100; // → 431
    qsizetype maxBodyBytes = 1024 * 1024; // → 413
    // A body streamed to the upstream as it arrives (HttpRequestParser::streamBody) is never held whole, so it
    // has a limit of its own: 0 = none (the default), else a longer de-chunked body → 413.
    qint64 maxStreamedBodyBytes = 0;
};

// Incremental HTTP/1.0 and 1.1 request parser: request line, header fields, Content-Length or chunked
// body (with trailers). Strict where leniency would be a smuggling hazard (Content-Length together with
// Transfer-Encoding, conflicting lengths, obsolete line folding, NUL and other control bytes).
//
// Two ways to take a body. Collected (the default): the de-chunked body is the request's, up to
// maxBodyBytes. Streamed: with setPauseAtHead(true), feed() stops once after the head of a request that has a
// body and says HeadComplete (partial() then holds the request line and fields), so the caller can choose
// before any body byte is taken: feed on to collect it, or call streamBody() first — then the de-chunked body
// bytes are handed out by takeBodyChunk() as they are parsed, never held whole, up to maxStreamedBodyBytes,
// and the completed request has an empty body. Either way the same bytes make the same requests.
class HttpRequestParser
{
public:
    enum class State { NeedMore, HeadComplete, Complete, Failed };

    explicit HttpRequestParser(HttpParserLimits limits = {});

    void setPauseAtHead(bool pause) { m_pauseAtHead = pause; }
    // After HeadComplete, before the next feed(): the body of this request is streamed.
    void streamBody();
    bool streamsBody() const { return m_streaming; }
    // Streamed: the body bytes parsed since the last call (de-chunked).
    QByteArray takeBodyChunk() { return std::exchange(m_chunk, {}); }
    bool hasBodyChunk() const { return !m_chunk.isEmpty(); }
    qint64 bodyBytesRead() const { return m_bodyBytes; } // de-chunked body bytes parsed so far
    // The request's Content-Length once its head is in; -1 for a chunked body or none.
    qint64 contentLength() const { return m_request.contentLength; }

    // Consumes bytes from the front of BUFFER (leaving pipelined bytes of the next request there).
    State feed(QByteArray& buffer);
    State state() const { return m_state; }
    bool inProgress() const { return m_phase != Phase::RequestLine || m_consumed > 0; }
    // The request line and header fields are in; what remains (if anything) is the body.
    bool headComplete() const { return m_phase != Phase::RequestLine && m_phase != Phase::Headers; }

    // Valid once feed() returned Complete; resets the parser for the next request.
    LabRequest takeRequest();

    // What has been parsed of the request in progress (after Failed: what was read before the failure).
    const LabRequest& partial() const { return m_request; }

    int errorStatus() const { return m_errorStatus; } // 400, 413, 414, 431, 501, 505
    QString errorReason() const { return m_errorReason; }

    void reset();

private:
    enum class Phase { RequestLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Done };

    State fail(int status, const QString& reason);
    // Takes one line (without CR LF) off BUFFER; false when no full line is there yet.
    bool takeLine(QByteArray& buffer, QByteArray& line, qsizetype limit, bool& tooLong);
    bool parseRequestLine(const QByteArray& line);
    bool parseHeaderLine(const QByteArray& line);
    bool finishHeaders();
    bool parseChunkSize(const QByteArray& line);
    // Moves up to m_remaining body bytes from BUFFER into the request; true once none remain.
    bool takeBodyBytes(QByteArray& buffer);

    HttpParserLimits m_limits;
    Phase m_phase = Phase::RequestLine;
    State m_state = State::NeedMore;
    LabRequest m_request;
    qsizetype m_consumed = 0;
    qsizetype m_headerBytes = 0;
    qsizetype m_remaining = 0; // body or chunk bytes still expected
    qint64 m_bodyBytes = 0;
    bool m_pauseAtHead = false;
    bool m_streaming = false;
    QByteArray m_chunk; // streamed body bytes not taken yet
    int m_errorStatus = 0;
    QString m_errorReason;
};
