// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labtlsserver.h"

#include <QFile>
#include <QSslConfiguration>
#include <QSslSocket>

using namespace Qt::StringLiterals;

namespace {

QByteArray readResource(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

LabTlsServer::LabTlsServer(LabTlsMode mode, QObject* parent)
    : QTcpServer(parent)
    , m_mode(mode)
{
    const QString stem = mode == LabTlsMode::WrongHost ? u":/retrylab/tls/wronghost"_s : u":/retrylab/tls/localhost"_s;
    const QList<QSslCertificate> certs = QSslCertificate::fromData(readResource(stem + u"-cert.pem"_s), QSsl::Pem);
    if (!certs.isEmpty())
        m_certificate = certs.first();
    m_key = QSslKey(readResource(stem + u"-key.pem"_s), QSsl::Rsa, QSsl::Pem);
}

QSslCertificate LabTlsServer::testCertificate()
{
    const QList<QSslCertificate> certs
        = QSslCertificate::fromData(readResource(u":/retrylab/tls/localhost-cert.pem"_s), QSsl::Pem);
    return certs.isEmpty() ? QSslCertificate() : certs.first();
}

void LabTlsServer::incomingConnection(qintptr handle)
{
    if (m_mode == LabTlsMode::Garbage || m_mode == LabTlsMode::Stall) {
        auto* socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(handle)) {
            delete socket;
            return;
        }
        addPendingConnection(socket);
        return;
    }
    auto* socket = new QSslSocket(this);
    if (!socket->setSocketDescriptor(handle)) {
        delete socket;
        return;
    }
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificate(m_certificate);
    config.setPrivateKey(m_key);
    config.setPeerVerifyMode(QSslSocket::VerifyNone);
    config.setAllowedNextProtocols({ QByteArrayLiteral("http/1.1") });
    socket->setSslConfiguration(config);
    addPendingConnection(socket);
    socket->startServerEncryption();
}
