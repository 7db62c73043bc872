// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/forwardstream.h"

#include "lab/labconnection.h"
#include "lab/labexchange.h"
#include "lab/upstreamcall.h"

#include <QTcpSocket>

ForwardStream::ForwardStream(LabConnection* connection, UpstreamCall* call, LabResponse head, qint64 upstreamLength,
    bool clientHttp11, bool keepAlive, QObject* parent)
    : QObject(parent)
    , m_connection(connection)
    , m_call(call)
    , m_head(std::move(head))
    , m_upstreamLength(upstreamLength)
    , m_keepAlive(keepAlive)
{
    if (!m_head.carriesContent())
        m_framing = Framing::None; // HEAD, 204, 304: the head alone (a HEAD keeps the announced length)
    else if (upstreamLength >= 0)
        m_framing = Framing::Length;
    else if (clientHttp11)
        m_framing = Framing::Chunked;
    else
        m_framing = Framing::Close;
    if (m_framing == Framing::Close)
        m_keepAlive = false;
}

void ForwardStream::start()
{
    HttpHeaderList fields = m_head.headFields(m_keepAlive, qsizetype(std::max<qint64>(m_upstreamLength, 0)));
    const auto contentLength = std::find_if(fields.begin(), fields.end(),
        [](const auto& f) { return f.first.compare("Content-Length", Qt::CaseInsensitive) == 0; });
    const bool announce = m_framing == Framing::Length || (m_framing == Framing::None && m_upstreamLength >= 0
                                                               && m_head.headRequest);
    if (contentLength != fields.end()) {
        if (m_framing == Framing::Chunked)
            *contentLength = { "Transfer-Encoding", "chunked" };
        else if (!announce)
            fields.erase(contentLength);
    }
    m_fields = fields;
    if (m_connection && m_connection->socket()) {
        connect(m_connection->socket(), &QIODevice::bytesWritten, this, &ForwardStream::onBytesWritten);
        m_connection->write(LabResponse::serializeHead(m_head.status, m_fields));
    }
    if (m_call)
        connect(m_call, &UpstreamCall::bodyReceived, this, &ForwardStream::relayBody);
    relayBody();
}

void ForwardStream::writeOut(const QByteArray& bytes)
{
    if (!m_connection)
        return;
    m_connection->write(bytes);
    if (QTcpSocket* socket = m_connection->socket())
        m_peakBuffered = std::max(m_peakBuffered, socket->bytesToWrite());
}

void ForwardStream::relayBody()
{
    if (!m_call || m_ended)
        return;
    const QByteArray bytes = m_call->takeBody();
    if (bytes.isEmpty() || m_framing == Framing::None)
        return;
    if (m_excerpt.size() < LabExchange::responseExcerptCap)
        m_excerpt += QByteArrayView(bytes).first(std::min(bytes.size(), LabExchange::responseExcerptCap - m_excerpt.size()));
    m_bodyBytes += bytes.size();
    if (m_framing == Framing::Chunked)
        writeOut(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
    else
        writeOut(bytes);
    QTcpSocket* socket = m_connection ? m_connection->socket() : nullptr;
    if (socket && socket->bytesToWrite() > kHighWater)
        m_call->setPaused(true);
}

void ForwardStream::onBytesWritten()
{
    QTcpSocket* socket = m_connection ? m_connection->socket() : nullptr;
    if (m_call && m_call->isPaused() && socket && socket->bytesToWrite() < kLowWater)
        m_call->setPaused(false);
}

void ForwardStream::end(bool complete)
{
    if (m_ended)
        return;
    relayBody();
    m_ended = true;
    if (!m_connection)
        return;
    if (complete) {
        if (m_framing == Framing::Chunked)
            m_connection->write("0\r\n\r\n");
        m_connection->finishExchange(m_keepAlive);
        return;
    }
    if (m_framing == Framing::Close) {
        // Only the close delimits this body: a FIN would tell the client it had all of it.
        if (QTcpSocket* socket = m_connection->socket())
            socket->flush();
        m_connection->resetConnection();
    } else {
        m_connection->closeGracefully(); // short of its length, or without the last chunk: visibly cut
    }
}
