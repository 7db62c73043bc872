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
    bool headRequest = false; // the answer to a HEAD: the head as for GET (its Content-Length), no content

    // Whether content follows the head (RFC 9110 §6.4.1): never for HEAD, 1xx, 204 or 304.
    bool carriesContent() const { return !headRequest && status >= 200 && status != 204 && status != 304; }
    // The bytes that follow the head: the body, or nothing when the answer carries no content.
    QByteArray content() const { return carriesContent() ? body : QByteArray(); }

    void setHeader(const QByteArray& name, const QByteArray& value); // replaces every NAME
    void addHeader(const QByteArray& name, const QByteArray& value) { headers.append(qMakePair(name, value)); }
    QByteArray header(QByteArrayView name) const;

    // Status line and header block ending with the empty line. CONTENTLENGTH < 0 means body().size().
    // No Content-Length for 1xx, 204 (RFC 9110 §8.6: MUST NOT) and 304 (it would describe a body not sent).
    QByteArray serializeHead(bool keepAlive, qsizetype contentLength = -1) const;
    // The header fields serializeHead writes, in order (Date, the step's fields, Content-Length, Connection).
    HttpHeaderList headFields(bool keepAlive, qsizetype contentLength = -1) const;
    // "HTTP/1.1 STATUS REASON" and FIELDS, ending with the empty line.
    static QByteArray serializeHead(int status, const HttpHeaderList& fields);

    static QByteArray reasonPhrase(int status);
    static LabResponse json(int status, const QByteArray& jsonBody);
};
