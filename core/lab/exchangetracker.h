// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/labexchange.h"

#include <QHash>

#include <functional>

class LabConnection;
struct LabRequest;

// The exchanges a FaultServer has in progress, one per connection at most (a pipelined request waits
// for the answer before it): opened when a request arrives, filled in as the answer is played, and handed
// to the sink once — when the answer ends, the lab closes the connection, or the client goes first.
class ExchangeTracker
{
public:
    using Sink = std::function<void(const LabExchange&)>;

    void setSink(Sink sink) { m_sink = std::move(sink); }
    // Request bodies are kept up to this many bytes (0: none; size and hash are always recorded).
    void setBodyLimit(qsizetype bytes) { m_bodyLimit = bytes; }

    // A new exchange for REQUEST on CONNECTION (who, when, what was received).
    LabExchange& open(const LabRequest& request, const LabConnection& connection);
    LabExchange* find(quint64 requestId);
    LabExchange* currentOn(quint64 connectionId);
    // Hands the exchange to the sink with OUTCOME (unless one was set) and forgets it; no-op when unknown.
    void finish(quint64 requestId, const QString& outcome);
    // An exchange that never was open (a rejected or abandoned request), handed to the sink at once.
    void record(LabExchange exchange);
    // Every exchange still open, ended with OUTCOME at NOWMS (the lab stops).
    void finishAll(const QString& outcome, qint64 nowMs);
    qsizetype openCount() const { return m_open.size(); }

    // The request facts of REQUEST into EXCHANGE (body size, SHA-256, the kept part).
    static void fillRequest(LabExchange& exchange, const LabRequest& request, const QString& clientAddress,
        quint16 clientPort, qsizetype bodyLimit);
    qsizetype bodyLimit() const { return m_bodyLimit; }

private:
    Sink m_sink;
    qsizetype m_bodyLimit = 0;
    QHash<quint64, LabExchange> m_open; // by request id
    QHash<quint64, quint64> m_byConnection; // connection id → request id
};
