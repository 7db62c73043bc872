// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/proxylistener.h"

#include <QSslSocket>

ProxyListener::ProxyListener(QObject* parent)
    : QTcpServer(parent)
{
}

void ProxyListener::incomingConnection(qintptr handle)
{
    auto* socket = new QSslSocket(this);
    if (!socket->setSocketDescriptor(handle)) {
        delete socket;
        return;
    }
    addPendingConnection(socket);
}
