// SPDX-License-Identifier: GPL-3.0-or-later
// FaultServer, proxy mode (issue 12 §1): a `forward` step sends the request to the one configured upstream
// — once, never retried — and relays its answer, modified as the step says; an upstream that fails
// becomes the lab's own 502 (refused, reset, TLS, garbage, too_large) or 504 (timeout) saying what happened.
#include "lab/faultserver.h"

#include "lab/forwardstream.h"
#include "lab/labconnection.h"
#include "lab/labrequest.h"
#include "lab/ratelimitheaders.h"
#include "lab/upstreamcall.h"
#include "lab/upstreamresponsereader.h"
#include "lab/uploadstream.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

UpstreamTarget FaultServer::upstream() const
{
    if (m_options.upstream.isSet()) {
        UpstreamTarget given = m_options.upstream;
        given.forwardedHeaders = given.forwardedHeaders || m_scenario.forwardedHeaders;
        return given;
    }
    UpstreamTarget fromScenario = m_options.upstream; // its TLS settings and timeout, the scenario's URL
    fromScenario.base = m_scenario.upstream;
    fromScenario.forwardedHeaders = fromScenario.forwardedHeaders || m_scenario.forwardedHeaders;
    return fromScenario;
}

void FaultServer::forward(LabConnection* connection, const LabRequest& request, const FaultStep& step, LabEvent event,
    std::function<void(bool)> onDone)
{
    const UpstreamTarget target = upstreamFor(request);
    LabExchange* x = m_exchanges.find(request.id);
    if (x) {
        x->route = event.route;
        x->stepKind = event.stepKind;
        x->note = event.detail;
        x->upstream = target.base.toString(QUrl::RemoveUserInfo);
        if (target.isTls())
            x->upstreamTlsVerified = !target.insecure;
    }
    if (!target.isSet() || !target.problem().isEmpty()) {
        UpstreamResult none;
        none.error = u"no-upstream"_s;
        none.detail = target.isSet() ? target.problem() : u"a forward step, but no upstream was given"_s;
        relay(connection, request, step, event, none, onDone);
        return;
    }
    const bool keepAlive = true; // http and https alike: kept connections are per upstream (poolKey)
    const auto* tls = qobject_cast<QSslSocket*>(connection->socket());
    const ForwardedClient client { connection->peerAddress(), tls && tls->isEncrypted() };
    // A streamed body (faultserverupload.cpp): the head goes now, the body as it arrives.
    const QByteArray sent = request.bodyStreamed ? target.requestHead(request, keepAlive, client)
                                                 : target.requestBytes(request, keepAlive, client);
    auto* call = new UpstreamCall(target, sent, request.method == "HEAD", [this] { return nowMs(); },
        keepAlive ? takeIdleUpstream(poolKey(target)) : nullptr, this);
    call->setPoolKey(poolKey(target));
    m_upstreamCalls.insert(request.id, call);
    if (request.bodyStreamed)
        startUpload(connection, request, call);
    const quint64 generation = m_generation;
    const quint64 connectionId = connection->id();
    // Only modifiers that need the whole answer before its first byte goes out keep it buffered.
    const bool streamed = step.delay.count() <= 0 && step.dribbleBytes <= 0 && !step.answerLost;
    call->setStreaming(streamed);
    if (streamed) {
        connect(call, &UpstreamCall::headReceived, this, [this, call, generation, connectionId, request, step, event] {
            if (generation == m_generation)
                startStream(connectionId, request, step, event, call);
        });
    }
    connect(call, &UpstreamCall::finished, this,
        [this, call, generation, connectionId, request, step, event, onDone](const UpstreamResult& result) {
            m_upstreamCalls.remove(request.id);
            call->deleteLater();
            if (generation != m_generation)
                return;
            if (QTcpSocket* idle = call->takeReusableConnection())
                keepIdleUpstream(idle, call->poolKey());
            if (m_streams.contains(request.id)) {
                endStream(request.id, event, result);
                return;
            }
            LabConnection* c = m_connections.value(connectionId);
            if (!c)
                return; // the client left; its exchange was ended then (onConnectionClosed)
            relay(c, request, step, event, result, onDone);
        });
    call->start();
}

