// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/exchangetracker.h"

#include "lab/labconnection.h"
#include "lab/labrequest.h"

#include <QCryptographicHash>

#include <algorithm>

void ExchangeTracker::fillRequest(LabExchange& x, const LabRequest& request, const QString& clientAddress,
    quint16 clientPort, qsizetype bodyLimit)
{
    x.requestId = request.id;
    x.connectionId = request.connectionId;
    x.clientAddress = clientAddress;
    x.clientPort = clientPort;
    x.requestOnConnection = request.onConnection;
    x.arrivedMs = request.headMs;
    x.method = request.method;
    x.target = request.target;
    x.origin = request.origin;
    x.minorVersion = request.minorVersion;
    x.requestHeaders = request.headers;
    x.requestBodySize = request.body.size();
    x.requestBodySha256 = QCryptographicHash::hash(request.body, QCryptographicHash::Sha256).toHex();
    if (bodyLimit > 0 && !request.body.isEmpty()) {
        x.requestBody = request.body.left(bodyLimit);
        x.requestBodyTruncated = request.body.size() > bodyLimit;
    }
}

LabExchange& ExchangeTracker::open(const LabRequest& request, const LabConnection& connection)
{
    LabExchange x;
    fillRequest(x, request, connection.peerAddress(), connection.peerPort(), m_bodyLimit);
    x.requestCompleteMs = request.completeMs;
    m_byConnection.insert(request.connectionId, request.id);
    return m_open.insert(request.id, std::move(x)).value();
}

LabExchange* ExchangeTracker::find(quint64 requestId)
{
    const auto it = m_open.find(requestId);
    return it == m_open.end() ? nullptr : &it.value();
}

LabExchange* ExchangeTracker::currentOn(quint64 connectionId)
{
    const auto it = m_byConnection.constFind(connectionId);
    return it == m_byConnection.constEnd() ? nullptr : find(it.value());
}

void ExchangeTracker::finish(quint64 requestId, const QString& outcome)
{
    const auto it = m_open.find(requestId);
    if (it == m_open.end())
        return;
    LabExchange x = std::move(it.value());
    m_open.erase(it);
    const auto c = m_byConnection.constFind(x.connectionId);
    if (c != m_byConnection.constEnd() && c.value() == requestId)
        m_byConnection.erase(c);
    if (x.outcome.isEmpty())
        x.outcome = outcome;
    if (m_sink)
        m_sink(x);
}

void ExchangeTracker::record(LabExchange exchange)
{
    if (m_sink)
        m_sink(exchange);
}

void ExchangeTracker::finishAll(const QString& outcome, qint64 nowMs)
{
    QList<quint64> ids = m_open.keys();
    std::sort(ids.begin(), ids.end());
    for (quint64 id : ids) {
        if (LabExchange* x = find(id))
            x->note = x->note.isEmpty() ? QStringLiteral("the lab stopped at %1 ms").arg(nowMs) : x->note;
        finish(id, outcome);
    }
}
