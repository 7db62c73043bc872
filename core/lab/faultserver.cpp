// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/faultserver.h"

#include "lab/exchangeplayback.h"
#include "lab/labconnection.h"
#include "lab/labrequest.h"
#include "lab/labtlsserver.h"
#include "lab/proxylistener.h"
#include "lab/proxytunnel.h"
#include "lab/ratelimitheaders.h"
#include "lab/routematcher.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

constexpr int kListenBacklog = 1024;

QByteArray problem(const QString& type, const QString& title)
{
    return QJsonDocument(QJsonObject { { u"error"_s, type }, { u"title"_s, title } }).toJson(QJsonDocument::Compact);
}

} // namespace

FaultServer::FaultServer(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<LabEvent>();
    qRegisterMetaType<LabExchange>();
    m_clock.start();
    m_redactionSalt = QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    m_ledger.setRedactionSalt(m_redactionSalt);
    m_exchanges.setSink([this](const LabExchange& exchange) { onExchangeEnded(exchange); });
    m_outageAlarm = new QTimer(this);
    m_outageAlarm->setSingleShot(true);
    m_outageAlarm->setTimerType(Qt::PreciseTimer);
    connect(m_outageAlarm, &QTimer::timeout, this, &FaultServer::updateOutages);
    loadScenario(FaultScenario::defaultScenario());
}

FaultServer::~FaultServer()
{
    stop();
}

bool FaultServer::start(const FaultServerOptions& options)
{
    stop();
    m_options = options;
    m_error.clear();
    m_warnings.clear();
    if (!options.address.isLoopback()) {
        if (!options.allowNonLoopback) {
            m_error = tr("refusing to listen on %1: only loopback addresses unless explicitly allowed")
                          .arg(options.address.toString());
            return false;
        }
        m_warnings << tr("listening on %1, beyond loopback: anyone who can reach it can drive the lab")
                          .arg(options.address.toString());
    }
    if (options.upstream.isTls() && options.upstream.insecure)
        m_warnings << tr("forwarding to %1 without verifying its TLS certificate (--upstream-insecure)")
                          .arg(options.upstream.base.toString(QUrl::RemoveUserInfo));
    m_port = options.port;
    m_tlsPort = options.tlsPort;
    m_refusing = 0;
    m_exchanges.setBodyLimit(options.keepBodyBytes);
    if (!listenAll()) {
        closeListeners();
        return false;
    }
    m_started = true;
    reset();
    return true;
}

bool FaultServer::listenAll()
{
    m_v4 = m_options.proxy.enabled ? new ProxyListener(this) : new QTcpServer(this);
    // A burst of connections (a thousand idle clients at once) must queue, not have SYNs dropped (Qt's
    // default backlog is 50): a dropped SYN costs the next well-behaved client a second's retransmit.
    m_v4->setListenBacklogSize(kListenBacklog);
    if (!m_v4->listen(m_options.address, m_port)) {
        m_error = tr("cannot listen on %1 port %2: %3")
                      .arg(m_options.address.toString())
                      .arg(m_port)
                      .arg(m_v4->errorString());
        return false;
    }
    m_port = m_v4->serverPort();
    connect(m_v4, &QTcpServer::newConnection, this, [this, server = m_v4.data()] { onNewConnection(server); });
    if (m_options.alsoIpv6Loopback && m_options.address == QHostAddress(QHostAddress::LocalHost)) {
        m_v6 = m_options.proxy.enabled ? new ProxyListener(this) : new QTcpServer(this);
        m_v6->setListenBacklogSize(kListenBacklog);
        if (m_v6->listen(QHostAddress::LocalHostIPv6, m_port)) {
            connect(m_v6, &QTcpServer::newConnection, this, [this, server = m_v6.data()] { onNewConnection(server); });
        } else {
            delete m_v6;
        }
    }
    if (m_options.tls != LabTlsMode::Off) {
        m_tls = new LabTlsServer(m_options.tls, this);
        if (!m_tls->hasCredentials() && (m_options.tls == LabTlsMode::Valid || m_options.tls == LabTlsMode::WrongHost)) {
            m_error = tr("the test certificate is missing from the resources");
            return false;
        }
        if (!m_tls->listen(m_options.address, m_tlsPort)) {
            m_error = tr("cannot listen for TLS on port %1: %2").arg(m_tlsPort).arg(m_tls->errorString());
            return false;
        }
        m_tlsPort = m_tls->serverPort();
        connect(m_tls, &QTcpServer::newConnection, this, [this, server = m_tls.data()] { onNewConnection(server); });
    }
    return true;
}

