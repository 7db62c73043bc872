// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labconnection.h"

#include "lab/labresponse.h"
#include "lab/socketslice.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

#include <algorithm>

using namespace Qt::StringLiterals;

LabConnection::LabConnection(quint64 id, QTcpSocket* socket, HttpParserLimits limits, Timeouts timeouts,
    QObject* parent)
    : QObject(parent)
    , m_id(id)
    , m_socket(socket)
    , m_parser(limits)
    , m_limits(limits)
    , m_timeouts(timeouts)
    , m_timer(new QTimer(this))
{
    socket->setParent(this);
    // Answers go out as written: with Nagle's algorithm a response's second small write waits for the client's
    // (delayed) ACK of the first, up to 40 ms on Linux, a delay the lab would add to what it measures.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // Qt reads no more than this from the kernel before the lab takes it: a body the lab stops reading
    // (backpressure) waits in the kernel, where TCP's window slows the client, not in this process.
    socket->setReadBufferSize(kReadSliceBytes);
    m_parser.setPauseAtHead(true);
    const QHostAddress peer = socket->peerAddress();
    bool mapped = false;
    const quint32 v4 = peer.toIPv4Address(&mapped);
    m_peerAddress = mapped ? QHostAddress(v4).toString() : peer.toString();
    m_peerPort = socket->peerPort();
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &LabConnection::onTimeout);
    connect(socket, &QTcpSocket::readyRead, this, &LabConnection::onReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, [this] {
        m_timer->stop();
        if (!m_closedEmitted) {
            m_closedEmitted = true;
            m_closedByPeer = !m_closing;
            emit closed(this);
        }
    });
    connect(socket, &QAbstractSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket && m_socket->state() == QAbstractSocket::UnconnectedState && !m_closedEmitted) {
            m_closedEmitted = true;
            m_closedByPeer = !m_closing;
            m_timer->stop();
            emit closed(this);
        }
    });
    armTimer();
    // Bytes may already be buffered (TLS sockets hand over after the handshake).
    QTimer::singleShot(0, this, &LabConnection::onReadyRead);
}

LabConnection::~LabConnection() = default;

bool LabConnection::isOpen() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState && !m_closing;
}

void LabConnection::write(const QByteArray& bytes)
{
    if (isOpen())
        m_socket->write(bytes);
}

void LabConnection::armTimer()
{
    if (m_busy || m_closing)
        return;
    const bool midRequest = !m_buffer.isEmpty() || m_parser.inProgress();
    if (!midRequest) {
        m_timer->start(m_timeouts.idle);
        return;
    }
    if (!m_requestClock.isValid())
        m_requestClock.start();
    // The head has its own (usually shorter) budget; the whole request the longer one.
    const std::chrono::milliseconds budget
        = m_parser.headComplete() ? m_timeouts.request : std::min(m_timeouts.headers, m_timeouts.request);
    const std::chrono::milliseconds left = budget - std::chrono::milliseconds(m_requestClock.elapsed());
    m_timer->start(std::max(left, std::chrono::milliseconds(0)));
}

void LabConnection::onReadyRead()
{
    if (!m_socket || m_closing)
        return;
    if (m_streaming) {
        pumpBody();
        return;
    }
    const bool wasEmpty = m_buffer.isEmpty() && !m_parser.inProgress();
    m_buffer += SocketSlice::take(*m_socket, kReadSliceBytes);
    m_lastReadMs = now();
    // While an answer is playing, pipelined bytes wait; a client that floods instead is cut off.
    if (m_buffer.size() > m_limits.maxHeaderBytes + m_limits.maxBodyBytes + m_limits.maxRequestLine) {
        if (m_busy) {
            resetConnection();
            return;
        }
    }
    if (m_busy)
        return;
    if (wasEmpty && !m_buffer.isEmpty()) {
        m_requestClock.start(); // the request-read clock starts at its first byte
        startRequest();
    }
    processBuffer();
    armTimer(); // the head may have been completed: the body's budget applies from now on
}

