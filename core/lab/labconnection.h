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
//
// A request with a body is offered at its head first (headReceived): the server may take the body as a stream
// (streamBody(), for a forward step), then the body comes in slices (bodyReceived / takeBodyChunk()) that are
// never held whole, the server can stop the reading while it cannot pass them on (setReadPaused: the bytes
// wait in the kernel and TCP slows the client), and bodyEnded or bodyFailed says how it ended. Otherwise the
// body is read whole, as for every request before, and requestReady comes when it is in.
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

    // What one read from the client takes at most (and the socket's read buffer): a streamed body is held in
    // pieces of at most this size.
    static constexpr qint64 kReadSliceBytes = 256 * 1024;

    // Only from a headReceived() slot: this request's body is streamed, not collected.
    void streamBody();
    bool bodyStreaming() const { return m_streaming; } // a streamed body is still arriving
    QByteArray takeBodyChunk() { return m_parser.takeBodyChunk(); }
    qint64 bodyBytesRead() const { return m_parser.bodyBytesRead(); }
    // Backpressure for a streamed body: nothing is read from the client while paused (nor timed: the lab waits).
    void setReadPaused(bool paused);
    bool isReadPaused() const { return m_readPaused; }
    // A streamed body that broke (bodyFailed) answered by the connection: STATUS with a JSON body, then closed.
    void answerAndClose(int status, const QString& reason);

    void write(const QByteArray& bytes);
    // The current exchange is over: close (FIN after the write buffer drains) or read the next request. While
    // a streamed body is still arriving, its rest is read and dropped first (closing with unread bytes would be
    // an RST that can destroy the answer at the client), for at most the request timeout.
    void finishExchange(bool keepAlive);
    void closeGracefully(); // FIN once written bytes are flushed
    void resetConnection(); // RST: SO_LINGER {1, 0} then close
    void abandon(); // stop reading and answering; keep the socket open until the peer goes (hang, stall)
    // The socket leaves this connection, open, with no parent (a CONNECT turns it into a tunnel): nothing more is
    // read, answered or reported here. UNREAD: bytes read after the last request and not parsed.
    QTcpSocket* releaseSocket(QByteArray* unread);
    // Requests on this connection were sent to ORIGIN through the lab as a proxy (a decrypted CONNECT tunnel).
    void setOrigin(const QString& origin) { m_origin = origin; }
    QString origin() const { return m_origin; }

signals:
    void requestReady(LabConnection* connection, const LabRequest& request);
    // The head of a request with a body is in (HEAD has no body): a slot may call streamBody().
    void headReceived(LabConnection* connection, const LabRequest& head);
    // Streamed body: bytes for takeBodyChunk(); the whole body is in (at COMPLETEMS); it broke, nothing more
    // comes (malformed framing 400, longer than the streamed limit 413, no byte within the request timeout 408).
    void bodyReceived(LabConnection* connection);
    void bodyEnded(LabConnection* connection, qint64 completeMs);
    void bodyFailed(LabConnection* connection, int status, const QString& reason);
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
    void writeRejection(int status, const QString& reason);
    void armTimer();
    qint64 now() const { return m_now ? m_now() : 0; }
    void startRequest(); // the first byte of a request is in
    void stamp(LabRequest& request) const;
    void pumpBody(); // a streamed body: read, parse and hand on slices until paused or ended
    bool onBodyState(HttpRequestParser::State state); // true when the body ended or failed
    void endExchange(bool keepAlive);
    void armBodyTimer();

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
    bool m_streaming = false;
    bool m_readPaused = false;
    bool m_discarding = false; // the answer is over: the rest of the streamed body is read and dropped
    bool m_keepAfterDiscard = false;
    std::function<qint64()> m_now;
    QString m_peerAddress;
    QString m_origin;
    quint16 m_peerPort = 0;
    int m_requests = 0;
    qint64 m_lastReadMs = 0;
    qint64 m_firstByteMs = 0;
    qint64 m_headMs = -1;
    LabResponse m_rejection;
    HttpHeaderList m_rejectionFields;
};
