// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/uploadstream.h"

#include "lab/labconnection.h"
#include "lab/upstreamcall.h"

UploadStream::UploadStream(LabConnection* connection, UpstreamCall* call, qint64 contentLength, qsizetype keepBytes,
    QObject* parent)
    : QObject(parent)
    , m_connection(connection)
    , m_call(call)
    , m_contentLength(contentLength)
    , m_keepBytes(keepBytes)
{
}

void UploadStream::start()
{
    if (m_call)
        connect(m_call, &UpstreamCall::requestBytesWritten, this, &UploadStream::onUpstreamWritten);
    if (!m_connection)
        return;
    connect(m_connection, &LabConnection::bodyReceived, this, &UploadStream::onBody);
    connect(m_connection, &LabConnection::bodyEnded, this, [this](LabConnection*, qint64 completeMs) {
        m_completeMs = completeMs;
        if (m_call) {
            if (m_contentLength < 0)
                m_call->sendBody(QByteArrayLiteral("0\r\n\r\n"));
            m_call->endBody();
        }
        emit ended(this);
    });
    connect(m_connection, &LabConnection::bodyFailed, this,
        [this](LabConnection*, int status, const QString& reason) { emit failed(this, status, reason); });
}

QByteArray UploadStream::sha256Hex() const
{
    return m_hash.result().toHex(); // read once the exchange ends: nothing is added after
}

QString UploadStream::progress() const
{
    return m_contentLength >= 0 ? tr("%1 of %2 body bytes").arg(m_bytes).arg(m_contentLength)
                                : tr("%1 body bytes (chunked)").arg(m_bytes);
}

void UploadStream::onBody()
{
    if (!m_connection)
        return;
    const QByteArray bytes = m_connection->takeBodyChunk();
    if (bytes.isEmpty())
        return;
    m_bytes += bytes.size();
    m_hash.addData(bytes);
    if (m_kept.size() < m_keepBytes)
        m_kept += QByteArrayView(bytes).first(std::min<qsizetype>(bytes.size(), m_keepBytes - m_kept.size()));
    if (!m_call)
        return;
    if (m_contentLength < 0)
        m_call->sendBody(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
    else
        m_call->sendBody(bytes);
    const qint64 unsent = m_call->unsentRequestBytes();
    m_peakUnsent = std::max(m_peakUnsent, unsent);
    if (unsent > kHighWater)
        m_connection->setReadPaused(true);
}

void UploadStream::onUpstreamWritten()
{
    if (m_connection && m_connection->isReadPaused() && (!m_call || m_call->unsentRequestBytes() < kLowWater))
        m_connection->setReadPaused(false);
}
