// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"

#include <QByteArray>
#include <QString>

// One complete HTTP/1.x request as the fault lab received it.
struct LabRequest
{
    QByteArray method;
    QByteArray target; // request-target as sent (origin-form: path?query)
    // The lab as a forward proxy: the origin the client addressed ("https://api.test:443", from the CONNECT
    // tunnel it came through or its absolute-form target); empty for a request to the lab itself.
    QString origin;
    QString path; // percent-decoded path, without the query
    QByteArray query; // raw query, without '?'
    int minorVersion = 1; // HTTP/1.<minorVersion>
    HttpHeaderList headers;
    QByteArray body; // de-chunked (empty when the body was streamed: bodyStreamed)
    bool chunked = false;
    qint64 contentLength = -1; // the Content-Length field's value; -1 when chunked or without one
    bool bodyStreamed = false; // the body is relayed as it arrives instead of held here (a streamed forward)
    bool keepAlive = true; // from version and the Connection field

    quint64 id = 0; // unique per server run
    quint64 connectionId = 0;
    qint64 receivedAtMs = 0;

    // Stamped by the connection on the lab's clock (FaultServer::nowMs()).
    int onConnection = 1; // 1 = the first request of its connection
    qint64 firstByteMs = 0; // its first byte arrived
    qint64 headMs = 0; // the request line and header fields had arrived
    qint64 completeMs = 0; // the whole body had arrived
};
