// SPDX-License-Identifier: GPL-3.0-or-later
// FaultServer, proxy mode, the request direction (issue 12 §1 "bodies streamed both ways"): a request whose
// head alone shows it will be forwarded has its body relayed upstream as it arrives (UploadStream) instead of
// read whole first. Everything that chooses what answers — outage, route, rate limit, idempotency key, step —
// is looked at when the head is in, without moving anything on (forwardsAtHead); only when that says
// `forward` does the request go on at its head, through the same onRequest as every other. A request that
// needs its body to be decided (an Idempotency-Key seen before: its payload is compared) or that a fault
// answers is read whole as before, up to body_bytes, and decided at its end.
#include "lab/faultserver.h"

#include "lab/forwardstream.h"
#include "lab/labconnection.h"
#include "lab/labrequest.h"
#include "lab/upstreamcall.h"
#include "lab/uploadstream.h"

using namespace Qt::StringLiterals;

bool FaultServer::forwardsAtHead(const LabRequest& head) const
{
    if (head.path.startsWith(u"/_lab/"_s) || inOutage())
        return false;
    const qsizetype routeIndex = routeIndexFor(head);
    if (routeIndex < 0)
        return false;
    const FaultRoute& route = m_scenario.routes.at(routeIndex);
    const RateLimiter* limiter = m_routeLimiters.at(routeIndex) ? &*m_routeLimiters.at(routeIndex)
                                                                : (m_sharedLimiter ? &*m_sharedLimiter : nullptr);
    if (limiter && !limiter->peek(nowMs()).allowed)
        return false;
    if (route.idempotency.enabled) {
        const QByteArray field = combinedHeader(head.headers, route.idempotency.header);
        const QString key = field.isNull() ? QString() : IdempotencyStore::keyFromField(field);
        if (key.isEmpty() ? route.idempotency.required : m_idempotency.knows(route.name, key))
            return false; // refused for its missing key, or its payload compared with the first one's
    }
    const qsizetype stepIndex = m_players.at(routeIndex).peek();
    if (stepIndex < 0 || route.steps.at(stepIndex).kind != FaultStep::Kind::Forward)
        return false;
    const UpstreamTarget target = upstreamFor(head);
    if (!target.isSet() || !target.problem().isEmpty())
        return false; // answered 502 no-upstream, after the body as before
    const qint64 limit = parserLimits().maxStreamedBodyBytes;
    return limit <= 0 || head.contentLength <= limit; // a longer declared body: read whole (and refused 413)
}

void FaultServer::onHead(LabConnection* connection, const LabRequest& head)
{
    if (!forwardsAtHead(head))
        return; // read whole, decided at its end
    connection->streamBody();
    LabRequest request = head;
    request.bodyStreamed = true;
    onRequest(connection, request);
}

void FaultServer::startUpload(LabConnection* connection, const LabRequest& request, UpstreamCall* call)
{
    call->setRequestStreaming(true);
    auto* upload = new UploadStream(connection, call, request.chunked ? -1 : request.contentLength,
        m_exchanges.bodyLimit(), this);
    m_uploads.insert(request.id, upload);
    if (LabExchange* x = m_exchanges.find(request.id))
        x->requestCompleteMs.reset(); // the body is still to come
    const quint64 requestId = request.id;
    connect(upload, &UploadStream::failed, this,
        [this, requestId](UploadStream*, int status, const QString& reason) { onUploadFailed(requestId, status, reason); });
    upload->start();
}

void FaultServer::onUploadFailed(quint64 requestId, int status, const QString& reason)
{
    LabExchange* x = m_exchanges.find(requestId);
    UploadStream* upload = m_uploads.value(requestId);
    if (!x || !upload)
        return;
    const qint64 now = nowMs();
    const QString why = tr("the request body broke after %1: %2; the upstream request was aborted")
                            .arg(upload->progress(), reason);
    if (UpstreamCall* call = m_upstreamCalls.take(requestId)) {
        UpstreamResult sofar = call->result();
        sofar.error = u"request_body"_s;
        sofar.detail = why;
        sofar.endMs = now;
        noteUpstream(requestId, sofar);
        call->abort(); // mid-body: an RST
        call->deleteLater();
    }
    if (ForwardStream* stream = m_streams.take(requestId)) {
        noteStream(requestId, *stream);
        stream->deleteLater();
    }
    x->note = why;
    LabEvent event;
    event.kind = LabEvent::Kind::Rejected;
    event.connectionId = x->connectionId;
    event.requestId = requestId;
    event.method = x->method;
    event.status = status;
    event.detail = why;
    report(event);
    LabConnection* c = m_connections.value(x->connectionId);
    if (!x->responseStartedMs && c) { // nothing was answered yet: the lab's own 4xx, as for a collected body
        c->answerAndClose(status, reason);
        x->status = status;
        x->responseHeaders = c->rejectionFields();
        x->responseBodyBytes = c->rejection().body.size();
        x->responseStartedMs = now;
        x->responseFinishedMs = now;
        x->labClosedMs = now;
        m_ledger.setOutcome(requestId, u"rejected"_s, status);
        m_exchanges.finish(requestId, u"rejected"_s);
        return;
    }
    if (c)
        c->resetConnection(); // an answer was under way: cut
    x->labClosedMs = now;
    m_exchanges.finish(requestId, u"truncated"_s);
}

void FaultServer::noteUpload(LabExchange& x)
{
    UploadStream* upload = m_uploads.take(x.requestId);
    if (!upload)
        return;
    m_uploadPeakUnsent = std::max(m_uploadPeakUnsent, upload->peakUnsentBytes());
    x.requestBodySize = upload->bytes();
    x.requestBodySha256 = upload->sha256Hex();
    x.requestBody = upload->kept();
    x.requestBodyTruncated = m_exchanges.bodyLimit() > 0 && upload->keptTruncated();
    x.requestCompleteMs = upload->completeMs();
    if (!upload->isEnded() && x.note.isEmpty())
        x.note = tr("the answer ended after %1 of the request; its rest was read and dropped").arg(upload->progress());
    upload->deleteLater();
}

qint64 FaultServer::uploadPeakUnsentBytes() const
{
    qint64 peak = m_uploadPeakUnsent;
    for (const UploadStream* upload : m_uploads)
        peak = std::max(peak, upload->peakUnsentBytes());
    return peak;
}