LabResponse FaultServer::relayedHead(const FaultStep& step, int status, const HttpHeaderList& upstreamHeaders) const
{
    LabResponse response;
    response.status = step.statusOverride.value_or(status);
    for (const auto& field : withoutHopByHop(upstreamHeaders)) {
        if (field.first.compare("Content-Length", Qt::CaseInsensitive) != 0)
            response.headers.append(field);
    }
    for (const auto& [name, value] : step.headers) // the step's fields replace the upstream's
        response.setHeader(name, value);
    if (step.retryAfterForm != RetryAfterForm::None)
        RateLimitHeaders::applyRetryAfter(response, step.retryAfterForm, step.retryAfter, QDateTime::currentDateTimeUtc());
    return response;
}

void FaultServer::startStream(quint64 connectionId, const LabRequest& request, const FaultStep& step,
    const LabEvent& event, UpstreamCall* call)
{
    LabConnection* c = m_connections.value(connectionId);
    if (!c || !c->isOpen())
        return; // the client left: abandonUpstream ends the call and the exchange
    const UpstreamResult& sofar = call->result();
    LabResponse head = relayedHead(step, sofar.status, sofar.headers);
    head.headRequest = request.method == "HEAD";
    qint64 length = -1;
    if (call->reader().framing() == UpstreamResponseReader::Framing::Length && !head.headRequest)
        length = call->reader().contentLength();
    else if (head.headRequest) // a HEAD's answer announces the GET's length: it goes through as announced
        length = combinedHeader(sofar.headers, "Content-Length").trimmed().toLongLong();
    if (head.headRequest && !hasHeader(sofar.headers, "Content-Length"))
        length = -1;
    auto* stream = new ForwardStream(c, call, head, length, request.minorVersion == 1, request.keepAlive, this);
    m_streams.insert(request.id, stream);
    noteUpstream(request.id, sofar);
    stream->start();
    if (LabExchange* x = m_exchanges.find(request.id)) {
        x->status = head.status;
        x->responseStartedMs = nowMs();
        x->responseHeaders = stream->writtenFields();
    }
    LabEvent started = event;
    started.kind = LabEvent::Kind::ResponseStarted;
    started.status = head.status;
    report(started);
}

qint64 FaultServer::streamPeakBufferedBytes() const
{
    qint64 peak = m_streamPeakBuffered;
    for (const ForwardStream* stream : m_streams)
        peak = std::max(peak, stream->peakBufferedBytes());
    return peak;
}

void FaultServer::noteStream(quint64 requestId, const ForwardStream& stream)
{
    m_streamPeakBuffered = std::max(m_streamPeakBuffered, stream.peakBufferedBytes());
    if (LabExchange* x = m_exchanges.find(requestId)) {
        x->responseHeaders = stream.writtenFields();
        x->responseBodyBytes = stream.bodyBytesWritten();
        x->responseBodyExcerpt = stream.excerpt();
    }
}

void FaultServer::endStream(quint64 requestId, LabEvent event, const UpstreamResult& result)
{
    ForwardStream* stream = m_streams.take(requestId);
    stream->deleteLater();
    noteUpstream(requestId, result);
    stream->end(result.ok); // the last chunk, or the cut
    noteStream(requestId, *stream);
    const qint64 now = nowMs();
    LabEvent finished = event;
    finished.kind = LabEvent::Kind::ResponseFinished;
    finished.status = stream->status();
    if (!result.ok) {
        // The head went out already: no 502 can follow, only the cut, recorded with its reason.
        const QString why = tr("cut after %1 body bytes: %2: %3")
                                .arg(stream->bodyBytesWritten())
                                .arg(result.error, result.detail);
        LabEvent failed = event;
        failed.kind = LabEvent::Kind::UpstreamFailed;
        failed.status = stream->status();
        failed.detail = why;
        report(failed);
        finished.detail = why;
        if (LabExchange* x = m_exchanges.find(requestId)) {
            x->note = why;
            x->labClosedMs = x->labClosedMs.value_or(now);
        }
    } else if (LabExchange* x = m_exchanges.find(requestId)) {
        x->responseFinishedMs = now;
    }
    m_ledger.setOutcome(requestId, event.stepKind, stream->status());
    report(finished);
    m_exchanges.finish(requestId, result.ok ? u"answered"_s : u"truncated"_s);
}

