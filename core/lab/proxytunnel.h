// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

class QSslSocket;
class QTcpSocket;
class QTimer;

// One CONNECT tunnel after the lab accepted it (RFC 9110 §9.3.6). It writes the 2xx, then either
//  - intercepts: the client's first byte says TLS (a handshake record, 0x16) or plain HTTP; TLS is answered as
//    the server with the leaf minted for the tunnel's host, and once the handshake is over (or at once for
//    plain HTTP) the socket is handed back decrypted (intercepted()) to be read as a lab connection; or
//  - relays: a TCP connection to the host (or its --map address) is opened first, the 2xx written only when it
//    stands (a 502 when it cannot be made), and bytes are copied both ways untouched, with backpressure.
// A client that sends bytes before the 2xx, never finishes its handshake, or refuses the lab's certificate ends
// the tunnel with a reason (failed()).
class ProxyTunnel : public QObject
{
    Q_OBJECT
public:
    struct Leaf
    {
        QSslCertificate certificate;
        QSslKey key;
        QSslCertificate issuer; // sent after the leaf: nothing is looked up on disk per handshake
    };

    // CLIENT comes with no parent; the tunnel owns it until it hands it back. HOST:PORT is the CONNECT's authority.
    ProxyTunnel(QSslSocket* client, const QByteArray& unread, const QString& host, quint16 port, QObject* parent = nullptr);
    ~ProxyTunnel() override;

    QString host() const { return m_host; }
    quint16 port() const { return m_port; }
    QString authority() const;

    // Decrypts with LEAF; the handshake must be over within TIMEOUTMS of the 2xx.
    void intercept(const Leaf& leaf, int timeoutMs);
    // Relays to CONNECTHOST:CONNECTPORT (the authority, or its mapping).
    void relay(const QString& connectHost, quint16 connectPort, int connectTimeoutMs);

    qint64 bytesUp() const { return m_up; } // client → host (relay)
    qint64 bytesDown() const { return m_down; } // host → client (relay)

signals:
    // The decrypted (or plain) socket, now without parent, for requests to ORIGIN ("https://host:port").
    void intercepted(QSslSocket* socket, const QString& origin);
    // A relay that ran and ended (either side closed).
    void relayed(qint64 bytesUp, qint64 bytesDown);
    // The tunnel could not be set up: the client is gone (or was answered and closed).
    void failed(const QString& reason);

private:
    void onFirstBytes();
    void onEncrypted();
    void handOver(const QString& scheme); // the socket leaves, for requests to SCHEME + authority()
    void fail(const QString& reason);
    void pump(QTcpSocket* from, QTcpSocket* to, qint64& counter);
    void endRelay();

    QPointer<QSslSocket> m_client;
    QPointer<QTcpSocket> m_upstream;
    QByteArray m_unread;
    QString m_host;
    quint16 m_port = 0;
    QTimer* m_timer = nullptr;
    bool m_done = false;
    bool m_tls = false;
    qint64 m_up = 0;
    qint64 m_down = 0;
};
