// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QCryptographicHash>
#include <QObject>
#include <QPointer>

#include <optional>

class LabConnection;
class UpstreamCall;

// The client's request body relayed to the upstream as it arrives (a `forward` step, issue 12 §1) — the
// request direction of ForwardStream. The upstream request starts at the client's head; each de-chunked
// slice the connection parses goes on at once: as it is under the client's Content-Length, re-chunked when the
// client sent it chunked (RFC 9112 §7.1; trailer fields are dropped), ended by the last chunk. Backpressure:
// while more than kHighWater bytes wait to be taken by the upstream's kernel the client is not read
// (LabConnection::setReadPaused), so a slow upstream slows the client instead of growing the lab's memory.
// Size and SHA-256 are computed on the way, and the first keepBytes kept, for the exchange record.
class UploadStream : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kHighWater = 256 * 1024;
    static constexpr qint64 kLowWater = 64 * 1024;

    // CONTENTLENGTH: the client's, -1 for a chunked body.
    UploadStream(LabConnection* connection, UpstreamCall* call, qint64 contentLength, qsizetype keepBytes,
        QObject* parent = nullptr);

    void start();

    bool isEnded() const { return m_completeMs.has_value(); } // the whole body arrived and was passed on
    std::optional<qint64> completeMs() const { return m_completeMs; }
    qint64 bytes() const { return m_bytes; }
    QByteArray sha256Hex() const; // of the bytes so far; no more may come after it is read
    const QByteArray& kept() const { return m_kept; }
    bool keptTruncated() const { return m_bytes > m_kept.size(); }
    qint64 contentLength() const { return m_contentLength; }
    // "N of M body bytes" (or "N body bytes" for a chunked one): how far it came.
    QString progress() const;
    // The most request bytes this relay ever had waiting for the upstream's kernel.
    qint64 peakUnsentBytes() const { return m_peakUnsent; }

signals:
    void ended(UploadStream* stream);
    void failed(UploadStream* stream, int status, const QString& reason);

private:
    void onBody();
    void onUpstreamWritten();

    QPointer<LabConnection> m_connection;
    QPointer<UpstreamCall> m_call;
    qint64 m_contentLength;
    qsizetype m_keepBytes;
    qint64 m_bytes = 0;
    mutable QCryptographicHash m_hash { QCryptographicHash::Sha256 };
    QByteArray m_kept;
    qint64 m_peakUnsent = 0;
    std::optional<qint64> m_completeMs;
};
