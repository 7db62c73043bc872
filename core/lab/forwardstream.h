// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/labresponse.h"

#include <QObject>
#include <QPointer>

class LabConnection;
class UpstreamCall;

// The upstream's answer relayed to the client as it arrives (a plain `forward`, issue 12 §1): the head
// once the upstream's is in, then each body slice as it is read. Framing: an upstream Content-Length
// goes through as it is; a chunked or close-delimited body is re-chunked for an HTTP/1.1 client and
// delimited by the close for an HTTP/1.0 one. Backpressure: while more than kHighWater bytes wait in the
// client's send buffer the upstream is not read (UpstreamCall::setPaused), so a slow client slows the
// upstream instead of growing the lab's memory.
class ForwardStream : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kHighWater = 256 * 1024;
    static constexpr qint64 kLowWater = 64 * 1024;

    // HEAD: the answer's status and fields as they go to the client (the step's modifiers applied, hop-by-hop
    // fields and Content-Length removed); UPSTREAMLENGTH: the upstream's Content-Length (-1: none).
    ForwardStream(LabConnection* connection, UpstreamCall* call, LabResponse head, qint64 upstreamLength,
        bool clientHttp11, bool keepAlive, QObject* parent = nullptr);

    void start(); // writes the head and what body there is
    // The upstream's answer ended. COMPLETE: whole (the last chunk is written, the connection kept or closed
    // as agreed); otherwise the answer is cut: the connection is closed (FIN when the framing shows the
    // cut, RST when only the close delimits the body).
    void end(bool complete);

    const HttpHeaderList& writtenFields() const { return m_fields; }
    int status() const { return m_head.status; }
    qint64 bodyBytesWritten() const { return m_bodyBytes; }
    const QByteArray& excerpt() const { return m_excerpt; }
    // The most bytes this relay ever had waiting in the client's send buffer.
    qint64 peakBufferedBytes() const { return m_peakBuffered; }
    bool keepsConnection() const { return m_keepAlive; }

private:
    void relayBody();
    void onBytesWritten();
    void writeOut(const QByteArray& bytes);

    QPointer<LabConnection> m_connection;
    QPointer<UpstreamCall> m_call;
    LabResponse m_head;
    qint64 m_upstreamLength;
    enum class Framing { None, Length, Chunked, Close } m_framing = Framing::None;
    bool m_keepAlive;
    HttpHeaderList m_fields;
    qint64 m_bodyBytes = 0;
    QByteArray m_excerpt;
    qint64 m_peakBuffered = 0;
    bool m_ended = false;
};
