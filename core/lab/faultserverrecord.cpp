// SPDX-License-Identifier: GPL-3.0-or-later
// FaultServer, third part: how exchanges end when no step finishes them — a request the connection
// rejected, a client that left (mid-request, or while its answer was pending), and the hand-over of every
// ended exchange to the ledger and exchangeFinished().
#include "lab/faultserver.h"

#include "lab/labconnection.h"
#include "lab/labrequest.h"

using namespace Qt::StringLiterals;

void FaultServer::onRejected(LabConnection* c, int status, const QString& why)
{
    LabExchange x;
    LabRequest partial = c->partialRequest();
    partial.id = m_nextRequestId++;
    ExchangeTracker::fillRequest(x, partial, c->peerAddress(), c->peerPort(), m_exchanges.bodyLimit());
    const qint64 now = nowMs();
    x.stepKind = u"rejected"_s;
    x.note = why;
    x.status = status;
    x.responseHeaders = c->rejectionFields();
    x.responseBodyBytes = c->rejection().body.size();
    x.responseStartedMs = now;
    x.responseFinishedMs = now;
    x.labClosedMs = now;
    x.outcome = u"rejected"_s;
    LabEvent event;
    event.kind = LabEvent::Kind::Rejected;
    event.connectionId = c->id();
    event.requestId = x.requestId;
    event.method = partial.method;
    event.path = partial.path;
    event.status = status;
    event.detail = why;
    report(event);
    m_exchanges.record(std::move(x));
}

void FaultServer::onConnectionClosed(LabConnection* c)
{
    if (m_connections.remove(c->id()) == 0)
        return;
    const qint64 now = nowMs();
    if (LabExchange* x = m_exchanges.currentOn(c->id())) {
        if (c->closedByPeer()) {
            // The client went first: nothing more can happen on the wire for this exchange.
            abandonUpstream(x->requestId);
            x->clientGoneMs = now;
            m_exchanges.finish(x->requestId, x->stepKind == u"hang"_s ? u"hang"_s : u"client-gone"_s);
        } else if (!x->labClosedMs) {
            x->labClosedMs = now; // the playback that closed it ends the exchange
        }
    } else if (c->closedByPeer() && c->requestInProgress()) {
        LabExchange gone;
        LabRequest partial = c->partialRequest();
        partial.id = m_nextRequestId++;
        ExchangeTracker::fillRequest(gone, partial, c->peerAddress(), c->peerPort(), m_exchanges.bodyLimit());
        gone.clientGoneMs = now;
        gone.note = u"the client left before its request was complete"_s;
        gone.outcome = u"client-gone"_s;
        m_exchanges.record(std::move(gone));
    }
    LabEvent event;
    event.kind = LabEvent::Kind::ConnectionDropped;
    event.connectionId = c->id();
    report(event);
    c->deleteLater();
}

void FaultServer::onExchangeEnded(const LabExchange& exchange)
{
    if (m_uploads.contains(exchange.requestId)) { // a streamed body: its size, hash and end come from the relay
        LabExchange x = exchange;
        noteUpload(x);
        m_ledger.recordExchange(x);
        emit exchangeFinished(x);
        return;
    }
    m_ledger.recordExchange(exchange);
    emit exchangeFinished(exchange);
}
