// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/httprequestparser.h"
#include "lab/labrequest.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <chrono>

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
};
