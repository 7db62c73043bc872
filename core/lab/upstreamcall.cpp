// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/upstreamcall.h"

#include "lab/socketslice.h"
#include "lab/upstreamresponsereader.h"

#include <QCoreApplication>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTimer>

#include <sys/socket.h>

#include <utility>

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kReadSliceBytes = 128 * 1024;
}

UpstreamCall::UpstreamCall(const UpstreamTarget& target, QByteArray request, bool headRequest,
    std::function<qint64()> nowMs, QTcpSocket* reused, QObject* parent)
    : QObject(parent)
    , m_target(target)
    , m_request(std::move(request))
    , m_now(std::move(nowMs))
    , m_socket(reused ? reused : target.isTls() ? new QSslSocket(this) : new QTcpSocket(this))
    , m_timer(new QTimer(this))
    , m_reader(std::make_unique<UpstreamResponseReader>(qsizetype(target.maxBodyBytes), headRequest))
{
    m_reused = reused != nullptr;
    m_socket->setParent(this);
    // Read in slices: an upstream sending as fast as it can (an endless body) is taken a slice per event,
    // so the other connections are served in between, and no single read holds megabytes.
    m_socket->setReadBufferSize(kReadSliceBytes);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        fail(u"timeout"_s, tr("the upstream did not answer within %1 ms").arg(m_target.timeout.count()));
    });
    connect(m_socket, &QAbstractSocket::connected, this, [this] {
        m_result.connectedMs = m_now();
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        if (!m_target.isTls())
            onConnected();
    });
    if (auto* tls = qobject_cast<QSslSocket*>(m_socket)) {
        connect(tls, &QSslSocket::encrypted, this, [this] {
            m_result.tlsMs = m_now();
            onConnected();
        });
        connect(tls, &QSslSocket::sslErrors, this, [this](const QList<QSslError>& errors) {
            QStringList texts;
            for (const QSslError& e : errors)
                texts << e.errorString();
            m_tlsErrors = texts.join(u"; "_s);
        });
    }
    connect(m_socket, &QIODevice::readyRead, this, &UpstreamCall::onReadyRead);
    connect(m_socket, &QIODevice::bytesWritten, this, [this] {
        if (!m_requestStreaming || m_done)
            return;
        if (!m_bodyEnded)
            m_timer->start(m_target.timeout); // the upstream takes the body: progress
        emit requestBytesWritten();
    });
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &UpstreamCall::onError);
    connect(m_socket, &QAbstractSocket::disconnected, this, &UpstreamCall::onError);
}

UpstreamCall::~UpstreamCall() = default;

