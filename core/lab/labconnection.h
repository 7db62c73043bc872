// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/httprequestparser.h"
#include "lab/labrequest.h"
#include "lab/labresponse.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <functional>

#include <QTcpSocket>
class QTimer;

// One accepted TCP (or TLS) connection: reads and parses requests one at a time, hands each complete
// request to the server, and offers the byte-level moves the fault steps need (write, FIN, RST).
// Answers malformed or oversized requests itself (4xx + close) and enforces a request-read timeout so a
// slowloris client cannot hold the connection forever.
class LabConnection : public QObject
{
    Q_OBJECT
public:
    struct Timeouts
    {
        std::chrono::milliseconds idle { 30000 }; // keep-alive connection with no request in progress
        std::chrono::milliseconds request { 10000 }; // from the first byte to the end of the request
        std::chrono::milliseconds headers { 10000 }; // from the first byte to the end of the head
    };

    LabConnection(quint64 id, QTcpSocket* socket, HttpParserLimits limits, Timeouts timeouts,
        QObject* parent = nullptr);
    ~LabConnection() override;

    quint64 id() const { return m_id; }
    bool isOpen() const;
    bool isBusy() const { return m_busy; }
    QTcpSocket* socket() const { return m_socket; }

    // The lab's clock, for the times stamped on requests (LabRequest::firstByteMs…).
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }
    QString peerAddress() const { return m_peerAddress; } // kept after the socket is gone
    quint16 peerPort() const { return m_peerPort; }
    int requestsStarted() const { return m_requests; } // requests whose first byte arrived
    // Bytes of a request that is not complete yet have arrived (and it was not answered by the connection).
    bool requestInProgress() const { return !m_busy && !m_rejected && (!m_buffer.isEmpty() || m_parser.inProgress()); }
    LabRequest partialRequest() const; // what has been read of it, or of a rejected one, with its times
    // After closed(): whether the peer closed or reset the connection (not the lab).
    bool closedByPeer() const { return m_closedByPeer; }
    // The answer the connection itself wrote to a rejected request, and its fields as written.
    const LabResponse& rejection() const { return m_rejection; }
    const HttpHeaderList& rejectionFields() const { return m_rejectionFields; }

    void write(const QByteArray& bytes);
    // The current exchange is over: close (FIN after the write buffer drains) or read the next request.
    void finishExchange(bool keepAlive);
    void closeGracefully(); // FIN once written bytes are flushed
    void resetConnection(); // RST: SO_LINGER {1, 0} then close
    void abandon(); // stop reading and answering; keep the socket open until the peer goes (hang, stall)

signals:
    void requestReady(LabConnection* connection, const LabRequest& request);
    // A request was malformed or too large and answered by the connection itself.
    void requestRejected(LabConnection* connection, int status, const QString& reason);
    void closed(LabConnection* connection);
    // The connection was closed by the lab for a reason the peer did not send (idle timeout).
    void closedByLab(LabConnection* connection, const QString& reason);

private:
    void onReadyRead();
    void processBuffer();
    void onTimeout();
    void reject(int status, const QString& reason);
    void armTimer();
    qint64 now() const { return m_now ? m_now() : 0; }
    void startRequest(); // the first byte of a request is in
    void stamp(LabRequest& request) const;

    quint64 m_id;
    QPointer<QTcpSocket> m_socket;
    HttpRequestParser m_parser;
    HttpParserLimits m_limits;
    Timeouts m_timeouts;
    QTimer* m_timer;
    QElapsedTimer m_requestClock; // since the current request's first byte
    QByteArray m_buffer;
    bool m_busy = false;
    bool m_closing = false;
    bool m_closedEmitted = false;
    bool m_closedByPeer = false;
    bool m_rejected = false;
    std::function<qint64()> m_now;
    QString m_peerAddress;
    quint16 m_peerPort = 0;
    int m_requests = 0;
    qint64 m_lastReadMs = 0;
    qint64 m_firstByteMs = 0;
    qint64 m_headMs = -1;
    LabResponse m_rejection;
    HttpHeaderList m_rejectionFields;
};