void LabConnection::processBuffer()
{
    if (m_busy || m_closing || m_buffer.isEmpty())
        return;
    HttpRequestParser::State state = m_parser.feed(m_buffer);
    // The bytes parsed arrived with the last read at the latest (pipelined ones earlier).
    if (m_headMs < 0 && m_parser.headComplete())
        m_headMs = m_lastReadMs;
    if (state == HttpRequestParser::State::HeadComplete) {
        LabRequest head = m_parser.partial();
        stamp(head);
        emit headReceived(this, head);
        if (m_closing || !m_socket)
            return;
        // RFC 9110 §10.1.1: a client waiting for 100 (Continue) gets it once the lab is going to read the body
        // (not when the head alone decides: a Content-Length over the limit is refused at once, below).
        const bool willRead = m_streaming || head.contentLength <= m_limits.maxBodyBytes;
        if (willRead && head.minorVersion == 1 && m_buffer.isEmpty()
            && combinedHeader(head.headers, "Expect").trimmed().compare("100-continue", Qt::CaseInsensitive) == 0)
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        if (m_streaming) {
            pumpBody();
            return;
        }
        state = m_parser.feed(m_buffer);
    }
    switch (state) {
    case HttpRequestParser::State::NeedMore:
    case HttpRequestParser::State::HeadComplete:
        return;
    case HttpRequestParser::State::Failed:
        reject(m_parser.errorStatus(), m_parser.errorReason());
        return;
    case HttpRequestParser::State::Complete: {
        m_timer->stop();
        m_requestClock.invalidate();
        m_busy = true;
        if (m_headMs < 0)
            m_headMs = m_lastReadMs;
        LabRequest request = m_parser.takeRequest();
        stamp(request);
        request.completeMs = m_lastReadMs;
        emit requestReady(this, request);
        return;
    }
    }
}

void LabConnection::streamBody()
{
    if (m_streaming || m_busy || m_parser.state() != HttpRequestParser::State::HeadComplete)
        return;
    m_parser.streamBody();
    m_streaming = true;
    m_busy = true; // the server has the request; the request clock gives way to the body's own timer
    m_requestClock.invalidate();
    m_timer->stop();
}

void LabConnection::setReadPaused(bool paused)
{
    if (m_readPaused == paused)
        return;
    m_readPaused = paused;
    if (!m_streaming || m_discarding)
        return;
    if (paused) {
        m_timer->stop(); // the lab is the one waiting
        return;
    }
    armBodyTimer();
    QTimer::singleShot(0, this, [this] {
        if (m_streaming && !m_readPaused)
            pumpBody();
    });
}

void LabConnection::armBodyTimer()
{
    // Between two reads of a streamed body (a 1 GiB upload may take longer than any whole-request budget);
    // while dropping the rest of one, the whole rest.
    if (!m_discarding)
        m_timer->start(m_timeouts.request);
}

void LabConnection::pumpBody()
{
    while (m_streaming && m_socket && !m_closing && (m_discarding || !m_readPaused)) {
        if (!m_buffer.isEmpty()) {
            const HttpRequestParser::State state = m_parser.feed(m_buffer);
            if (onBodyState(state))
                return;
            // The slot may have paused or closed us; the buffer now holds at most a partial framing line.
            if (!m_streaming || m_closing || (!m_discarding && m_readPaused))
                return;
        }
        const QByteArray bytes = SocketSlice::take(*m_socket, kReadSliceBytes);
        if (bytes.isEmpty())
            return;
        m_buffer += bytes;
        m_lastReadMs = now();
        armBodyTimer();
    }
}

bool LabConnection::onBodyState(HttpRequestParser::State state)
{
    if (m_parser.hasBodyChunk() && !m_discarding)
        emit bodyReceived(this);
    (void)m_parser.takeBodyChunk(); // dropped: what is discarded, or what the slot left (it had its turn)
    switch (state) {
    case HttpRequestParser::State::NeedMore:
    case HttpRequestParser::State::HeadComplete:
        return false;
    case HttpRequestParser::State::Failed:
        m_streaming = false;
        m_timer->stop();
        if (m_discarding)
            closeGracefully();
        else
            emit bodyFailed(this, m_parser.errorStatus(), m_parser.errorReason());
        return true;
    case HttpRequestParser::State::Complete:
        m_streaming = false;
        m_timer->stop();
        (void)m_parser.takeRequest(); // its head went out at HeadComplete; the parser is ready for the next one
        if (m_discarding) {
            m_discarding = false;
            m_busy = true;
            endExchange(m_keepAfterDiscard);
        } else {
            emit bodyEnded(this, m_lastReadMs);
        }
        return true;
    }
    return false;
}

void LabConnection::answerAndClose(int status, const QString& reason)
{
    m_streaming = false;
    writeRejection(status, reason);
    closeGracefully();
}

void LabConnection::writeRejection(int status, const QString& reason)
{
    const QString error = status == 408 ? u"request_timeout"_s
        : status == 413                 ? u"content_too_large"_s
        : status == 414                 ? u"uri_too_long"_s
        : status == 431                 ? u"header_fields_too_large"_s
                                        : u"bad_request"_s;
    m_rejection = LabResponse::json(status,
        QJsonDocument(QJsonObject { { u"error"_s, error }, { u"detail"_s, reason } }).toJson(QJsonDocument::Compact));
    m_rejectionFields = m_rejection.headFields(false);
    m_rejected = true;
    write(LabResponse::serializeHead(status, m_rejectionFields) + m_rejection.body);
}

