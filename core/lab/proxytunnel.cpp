// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/proxytunnel.h"

#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kSlice = 256 * 1024; // what one side holds for the other at most: beyond it, reading stops
constexpr char kTlsHandshakeRecord = 0x16;

QByteArray established()
{
    // RFC 9110 §9.3.6: no Content-Length or Transfer-Encoding in a 2xx to CONNECT.
    return QByteArrayLiteral("HTTP/1.1 200 Connection Established\r\n\r\n");
}

} // namespace

ProxyTunnel::ProxyTunnel(QSslSocket* client, const QByteArray& unread, const QString& host, quint16 port, QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_unread(unread)
    , m_host(host)
    , m_port(port)
    , m_timer(new QTimer(this))
{
    client->setParent(this);
    client->setReadBufferSize(kSlice);
    m_timer->setSingleShot(true);
    connect(client, &QAbstractSocket::disconnected, this, [this] {
        if (m_upstream)
            endRelay();
        else
            fail(tr("the client closed the tunnel before it was set up"));
    });
}

ProxyTunnel::~ProxyTunnel() = default;

QString ProxyTunnel::authority() const
{
    return (m_host.contains(u':') ? u'[' + m_host + u']' : m_host) + u':' + QString::number(m_port);
}

void ProxyTunnel::intercept(const Leaf& leaf, int timeoutMs)
{
    if (!m_unread.isEmpty()) {
        // Bytes sent before the 2xx were read as HTTP and cannot be given back to the TLS layer.
        fail(tr("the client sent %1 bytes before the proxy accepted the CONNECT").arg(m_unread.size()));
        return;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificateChain(
        leaf.issuer.isNull() ? QList<QSslCertificate> { leaf.certificate } : QList<QSslCertificate> { leaf.certificate, leaf.issuer });
    config.setPrivateKey(leaf.key);
    config.setPeerVerifyMode(QSslSocket::VerifyNone);
    config.setAllowedNextProtocols({ QByteArrayLiteral("http/1.1") }); // never HTTP/2: the lab reads HTTP/1.1
    m_client->setSslConfiguration(config);
    connect(m_timer, &QTimer::timeout, this, [this] {
        fail(m_tls ? tr("the client's TLS handshake did not finish in time")
                   : tr("the client sent nothing after the proxy accepted the CONNECT"));
    });
    m_timer->start(timeoutMs);
    connect(m_client, &QIODevice::readyRead, this, &ProxyTunnel::onFirstBytes);
    connect(m_client, &QSslSocket::encrypted, this, &ProxyTunnel::onEncrypted);
    connect(m_client, &QAbstractSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        if (error == QAbstractSocket::RemoteHostClosedError && !m_tls)
            return; // disconnected() says it
        QString why = m_client ? m_client->errorString() : QString();
        if (m_tls)
            why = tr("TLS handshake with the client failed (did it trust the Retrylab CA?): %1").arg(why);
        fail(why);
    });
    m_client->write(established());
}

void ProxyTunnel::onFirstBytes()
{
    if (m_done || m_tls || !m_client)
        return;
    char first = 0;
    if (m_client->peek(&first, 1) != 1)
        return;
    disconnect(m_client, &QIODevice::readyRead, this, &ProxyTunnel::onFirstBytes);
    if (first == kTlsHandshakeRecord) {
        m_tls = true;
        m_client->startServerEncryption();
        return;
    }
    handOver(u"http://"_s); // plain HTTP inside the tunnel (undici sends http:// through CONNECT as well)
}

void ProxyTunnel::onEncrypted()
{
    if (!m_done && m_client)
        handOver(u"https://"_s);
}

void ProxyTunnel::handOver(const QString& scheme)
{
    m_done = true;
    m_timer->stop();
    QSslSocket* socket = m_client;
    disconnect(socket, nullptr, this, nullptr);
    socket->setParent(nullptr);
    m_client = nullptr;
    emit intercepted(socket, scheme + authority());
    deleteLater(); // its work is done: the socket is a lab connection now
}

void ProxyTunnel::relay(const QString& connectHost, quint16 connectPort, int connectTimeoutMs)
{
    m_upstream = new QTcpSocket(this);
    m_upstream->setReadBufferSize(kSlice);
    connect(m_timer, &QTimer::timeout, this, [this, connectHost, connectPort] {
        if (m_upstream && m_upstream->state() != QAbstractSocket::ConnectedState) {
            const QString why = tr("could not connect to %1:%2 in time").arg(connectHost).arg(connectPort);
            if (m_client) {
                m_client->write("HTTP/1.1 504 Gateway Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                m_client->disconnectFromHost();
            }
            fail(why);
        }
    });
    m_timer->start(connectTimeoutMs);
    connect(m_upstream, &QAbstractSocket::connected, this, [this] {
        m_timer->stop();
        if (!m_client)
            return;
        // A relay passes bytes on as they come: no Nagle delay on either side (LabConnection says why).
        m_upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_client->write(established());
        if (!m_unread.isEmpty()) {
            m_up += m_unread.size();
            m_upstream->write(m_unread);
            m_unread.clear();
        }
        connect(m_client, &QIODevice::readyRead, this, [this] { pump(m_client, m_upstream, m_up); });
        connect(m_upstream, &QIODevice::readyRead, this, [this] { pump(m_upstream, m_client, m_down); });
        connect(m_client, &QIODevice::bytesWritten, this, [this] { pump(m_upstream, m_client, m_down); });
        connect(m_upstream, &QIODevice::bytesWritten, this, [this] { pump(m_client, m_upstream, m_up); });
        pump(m_client, m_upstream, m_up);
    });
    connect(m_upstream, &QAbstractSocket::disconnected, this, &ProxyTunnel::endRelay);
    connect(m_upstream, &QAbstractSocket::errorOccurred, this, [this, connectHost, connectPort](QAbstractSocket::SocketError) {
        if (m_upstream && m_upstream->state() == QAbstractSocket::ConnectedState)
            return;
        if (m_done)
            return;
        if (m_up == 0 && m_down == 0 && m_client && m_client->bytesToWrite() == 0) {
            // Never connected: the client hears why, in HTTP, and the tunnel never opens.
            const QByteArray body = tr("retrylab: cannot reach %1:%2: %3\n")
                                        .arg(connectHost)
                                        .arg(connectPort)
                                        .arg(m_upstream->errorString())
                                        .toUtf8();
            m_client->write("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
            m_client->disconnectFromHost();
            fail(tr("cannot reach %1:%2: %3").arg(connectHost).arg(connectPort).arg(m_upstream->errorString()));
            return;
        }
        endRelay();
    });
    m_upstream->connectToHost(connectHost, connectPort);
}

void ProxyTunnel::pump(QTcpSocket* from, QTcpSocket* to, qint64& counter)
{
    if (!from || !to || m_done)
        return;
    while (from->bytesAvailable() > 0 && to->bytesToWrite() < kSlice) {
        const QByteArray bytes = from->read(kSlice - to->bytesToWrite());
        if (bytes.isEmpty())
            break;
        counter += bytes.size();
        to->write(bytes);
    }
}

void ProxyTunnel::endRelay()
{
    if (m_done)
        return;
    m_done = true;
    // What one side already sent goes out before the other is closed.
    if (m_client && m_upstream) {
        if (m_upstream->bytesAvailable() > 0)
            m_down += m_client->write(m_upstream->readAll());
        if (m_client->bytesAvailable() > 0 && m_upstream->state() == QAbstractSocket::ConnectedState)
            m_up += m_upstream->write(m_client->readAll());
    }
    if (m_client)
        m_client->disconnectFromHost();
    if (m_upstream)
        m_upstream->disconnectFromHost();
    emit relayed(m_up, m_down);
    // The sockets are closing: what they still hold is written before they go.
    QTimer::singleShot(2000, this, &QObject::deleteLater);
}

void ProxyTunnel::fail(const QString& reason)
{
    if (m_done)
        return;
    m_done = true;
    m_timer->stop();
    if (m_client) {
        disconnect(m_client, nullptr, this, nullptr);
        m_client->flush(); // an answer written to it (502, 504) goes out first
        m_client->abort();
    }
    if (m_upstream) {
        disconnect(m_upstream, nullptr, this, nullptr);
        m_upstream->abort();
    }
    emit failed(reason);
    deleteLater();
}
