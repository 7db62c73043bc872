// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// LabExchange values for the inference tests, as the lab would report them (core/lab/labexchange.h).

#include "engine/requestheaders.h"
#include "lab/labexchange.h"

#include <QString>

struct ExchangeBuilder
{
    LabExchange e;

    ExchangeBuilder(quint64 id, qint64 arrivedMs, qint64 durationMs = 20)
    {
        e.requestId = id;
        e.connectionId = id;
        e.clientAddress = QStringLiteral("127.0.0.1");
        e.clientPort = quint16(40000 + id);
        e.arrivedMs = arrivedMs;
        e.requestCompleteMs = arrivedMs + 1;
        e.method = "GET";
        e.target = "/v1/items";
        e.requestHeaders = { { "Host", "127.0.0.1:8080" }, { "User-Agent", "client/1" } };
        e.requestBodySha256 = bodyHash({});
        e.status = 200;
        e.responseStartedMs = arrivedMs + durationMs / 2;
        e.responseFinishedMs = arrivedMs + durationMs;
        e.outcome = QStringLiteral("answered");
        e.stepKind = QStringLiteral("respond");
    }
    ExchangeBuilder& method(const QByteArray& m)
    {
        e.method = m;
        return *this;
    }
    ExchangeBuilder& target(const QByteArray& t)
    {
        e.target = t;
        return *this;
    }
    ExchangeBuilder& client(const QString& address)
    {
        e.clientAddress = address;
        return *this;
    }
    ExchangeBuilder& header(const QByteArray& name, const QByteArray& value)
    {
        e.requestHeaders.append({ name, value });
        return *this;
    }
    ExchangeBuilder& body(const QByteArray& b)
    {
        e.requestBody = b;
        e.requestBodySize = b.size();
        e.requestBodySha256 = bodyHash(b);
        return *this;
    }
    ExchangeBuilder& status(int s)
    {
        e.status = s;
        return *this;
    }
    ExchangeBuilder& answer(const QByteArray& name, const QByteArray& value)
    {
        e.responseHeaders.append({ name, value });
        return *this;
    }
    // The lab reset the connection before answering, at CLOSED ms when the lab said when.
    ExchangeBuilder& reset(std::optional<qint64> closed = std::nullopt)
    {
        e.labClosedMs = closed;
        e.status = 0;
        e.responseStartedMs.reset();
        e.responseFinishedMs.reset();
        e.outcome = QStringLiteral("reset");
        e.stepKind = QStringLiteral("reset");
        return *this;
    }
    // The lab hung; the client hung up at GONE ms.
    ExchangeBuilder& clientGoneAt(qint64 gone)
    {
        e.status = 0;
        e.responseStartedMs.reset();
        e.responseFinishedMs.reset();
        e.clientGoneMs = gone;
        e.outcome = QStringLiteral("hang");
        e.stepKind = QStringLiteral("hang");
        return *this;
    }
    operator LabExchange() const { return e; }
};