void UpstreamCall::start()
{
    m_timer->start(m_target.timeout);
    if (m_reused) { // already connected: its connect time is now
        m_result.connectedMs = m_now();
        onConnected();
        return;
    }
    const QString host = m_target.base.host();
    const QString connectHost = m_target.connectHost.isEmpty() ? host : m_target.connectHost;
    const quint16 connectPort = m_target.connectHost.isEmpty() ? m_target.port() : m_target.connectPort;
    if (!m_target.isTls()) {
        m_socket->connectToHost(connectHost, connectPort);
        return;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration(); // the system's CAs
    if (!m_target.caFile.isEmpty())
        config.addCaCertificates(m_target.caFile, QSsl::Pem);
    config.setAllowedNextProtocols({ QSslConfiguration::NextProtocolHttp1_1 });
    config.setPeerVerifyMode(m_target.insecure ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
    auto* tls = static_cast<QSslSocket*>(m_socket);
    tls->setSslConfiguration(config);
    tls->connectToHostEncrypted(connectHost, connectPort, host);
}

void UpstreamCall::abort()
{
    m_done = true;
    m_timer->stop();
    if (m_requestStreaming && !m_bodyEnded && m_socket->socketDescriptor() >= 0) {
        // Mid-body: an RST, so the upstream cannot take a FIN after a short chunked or length body for its end.
        struct linger lingerOption { };
        lingerOption.l_onoff = 1;
        lingerOption.l_linger = 0;
        ::setsockopt(int(m_socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &lingerOption, sizeof lingerOption);
    }
    m_socket->abort();
}

void UpstreamCall::sendBody(const QByteArray& framed)
{
    if (m_done || m_bodyEnded || framed.isEmpty())
        return;
    if (m_writing)
        m_socket->write(framed);
    else
        m_request += framed;
    m_timer->start(m_target.timeout); // the client sent more: progress
}

void UpstreamCall::endBody()
{
    if (m_done || m_bodyEnded)
        return;
    m_bodyEnded = true;
    m_timer->start(m_target.timeout); // the answer's budget starts with the body sent
}

qint64 UpstreamCall::unsentRequestBytes() const
{
    return m_writing ? m_socket->bytesToWrite() : m_request.size();
}

void UpstreamCall::setPaused(bool paused)
{
    if (m_paused == paused)
        return;
    m_paused = paused;
    if (!paused) // what arrived meanwhile (and a close that waited behind it)
        QTimer::singleShot(0, this, [this] {
            onReadyRead();
            if (!m_done && m_socket->state() == QAbstractSocket::UnconnectedState)
                onError();
        });
}

QByteArray UpstreamCall::takeBody()
{
    return m_reader->takeBody();
}

void UpstreamCall::onConnected()
{
    m_writing = true;
    m_socket->write(std::exchange(m_request, {}));
}

void UpstreamCall::onReadyRead()
{
    if (m_done || m_paused)
        return;
    const QByteArray bytes = SocketSlice::take(*m_socket, kReadSliceBytes);
    if (bytes.isEmpty())
        return;
    if (!m_result.firstByteMs)
        m_result.firstByteMs = m_now();
    const UpstreamResponseReader::State state = m_reader->feed(bytes);
    if (m_streaming && m_reader->headComplete() && state != UpstreamResponseReader::State::Garbage
        && state != UpstreamResponseReader::State::TooLarge) {
        if (!m_headEmitted) {
            m_headEmitted = true;
            m_result.status = m_reader->status();
            m_result.headers = m_reader->headers();
            emit headReceived();
            if (m_done)
                return;
        }
        if (!m_reader->body().isEmpty()) {
            emit bodyReceived();
            if (m_done)
                return;
        }
    }
    switch (state) {
    case UpstreamResponseReader::State::NeedMore:
        if (m_paused)
            return; // resuming reads on (setPaused)
        if (m_socket->bytesAvailable() > 0) // a slice left bytes behind: the rest, next turn
            QTimer::singleShot(0, this, &UpstreamCall::onReadyRead);
        else if (m_socket->state() == QAbstractSocket::UnconnectedState) // the close waited behind the bytes
            QTimer::singleShot(0, this, &UpstreamCall::onError);
        return;
    case UpstreamResponseReader::State::Complete:
        succeed();
        return;
    case UpstreamResponseReader::State::Garbage:
        fail(u"garbage"_s, m_reader->problem());
        return;
    case UpstreamResponseReader::State::TooLarge:
        fail(u"too_large"_s, m_reader->problem());
        return;
    }
}

void UpstreamCall::onError()
{
    if (m_done)
        return;
    if (m_paused && m_socket->bytesAvailable() > 0)
        return; // the bytes before the end are relayed first; resuming comes back here
    while (!m_done && !m_paused && m_socket->bytesAvailable() > 0)
        onReadyRead(); // what arrived before the end still counts
    if (m_done || m_paused)
        return;
    const QAbstractSocket::SocketError error = m_socket->error();
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        fail(u"refused"_s, tr("the upstream %1 refused the connection").arg(m_target.base.authority()));
        return;
    case QAbstractSocket::HostNotFoundError:
        fail(u"dns"_s, tr("the upstream host %1 was not found").arg(m_target.base.host()));
        return;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
        fail(u"tls"_s, tr("TLS with the upstream failed: %1").arg(m_tlsErrors.isEmpty() ? m_socket->errorString() : m_tlsErrors));
        return;
    case QAbstractSocket::RemoteHostClosedError:
    case QAbstractSocket::UnknownSocketError: // disconnected() without an error
        if (m_target.isTls() && !m_result.tlsMs && !m_reused) {
            fail(u"tls"_s, tr("the upstream closed the connection during the TLS handshake"));
            return;
        }
        if (m_reader->finishAtEof() == UpstreamResponseReader::State::Complete) {
            succeed();
            return;
        }
        fail(m_reader->headComplete() || !m_result.firstByteMs ? u"reset"_s : u"garbage"_s, m_reader->problem());
        return;
    default:
        fail(u"reset"_s, tr("the connection to the upstream broke: %1").arg(m_socket->errorString()));
        return;
    }
}

void UpstreamCall::fail(const QString& error, const QString& detail)
{
    if (m_done)
        return;
    m_done = true;
    m_timer->stop();
    m_result.ok = false;
    m_result.error = error;
    m_result.detail = detail;
    m_result.endMs = m_now();
    m_socket->abort();
    emit finished(m_result);
}

QTcpSocket* UpstreamCall::takeReusableConnection()
{
    if (!m_reusable || m_socket->state() != QAbstractSocket::ConnectedState)
        return nullptr;
    m_reusable = false;
    disconnect(m_socket, nullptr, this, nullptr);
    QTcpSocket* socket = m_socket;
    m_socket = new QTcpSocket(this); // a spare, so this call never touches the given one again
    socket->setParent(nullptr);
    return socket;
}

void UpstreamCall::succeed()
{
    if (m_done)
        return;
    m_done = true;
    m_timer->stop();
    m_result.ok = true;
    m_result.status = m_reader->status();
    m_result.headers = m_reader->headers();
    if (!m_streaming)
        m_result.body = m_reader->body();
    m_result.endMs = m_now();
    // An answer before the whole body was sent: the rest of the body cannot follow on this connection.
    m_reusable = m_reader->connectionReusable() && bodyEnded();
    if (!m_reusable)
        m_socket->abort();
    emit finished(m_result);
}