void LabConnection::finishExchange(bool keepAlive)
{
    if (!m_busy)
        return;
    if (m_streaming) { // the answer is over before the body: its rest is read and dropped, then on as agreed
        m_discarding = true;
        m_keepAfterDiscard = keepAlive;
        m_timer->start(m_timeouts.request);
        QTimer::singleShot(0, this, &LabConnection::pumpBody);
        return;
    }
    endExchange(keepAlive);
}

void LabConnection::endExchange(bool keepAlive)
{
    if (!m_busy)
        return;
    m_busy = false;
    if (!keepAlive) {
        closeGracefully();
        return;
    }
    if (!isOpen())
        return;
    if (!m_buffer.isEmpty()) { // a pipelined request: its clock starts now
        m_requestClock.start();
        startRequest();
    }
    armTimer();
    if (!m_buffer.isEmpty())
        QTimer::singleShot(0, this, &LabConnection::processBuffer);
}

void LabConnection::startRequest()
{
    ++m_requests;
    m_firstByteMs = m_lastReadMs;
    m_headMs = -1;
}

void LabConnection::stamp(LabRequest& request) const
{
    request.connectionId = m_id;
    request.onConnection = std::max(1, m_requests);
    request.firstByteMs = m_firstByteMs;
    request.headMs = m_headMs >= 0 ? m_headMs : m_lastReadMs;
    if (!m_origin.isEmpty())
        request.origin = m_origin;
}

LabRequest LabConnection::partialRequest() const
{
    LabRequest request = m_parser.partial();
    stamp(request);
    if (m_headMs < 0)
        request.headMs = m_firstByteMs; // the head never arrived: its first byte is all there is
    return request;
}

void LabConnection::reject(int status, const QString& reason)
{
    writeRejection(status, reason);
    emit requestRejected(this, status, reason);
    closeGracefully();
}

void LabConnection::onTimeout()
{
    if (m_closing)
        return;
    if (m_streaming && m_discarding) {
        closeGracefully(); // the rest of a body nobody needs took too long
        return;
    }
    if (m_streaming) {
        m_streaming = false;
        emit bodyFailed(this, 408,
            u"request body: no byte for %1 ms after %2 bytes (request timeout)"_s.arg(m_timeouts.request.count())
                .arg(m_parser.bodyBytesRead()));
        return;
    }
    if (m_busy)
        return;
    if (m_buffer.isEmpty() && !m_parser.inProgress()) {
        emit closedByLab(this, u"idle for %1 ms (idle timeout)"_s.arg(m_timeouts.idle.count()));
        closeGracefully(); // idle keep-alive connection
        return;
    }
    if (m_parser.headComplete())
        reject(408, u"request body not received within %1 ms (request timeout)"_s.arg(m_timeouts.request.count()));
    else
        reject(408, u"request head not received within %1 ms (header timeout)"_s.arg(std::min(m_timeouts.headers, m_timeouts.request).count()));
}

void LabConnection::closeGracefully()
{
    if (!m_socket || m_closing)
        return;
    m_closing = true;
    m_timer->stop();
    m_socket->disconnectFromHost();
    // A peer that never reads could keep unflushed bytes (and us) forever: cut it off after a grace period.
    QTimer::singleShot(std::chrono::seconds(5), this, [this] {
        if (m_socket && m_socket->state() != QAbstractSocket::UnconnectedState)
            m_socket->abort();
    });
}

void LabConnection::resetConnection()
{
    if (!m_socket)
        return;
    m_closing = true;
    m_timer->stop();
    const qintptr fd = m_socket->socketDescriptor();
    if (fd >= 0) {
        struct linger lingerOption { };
        lingerOption.l_onoff = 1;
        lingerOption.l_linger = 0;
        ::setsockopt(static_cast<int>(fd), SOL_SOCKET, SO_LINGER, &lingerOption, sizeof lingerOption);
    }
    m_socket->abort();
}

QTcpSocket* LabConnection::releaseSocket(QByteArray* unread)
{
    QTcpSocket* socket = m_socket;
    m_timer->stop();
    m_busy = true;
    m_closing = true;
    m_closedEmitted = true; // the socket lives on elsewhere: this connection never reports a close
    if (!socket)
        return nullptr;
    disconnect(socket, nullptr, this, nullptr);
    if (unread)
        *unread = m_buffer;
    m_buffer.clear();
    m_socket = nullptr;
    socket->setParent(nullptr);
    return socket;
}

void LabConnection::abandon()
{
    m_timer->stop();
    m_busy = true; // nothing more is parsed or answered
}
