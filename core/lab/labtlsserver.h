// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/labtlsmode.h"

#include <QSslCertificate>
#include <QSslKey>
#include <QTcpServer>

// The TLS listener: a QTcpServer that wraps accepted sockets in QSslSocket and starts the server
// handshake (Valid, WrongHost), or deliberately does not (Garbage, Stall: plain QTcpSocket).
// ALPN offers only http/1.1 so clients never try HTTP/2 against the lab.
class LabTlsServer : public QTcpServer
{
    Q_OBJECT
public:
    explicit LabTlsServer(LabTlsMode mode, QObject* parent = nullptr);

    LabTlsMode mode() const { return m_mode; }
    bool hasCredentials() const { return !m_certificate.isNull() && !m_key.isNull(); }

    // The certificate a client must trust to talk to a Valid endpoint.
    static QSslCertificate testCertificate();

protected:
    void incomingConnection(qintptr handle) override;

private:
    LabTlsMode m_mode;
    QSslCertificate m_certificate;
    QSslKey m_key;
};