void FaultServer::closeListeners()
{
    for (QTcpServer* server : { static_cast<QTcpServer*>(m_v4.data()), static_cast<QTcpServer*>(m_v6.data()),
             static_cast<QTcpServer*>(m_tls.data()) }) {
        if (server) {
            server->close();
            server->deleteLater();
        }
    }
    m_v4 = nullptr;
    m_v6 = nullptr;
    m_tls = nullptr;
}

void FaultServer::stop()
{
    const bool wasStarted = m_started;
    m_started = false;
    ++m_generation;
    abandonAllUpstream();
    dropIdleUpstream();
    m_exchanges.finishAll(u"stopped"_s, nowMs());
    qDeleteAll(m_outageTimers);
    m_outageTimers.clear();
    m_outageAlarm->stop();
    for (const RunningOutage& outage : std::as_const(m_outages)) // cut short by the stop
        m_ledger.endOutage(outage.record, std::min(nowMs(), outage.untilMs));
    m_outages.clear();
    for (const QPointer<ExchangePlayback>& playback : std::as_const(m_playbacks))
        delete playback.data();
    m_playbacks.clear();
    closeListeners();
    for (const QPointer<ProxyTunnel>& tunnel : std::as_const(m_tunnels))
        delete tunnel.data();
    m_tunnels.clear();
    const QList<LabConnection*> connections = m_connections.values();
    m_connections.clear();
    for (LabConnection* connection : connections) {
        disconnect(connection, nullptr, this, nullptr);
        if (QTcpSocket* socket = connection->socket()) {
            // What an answer already wrote goes out first: an exchange ends when its last byte is handed to
            // the socket, which may still hold it (`serve --max-requests` stops right after the last one).
            socket->flush();
            socket->abort();
        }
        connection->deleteLater();
    }
    if (wasStarted)
        emit listeningChanged(false);
}

bool FaultServer::isListening() const
{
    return m_v4 && m_v4->isListening();
}

QUrl FaultServer::url() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(m_options.address.toString());
    url.setPort(m_port);
    return url;
}

QUrl FaultServer::tlsUrl() const
{
    if (m_options.tls == LabTlsMode::Off)
        return {};
    QUrl url;
    url.setScheme(u"https"_s);
    url.setHost(m_options.address.toString());
    url.setPort(m_tlsPort);
    return url;
}

bool FaultServer::listensOnIpv6Loopback() const
{
    return m_v6 && m_v6->isListening();
}

void FaultServer::loadScenario(const FaultScenario& scenario)
{
    m_scenario = scenario;
    reset();
}

