// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/httprequestparser.h"
#include "lab/labconnection.h"
#include "lab/forwardproxyoptions.h"
#include "lab/labtlsmode.h"
#include "lab/upstreamtarget.h"

#include <QByteArray>
#include <QHostAddress>

#include <optional>

// How a FaultServer listens. The defaults are what tests and the app want: loopback only, free ports.
struct FaultServerOptions
{
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; // 0: any free port (FaultServer::port() reports it)
    bool alsoIpv6Loopback = true; // with 127.0.0.1, also listen on [::1] (same port when free)
    bool allowNonLoopback = false; // any other address must be asked for explicitly
    LabTlsMode tls = LabTlsMode::Off; // a second, TLS endpoint
    quint16 tlsPort = 0;
    QByteArray attemptHeader = "X-Retrylab-Attempt"; // receipts are counted per value of this field
    HttpParserLimits limits;
    LabConnection::Timeouts timeouts;
    int maxConnections = 1000; // beyond this, new connections are answered 503 and closed
    std::optional<quint64> seed; // overrides the scenario's seed
    UpstreamTarget upstream; // where `forward` steps send requests (overrides the scenario's "upstream")
    ForwardProxyOptions proxy; // the lab as a forward proxy (serve --proxy)
    qsizetype keepBodyBytes = 0; // request bodies kept in each exchange up to this size (0: size and hash only)
};
