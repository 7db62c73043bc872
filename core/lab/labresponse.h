// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"

#include <QByteArray>

// An HTTP/1.1 answer the lab writes (or would have written: idempotent replays store these).
struct LabResponse
{
    int status = 200;
    HttpHeaderList headers; // Content-Length, Date and Connection are added when serialising
    QByteArray body;

    void setHeader(const QByteArray& name, const QByteArray& value); // replaces every NAME
    void addHeader(const QByteArray& name, const QByteArray& value) { headers.append(qMakePair(name, value)); }
    QByteArray header(QByteArrayView name) const;

    // Status line and header block ending with the empty line. CONTENTLENGTH < 0 means body().size().
    QByteArray serializeHead(bool keepAlive, qsizetype contentLength = -1) const;

    static QByteArray reasonPhrase(int status);
    static LabResponse json(int status, const QByteArray& jsonBody);
};