void FaultServer::reset()
{
    ++m_generation;
    for (const QPointer<ExchangePlayback>& playback : std::as_const(m_playbacks))
        delete playback.data();
    m_playbacks.clear();
    // Exchanges whose playback was just cancelled belong to the run before: ended as such, and their
    // connections reset so no client waits for an answer that will never come.
    QList<quint64> cut;
    for (LabConnection* connection : std::as_const(m_connections)) {
        if (m_exchanges.currentOn(connection->id()))
            cut << connection->id();
    }
    abandonAllUpstream();
    m_exchanges.finishAll(u"stopped"_s, nowMs());
    for (quint64 id : std::as_const(cut)) {
        if (LabConnection* connection = m_connections.value(id))
            connection->resetConnection();
    }
    qDeleteAll(m_outageTimers);
    m_outageTimers.clear();
    m_outageAlarm->stop();
    m_outages.clear();
    m_windowState.clear();
    m_rampStarts.clear();
    const quint64 seed = m_options.seed.value_or(m_scenario.seed);
    m_players.clear();
    m_routeLimiters.clear();
    m_appliedPerRoute.clear();
    for (qsizetype i = 0; i < m_scenario.routes.size(); ++i) {
        const FaultRoute& route = m_scenario.routes.at(i);
        m_players << StepPlayer(route, seed + quint64(i) * 0x9E3779B97F4A7C15ULL);
        m_routeLimiters << (route.rateLimit ? std::optional<RateLimiter>(RateLimiter(*route.rateLimit)) : std::nullopt);
        m_appliedPerRoute << 0;
    }
    m_sharedLimiter = m_scenario.rateLimit ? std::optional<RateLimiter>(RateLimiter(*m_scenario.rateLimit)) : std::nullopt;
    m_idempotency.clear();
    m_ledger.clear();
    m_streamPeakBuffered = 0;
    m_uploadPeakUnsent = 0;
    m_scenarioStartMs = nowMs();
    if (m_started) {
        if (m_refusing > 0 || !m_v4) {
            m_refusing = 0;
            closeListeners();
            if (listenAll())
                emit listeningChanged(true);
        }
        scheduleOutages();
    }
}

void FaultServer::report(LabEvent event)
{
    event.atMs = nowMs();
    emit labEvent(event);
    switch (event.kind) {
    case LabEvent::Kind::RequestReceived:
        emit requestReceived(event);
        break;
    case LabEvent::Kind::ResponseStarted:
        emit responseStarted(event);
        break;
    case LabEvent::Kind::ResponseFinished:
        emit responseFinished(event);
        break;
    case LabEvent::Kind::ConnectionDropped:
        emit connectionDropped(event);
        break;
    case LabEvent::Kind::OperationApplied:
        emit operationApplied(event);
        break;
    default:
        break;
    }
}

void FaultServer::onNewConnection(QTcpServer* server)
{
    while (server && server->hasPendingConnections()) {
        QTcpSocket* socket = server->nextPendingConnection();
        adopt(socket, server == m_tls ? m_options.tls : LabTlsMode::Off);
    }
}

LabConnection* FaultServer::adopt(QTcpSocket* socket, LabTlsMode tlsMode)
{
    if (!socket)
        return nullptr;
    if (m_connections.size() + m_tunnels.size() >= maxConnections()) {
        refuseOverCapacity(socket, maxConnections());
        return nullptr;
    }
    const quint64 id = m_nextConnectionId++;
    auto* connection = new LabConnection(id, socket, parserLimits(), timeouts(), this);
    m_connections.insert(id, connection);
    connect(connection, &LabConnection::requestReady, this, &FaultServer::onRequest);
    connect(connection, &LabConnection::headReceived, this, &FaultServer::onHead);
    connection->setClock([this] { return nowMs(); });
    connect(connection, &LabConnection::requestRejected, this, &FaultServer::onRejected);
    connect(connection, &LabConnection::closedByLab, this, [this](LabConnection* c, const QString& why) {
        LabEvent event;
        event.kind = LabEvent::Kind::Rejected;
        event.connectionId = c->id();
        event.detail = why;
        report(event);
    });
    connect(connection, &LabConnection::closed, this, &FaultServer::onConnectionClosed);
    LabEvent event;
    event.kind = LabEvent::Kind::ConnectionOpened;
    event.connectionId = id;
    event.detail = tlsMode == LabTlsMode::Off ? socket->peerAddress().toString() : u"tls "_s + labTlsModeName(tlsMode);
    report(event);
    if (tlsMode == LabTlsMode::Stall || tlsMode == LabTlsMode::Garbage) {
        connection->abandon();
        if (tlsMode == LabTlsMode::Garbage) {
            connect(socket, &QTcpSocket::readyRead, connection, [connection] {
                connection->write(QByteArrayLiteral("HTTP/1.1 200 OK\r\n\r\nthis is not a ServerHello\r\n"));
                connection->closeGracefully();
            });
        }
    }
    return connection;
}

