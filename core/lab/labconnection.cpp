// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labconnection.h"

#include "lab/labresponse.h"

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
    const bool wasEmpty = m_buffer.isEmpty() && !m_parser.inProgress();
    m_buffer += m_socket->readAll();
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
    const HttpRequestParser::State state = m_parser.feed(m_buffer);
    // The bytes parsed arrived with the last read at the latest (pipelined ones earlier).
    if (m_headMs < 0 && m_parser.headComplete())
        m_headMs = m_lastReadMs;
    switch (state) {
    case HttpRequestParser::State::NeedMore:
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

void LabConnection::finishExchange(bool keepAlive)
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
    emit requestRejected(this, status, reason);
    closeGracefully();
}

void LabConnection::onTimeout()
{
    if (m_busy || m_closing)
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

void LabConnection::abandon()
{
    m_timer->stop();
    m_busy = true; // nothing more is parsed or answered
}