void FaultServer::noteUpstream(quint64 requestId, const UpstreamResult& result)
{
    LabExchange* x = m_exchanges.find(requestId);
    if (!x)
        return;
    x->upstreamConnectedMs = result.connectedMs;
    x->upstreamTlsMs = result.tlsMs;
    x->upstreamFirstByteMs = result.firstByteMs;
    x->upstreamEndMs = result.endMs;
    if (!result.ok && !result.error.isEmpty()) {
        x->upstreamError = result.error + u": "_s + result.detail;
        x->note = x->upstreamError;
    }
}

void FaultServer::abandonUpstream(quint64 requestId)
{
    UpstreamCall* call = m_upstreamCalls.take(requestId);
    if (!call)
        return;
    UpstreamResult sofar = call->result();
    sofar.error = u"abandoned"_s;
    sofar.detail = u"the client left before the upstream answered"_s;
    if (ForwardStream* stream = m_streams.take(requestId)) {
        noteStream(requestId, *stream);
        sofar.detail = tr("the client left after %1 body bytes of the answer").arg(stream->bodyBytesWritten());
        stream->deleteLater();
    }
    if (const UploadStream* upload = m_uploads.value(requestId); upload && !upload->isEnded())
        sofar.detail = tr("the client left after %1 of its request; the upstream request was aborted")
                           .arg(upload->progress());
    sofar.endMs = nowMs();
    noteUpstream(requestId, sofar);
    call->abort();
    call->deleteLater();
}

namespace {
constexpr qint64 kIdleUpstreamMs = 2000; // well under common keep-alive timeouts (nginx 75 s, Apache 5 s)
constexpr qsizetype kMaxIdleUpstream = 64;
constexpr qint64 kIdleSweepMs = 250; // an idle connection is closed 2 to 2.25 s after its last answer
}

QString FaultServer::poolKey(const UpstreamTarget& target)
{
    // A kept connection serves only the upstream it was opened to, with the same trust: a scenario reloaded
    // with another upstream (or other TLS settings) must not inherit the old one's connections.
    return target.base.scheme() + u"://"_s + target.base.host() + u":"_s + QString::number(target.port()) + u" "_s + target.caFile
        + (target.insecure ? u" insecure"_s : QString())
        + (target.connectHost.isEmpty() ? QString() : u" via "_s + target.connectHost + u':' + QString::number(target.connectPort));
}

QTcpSocket* FaultServer::takeIdleUpstream(const QString& key)
{
    for (qsizetype i = m_idleUpstream.size() - 1; i >= 0; --i) {
        if (m_idleUpstream.at(i)->property("retrylabPoolKey").toString() != key)
            continue;
        QTcpSocket* socket = m_idleUpstream.takeAt(i);
        disconnect(socket, nullptr, this, nullptr);
        const bool fresh = nowMs() - socket->property("retrylabIdleSince").toLongLong() < kIdleUpstreamMs;
        if (fresh && socket->state() == QAbstractSocket::ConnectedState && socket->bytesAvailable() == 0)
            return socket;
        socket->abort();
        socket->deleteLater();
    }
    return nullptr;
}