HttpParserLimits FaultServer::parserLimits() const
{
    HttpParserLimits limits = m_options.limits;
    const FaultServerLimits& set = m_scenario.limits;
    limits.maxRequestLine = set.requestLineBytes.value_or(limits.maxRequestLine);
    limits.maxHeaderBytes = set.headerBytes.value_or(limits.maxHeaderBytes);
    limits.maxHeaderCount = set.headerCount.value_or(limits.maxHeaderCount);
    limits.maxBodyBytes = set.bodyBytes.value_or(limits.maxBodyBytes);
    limits.maxStreamedBodyBytes = set.forwardBodyBytes.value_or(limits.maxStreamedBodyBytes);
    return limits;
}

LabConnection::Timeouts FaultServer::timeouts() const
{
    LabConnection::Timeouts t = m_options.timeouts;
    const FaultServerLimits& set = m_scenario.limits;
    t.idle = set.idleTimeout.value_or(t.idle);
    t.headers = set.headerTimeout.value_or(t.headers);
    t.request = set.requestTimeout.value_or(t.request);
    return t;
}

int FaultServer::maxConnections() const
{
    return m_scenario.limits.maxConnections.value_or(m_options.maxConnections);
}

// Past the cap: a 503 with Retry-After, FIN, and the peer's bytes read and dropped until it closes (so
// the close is no RST that could destroy the answer in flight); cut off after a second. These sockets are
// capped as well: a flood beyond that is reset at once.
void FaultServer::refuseOverCapacity(QTcpSocket* socket, int limit)
{
    LabEvent event;
    event.kind = LabEvent::Kind::Rejected;
    event.status = 503;
    event.detail = tr("connection limit of %1 reached").arg(limit);
    constexpr int kMaxRefusing = 64;
    if (m_overCapacity >= kMaxRefusing) {
        event.status = 0;
        event.detail += tr("; reset (more than %1 refusals pending)").arg(kMaxRefusing);
        report(event);
        socket->abort();
        socket->deleteLater();
        return;
    }
    report(event);
    ++m_overCapacity;
    socket->setParent(this);
    connect(socket, &QObject::destroyed, this, [this] { --m_overCapacity; });
    LabResponse response = LabResponse::json(503, problem(u"over_capacity"_s, event.detail));
    response.setHeader("Retry-After", "1");
    socket->write(response.serializeHead(false) + response.body);
    socket->flush();
    if (socket->socketDescriptor() >= 0)
        ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    QTimer::singleShot(std::chrono::seconds(1), socket, [socket] {
        socket->abort();
        socket->deleteLater();
    });
}

