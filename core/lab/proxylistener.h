// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTcpServer>

// The listener of the lab as a forward proxy: each accepted connection is a QSslSocket that starts in plain
// text (requests and CONNECT are read as on any lab connection), so a CONNECT tunnel to an intercepted host
// can later be turned into the server side of a TLS session on the same socket.
class ProxyListener : public QTcpServer
{
    Q_OBJECT
public:
    explicit ProxyListener(QObject* parent = nullptr);

protected:
    void incomingConnection(qintptr handle) override;
};