void FaultServer::keepIdleUpstream(QTcpSocket* socket, const QString& key)
{
    if (m_idleUpstream.size() >= kMaxIdleUpstream) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    socket->setParent(this);
    socket->setProperty("retrylabIdleSince", nowMs());
    socket->setProperty("retrylabPoolKey", key);
    // Anything from an idle upstream connection (bytes nobody asked for, its close) ends it.
    auto drop = [this, socket] {
        if (m_idleUpstream.removeOne(socket)) {
            socket->abort();
            socket->deleteLater();
        }
    };
    connect(socket, &QIODevice::readyRead, this, drop);
    connect(socket, &QAbstractSocket::disconnected, this, drop);
    m_idleUpstream.append(socket);
    // So does its idle time running out: closed then, not held (with its descriptor) until a next request
    // looks at it. One sweep timer for the whole pool: a timer per kept connection (thousands pending at a
    // few thousand requests a second) made every timer start and stop in the lab scan them all.
    if (!m_idleSweep) {
        m_idleSweep = new QTimer(this);
        connect(m_idleSweep, &QTimer::timeout, this, &FaultServer::sweepIdleUpstream);
    }
    if (!m_idleSweep->isActive())
        m_idleSweep->start(std::chrono::milliseconds(kIdleSweepMs));
}

void FaultServer::sweepIdleUpstream()
{
    const qint64 now = nowMs();
    for (qsizetype i = m_idleUpstream.size() - 1; i >= 0; --i) {
        QTcpSocket* socket = m_idleUpstream.at(i);
        if (now - socket->property("retrylabIdleSince").toLongLong() >= kIdleUpstreamMs) {
            m_idleUpstream.removeAt(i);
            disconnect(socket, nullptr, this, nullptr);
            socket->abort();
            socket->deleteLater();
        }
    }
    if (m_idleUpstream.isEmpty() && m_idleSweep)
        m_idleSweep->stop();
}

void FaultServer::dropIdleUpstream()
{
    for (QTcpSocket* socket : std::as_const(m_idleUpstream)) {
        disconnect(socket, nullptr, this, nullptr);
        socket->abort();
        socket->deleteLater();
    }
    m_idleUpstream.clear();
}

void FaultServer::abandonAllUpstream()
{
    const QList<quint64> ids = m_upstreamCalls.keys();
    for (quint64 id : ids)
        abandonUpstream(id);
}

void FaultServer::relay(LabConnection* connection, const LabRequest& request, const FaultStep& step, LabEvent event,
    const UpstreamResult& result, std::function<void(bool)> onDone)
{
    noteUpstream(request.id, result);
    FaultStep played = step;
    played.kind = FaultStep::Kind::Respond;
    LabResponse response;
    if (!result.ok) {
        // The lab's own answer: nothing of the step's modifiers applies to a failure.
        played = FaultStep {};
        response.status = result.error == u"timeout"_s ? 504 : 502;
        response.addHeader("X-Retrylab-Upstream-Error", result.error.toUtf8());
        response.addHeader("Content-Type", "application/json");
        response.body = QJsonDocument(QJsonObject { { u"error"_s, QString(u"upstream_"_s + result.error) },
                                          { u"detail"_s, result.detail },
                                          { u"upstream"_s, upstreamFor(request).base.toString(QUrl::RemoveUserInfo) } })
                            .toJson(QJsonDocument::Compact);
        LabEvent failed = event;
        failed.kind = LabEvent::Kind::UpstreamFailed;
        failed.status = response.status;
        failed.detail = result.error + u": "_s + result.detail;
        report(failed);
        event.detail = failed.detail;
    } else {
        response = relayedHead(step, result.status, result.headers);
        response.body = result.body;
        if (step.answerLost) // "applied upstream, answer lost": the upstream did it; the client hears nothing
            played.kind = step.truncateWithReset ? FaultStep::Kind::Reset : FaultStep::Kind::Close;
    }
    response.headRequest = request.method == "HEAD";
    startPlayback(connection, played, response, request.keepAlive, event, std::move(onDone));
}