void FaultServer::onRequest(LabConnection* connection, const LabRequest& received)
{
    LabRequest request = received;
    request.id = m_nextRequestId++;
    request.receivedAtMs = nowMs();
    LabEvent event;
    event.connectionId = connection->id();
    event.requestId = request.id;
    event.method = request.method;
    event.path = request.path;
    event.attemptId = QString::fromUtf8(combinedHeader(request.headers, m_options.attemptHeader));

    if (m_options.proxy.enabled && takeProxyRequest(connection, request))
        return; // a CONNECT, or refused
    if (request.path.startsWith(u"/_lab/"_s) && request.origin.isEmpty()) {
        handleControl(connection, request);
        return;
    }
    updateOutages(); // one that has just begun or ended, even if its alarm has not rung yet
    m_exchanges.open(request, *connection);

    const qsizetype routeIndex = routeIndexFor(request);
    const FaultRoute* route = routeIndex >= 0 ? &m_scenario.routes.at(routeIndex) : nullptr;
    const QByteArray keyHeader = route && route->idempotency.enabled ? route->idempotency.header : QByteArray("Idempotency-Key");
    const QByteArray keyField = combinedHeader(request.headers, keyHeader);
    event.idempotencyKey = keyField.isNull() ? QString() : IdempotencyStore::keyFromField(keyField);
    event.route = route ? route->name : QString();

    LabReceipt receipt;
    receipt.requestId = request.id;
    receipt.method = QString::fromLatin1(request.method);
    receipt.path = request.path;
    receipt.route = event.route;
    receipt.attemptId = event.attemptId;
    receipt.idempotencyKey = event.idempotencyKey;
    receipt.atMs = request.receivedAtMs;
    m_ledger.recordRequest(receipt);
    event.kind = LabEvent::Kind::RequestReceived;
    report(event);

    const QDateTime nowUtc = QDateTime::currentDateTimeUtc();
    if (!m_outages.isEmpty()) { // the whole server is down: no route, limiter, key or step has a say
        failInOutage(connection, request, event, m_outages.first());
        return;
    }
    if (!route) {
        event.stepKind = u"no-route"_s;
        answerNow(connection, request,
            LabResponse::json(m_scenario.fallbackStatus, problem(u"no_route"_s, u"no route of the scenario matches"_s)),
            event);
        return;
    }

    RateLimiter* limiter = m_routeLimiters.at(routeIndex) ? &*m_routeLimiters[routeIndex]
                                                          : (m_sharedLimiter ? &*m_sharedLimiter : nullptr);
    std::optional<RateLimitVerdict> verdict;
    if (limiter) {
        verdict = limiter->consume(nowMs());
        if (!verdict->allowed) {
            LabResponse response = LabResponse::json(limiter->spec().status,
                problem(u"rate_limited"_s, u"quota exhausted"_s));
            RateLimitHeaders::apply(response, limiter->spec(), *verdict, nowUtc);
            RateLimitHeaders::applyRetryAfter(response, limiter->spec().retryAfterForm, verdict->retryAfter, nowUtc);
            event.stepKind = u"rate-limited"_s;
            answerNow(connection, request, response, event);
            return;
        }
    }

    if (route->idempotency.enabled) {
        if (event.idempotencyKey.isEmpty() && route->idempotency.required) {
            event.stepKind = u"key-missing"_s;
            answerNow(connection, request,
                LabResponse::json(400, problem(u"idempotency_key_missing"_s, u"Idempotency-Key is missing"_s)), event);
            return;
        }
        if (!event.idempotencyKey.isEmpty()) {
            LabResponse stored;
            const QByteArray fingerprint = IdempotencyStore::fingerprint(request.method, request.path, request.body);
            switch (m_idempotency.check(route->name, event.idempotencyKey, fingerprint, &stored)) {
            case IdempotencyStore::Verdict::PayloadMismatch:
                event.stepKind = u"key-reused"_s;
                answerNow(connection, request,
                    LabResponse::json(422, problem(u"idempotency_key_reused"_s, u"Idempotency-Key is already used"_s)),
                    event);
                return;
            case IdempotencyStore::Verdict::InFlight:
                event.stepKind = u"key-in-flight"_s;
                answerNow(connection, request,
                    LabResponse::json(409,
                        problem(u"idempotency_key_in_flight"_s, u"A request is outstanding for this Idempotency-Key"_s)),
                    event);
                return;
            case IdempotencyStore::Verdict::Replay:
                event.stepKind = u"replay"_s;
                stored.setHeader("Idempotent-Replayed", "true");
                if (verdict)
                    RateLimitHeaders::apply(stored, limiter->spec(), *verdict, nowUtc);
                answerNow(connection, request, stored, event);
                return;
            case IdempotencyStore::Verdict::Proceed:
                break;
            }
        }
    }
    play(connection, request, routeIndex, event, limiter, verdict);
}

qsizetype FaultServer::routeIndexFor(const LabRequest& request) const
{
    for (qsizetype i = 0; i < m_scenario.routes.size(); ++i) {
        const FaultRoute& route = m_scenario.routes.at(i);
        if (RouteMatcher::methodMatches(route.methods, request.method) && RouteMatcher::pathMatches(route.path, request.path)
            && (route.host.isEmpty() || hostPatternMatches(route.host, requestHost(request))))
            return i;
    }
    return -1;
}
