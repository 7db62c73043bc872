// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultscenario.h"
#include "lab/exchangetracker.h"
#include "lab/faultserveroptions.h"
#include "lab/idempotencystore.h"
#include "lab/labevent.h"
#include "lab/labexchange.h"
#include "lab/labledger.h"
#include "lab/proxyhost.h"
#include "lab/ratelimiter.h"
#include "lab/responsetemplate.h"
#include "lab/stepplayer.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <chrono>
#include <functional>
#include <optional>

class ExchangePlayback;
class ForwardStream;
class LabConnection;
class LabTlsServer;
class ProxyTunnel;
class QSslSocket;
class QDateTime;
class QTcpServer;
class QTcpSocket;
class QTimer;
struct LabRequest;
class UpstreamCall;
struct UpstreamResult;
class UploadStream;

// The fault lab: an HTTP/1.1 server on loopback that answers according to a FaultScenario, at the level
// faults really happen (bytes and timing on real sockets). Every event is reported as a LabEvent stamped
// on a monotonic clock whose origin the owner may share (setClockOrigin), every exchange (a request and
// what became of it) as a LabExchange when it ends, and what was received and applied is kept in a
// LabLedger (also served at GET /_lab/ledger). Requests under /_lab/ are control requests: neither
// counted nor recorded as exchanges.
class FaultServer : public QObject
{
    Q_OBJECT
public:
    explicit FaultServer(QObject* parent = nullptr);
    ~FaultServer() override;

    // Starts listening; false (and errorString()) when an address cannot be bound or is refused.
    bool start(const FaultServerOptions& options = {});
    void stop(); // closes listeners and every connection
    bool isListening() const;
    QString errorString() const { return m_error; }
    QStringList warnings() const { return m_warnings; } // e.g. "listening beyond loopback"

    quint16 port() const { return m_port; }
    quint16 tlsPort() const { return m_tlsPort; }
    QUrl url() const; // http://127.0.0.1:PORT
    QUrl tlsUrl() const; // https://127.0.0.1:TLSPORT, empty without TLS
    bool listensOnIpv6Loopback() const;

    void loadScenario(const FaultScenario& scenario); // also resets
    const FaultScenario& scenario() const { return m_scenario; }
    void reset(); // ledger, step positions, idempotency keys, rate limiters, outage clock

    const LabLedger& ledger() const { return m_ledger; }
    // Where `forward` steps go: FaultServerOptions::upstream, else the scenario's "upstream" (may be unset).
    UpstreamTarget upstream() const;
    // Where REQUEST's `forward` step goes: as a forward proxy, the origin the client addressed (with its
    // --map address); otherwise upstream().
    UpstreamTarget upstreamFor(const LabRequest& request) const;
    bool isForwardProxy() const { return m_options.proxy.enabled; }
    // As a forward proxy: every host:port clients reached, in the order first seen.
    QList<ProxyHost> proxyHosts() const;
    // The hosts never intercepted from now on (their tunnels relayed untouched, their plain http refused).
    void setProxyPassThrough(const QStringList& hosts);
    // The salt this server redacts secret header values with (ledger, JSON lines): equal secrets compare
    // equal within one server, never across servers.
    const QByteArray& redactionSalt() const { return m_redactionSalt; }
    int openConnectionCount() const { return int(m_connections.size()); }
    // The most bytes a streamed answer ever had waiting for its client (since start or reset): what the
    // proxy holds per answer, whatever the answer's size.
    qint64 streamPeakBufferedBytes() const;
    // The most request-body bytes a streamed upload ever had waiting for the upstream (since start or reset).
    qint64 uploadPeakUnsentBytes() const;

    // Timestamps are milliseconds since ORIGIN (by default: since this server was constructed).
    void setClockOrigin(const QElapsedTimer& origin)
    {
        m_clock = origin;
        m_now = nullptr;
    }
    // Or stamps them with NOWMS: milliseconds on the owner's time axis (a batch's, which starts at 0).
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }
    qint64 nowMs() const { return m_now ? m_now() : m_clock.elapsed(); }

signals:
    void labEvent(const LabEvent& event); // every event below, and the others
    void requestReceived(const LabEvent& event);
    void responseStarted(const LabEvent& event);
    void responseFinished(const LabEvent& event);
    void connectionDropped(const LabEvent& event);
    void operationApplied(const LabEvent& event);
    void listeningChanged(bool listening);
    // One per exchange, when it ends: answered, cut, refused, or the client gone (labexchange.h).
    void exchangeFinished(const LabExchange& exchange);
    void proxyHostsChanged(); // a host was first seen, or its counts changed

private:
    bool listenAll();
    void closeListeners();
    void onNewConnection(QTcpServer* server);
    LabConnection* adopt(QTcpSocket* socket, LabTlsMode tlsMode);
    // The lab as a forward proxy (faultserverproxy.cpp): CONNECT, absolute-form targets, per-host counts.
    bool takeProxyRequest(LabConnection* connection, LabRequest& request); // true: answered here
    void openTunnel(LabConnection* connection, const LabRequest& request);
    void onIntercepted(QSslSocket* socket, const QString& origin);
    ProxyHost& proxyHost(const QString& host, quint16 port);
    void noteProxyProblem(const QString& authority, const QString& problem);
    void onRequest(LabConnection* connection, const LabRequest& request);
    // A request's head, its body to come: when it will be forwarded, its body is streamed (faultserverupload.cpp).
    void onHead(LabConnection* connection, const LabRequest& head);
    bool forwardsAtHead(const LabRequest& head) const;
    qsizetype routeIndexFor(const LabRequest& request) const; // the first route it matches, -1: none
    void startUpload(LabConnection* connection, const LabRequest& request, UpstreamCall* call);
    void onUploadFailed(quint64 requestId, int status, const QString& reason);
    void noteUpload(LabExchange& exchange); // the streamed body's facts into its exchange, as it ends
    void handleControl(LabConnection* connection, const LabRequest& request);
    void answerNow(LabConnection* connection, const LabRequest& request, LabResponse response, LabEvent event);
    void play(LabConnection* connection, const LabRequest& request, qsizetype routeIndex, LabEvent event,
        const RateLimiter* limiter, std::optional<RateLimitVerdict> verdict);
    void startPlayback(LabConnection* connection, const FaultStep& step, const LabResponse& response,
        bool keepAlive, LabEvent event, std::function<void(bool answered)> onDone);
    // The answer a step writes, its templates filled with VALUES.
    static LabResponse stepAnswer(
        const FaultStep& step, const ResponseTemplate::Values& values, const QDateTime& nowUtc);
    ResponseTemplate::Values templateValues(
        const LabRequest& request, qsizetype routeIndex, const LabEvent& event) const;
    std::chrono::milliseconds rampDelay(qsizetype routeIndex, qsizetype stepIndex, const LatencyRamp& ramp);
    // Outages: the scenario's windows and `outage` steps (faultserveroutage.cpp).
    struct RunningOutage
    {
        FaultStep answer; // status mode: what every request gets (status, headers, body, retry_after, delay_ms)
        OutageMode mode = OutageMode::Status;
        ResponseTemplate::Values values; // a step's: its starting request's, for the answer's templates
        qint64 untilMs = 0;
        int window = -1; // a window's index in the scenario's outages
        int record = -1; // its LabOutage in the ledger
        QString what; // "outages[0]", "route orders, steps[1]"
    };
    void refuseFor(std::chrono::milliseconds duration, const QString& why);
    void scheduleOutages();
    void updateOutages(); // windows begun or over, outages over: as the clock says now; then the next alarm
    bool inOutage() const;
    RunningOutage startOutage(qsizetype routeIndex, qsizetype stepIndex, ResponseTemplate::Values values);
    RunningOutage beginOutage(RunningOutage outage, LabOutage record);
    void endOutage(qsizetype index);
    // OUTAGE by value: the playback's signals may reset the server, and with it the outages under way.
    void failInOutage(LabConnection* connection, const LabRequest& request, LabEvent event, RunningOutage outage);
    void report(LabEvent event);
    void onConnectionClosed(LabConnection* connection);
    void onRejected(LabConnection* connection, int status, const QString& why);
    void onExchangeEnded(const LabExchange& exchange);
    // Proxy mode (faultserverforward.cpp).
    void forward(LabConnection* connection, const LabRequest& request, const FaultStep& step, LabEvent event,
        std::function<void(bool)> onDone);
    void relay(LabConnection* connection, const LabRequest& request, const FaultStep& step, LabEvent event,
        const UpstreamResult& result, std::function<void(bool)> onDone);
    void noteUpstream(quint64 requestId, const UpstreamResult& result);
    // A plain forward streams: the head when the upstream's is in, the body as it comes (forwardstream.h).
    LabResponse relayedHead(const FaultStep& step, int status, const HttpHeaderList& upstreamHeaders) const;
    void startStream(quint64 connectionId, const LabRequest& request, const FaultStep& step, const LabEvent& event,
        UpstreamCall* call);
    void endStream(quint64 requestId, LabEvent event, const UpstreamResult& result);
    void noteStream(quint64 requestId, const ForwardStream& stream);
    void abandonUpstream(quint64 requestId); // the client left while its request was upstream
    void abandonAllUpstream();
    // Idle keep-alive connections to the upstream (http or https): each carries one forwarded request at a time,
    // and a request is never re-sent on another one (at most one upstream request per client request).
    static QString poolKey(const UpstreamTarget& target);
    QTcpSocket* takeIdleUpstream(const QString& key);
    void keepIdleUpstream(QTcpSocket* socket, const QString& key);
    void dropIdleUpstream();
    void sweepIdleUpstream(); // closes the pool's connections idle for 2 s
    static QString outcomeOf(const FaultStep& step, bool answered, const LabExchange& exchange);
    void refuseOverCapacity(QTcpSocket* socket, int limit);
    // The server's options with the scenario's limits applied over them.
    HttpParserLimits parserLimits() const;
    LabConnection::Timeouts timeouts() const;
    int maxConnections() const;

    FaultServerOptions m_options;
    QPointer<QTcpServer> m_v4;
    QPointer<QTcpServer> m_v6;
    QPointer<LabTlsServer> m_tls;
    quint16 m_port = 0;
    quint16 m_tlsPort = 0;
    bool m_started = false;
    int m_refusing = 0;
    QString m_error;
    QStringList m_warnings;

    QHash<quint64, LabConnection*> m_connections;
    QList<QPointer<ProxyTunnel>> m_tunnels; // being set up or relaying
    QList<ProxyHost> m_proxyHosts;
    int m_overCapacity = 0; // connections past the cap still being answered 503
    QList<QPointer<ExchangePlayback>> m_playbacks;
    QList<QTimer*> m_outageTimers; // refusals under way
    QTimer* m_outageAlarm = nullptr; // the next moment an outage begins or ends
    QList<RunningOutage> m_outages; // under way
    QList<int> m_windowState; // per outage window: 0 to come, 1 under way, 2 over
    quint64 m_nextConnectionId = 1;
    quint64 m_nextRequestId = 1;
    quint64 m_generation = 0; // bumped by reset(): late callbacks of an older run are ignored

    FaultScenario m_scenario;
    QList<StepPlayer> m_players;
    QList<std::optional<RateLimiter>> m_routeLimiters;
    std::optional<RateLimiter> m_sharedLimiter;
    QList<int> m_appliedPerRoute;
    QHash<quint64, qint64> m_rampStarts; // (route << 32 | step) → when the latency ramp's step first played
    IdempotencyStore m_idempotency;
    LabLedger m_ledger;
    ExchangeTracker m_exchanges;
    QHash<quint64, UpstreamCall*> m_upstreamCalls; // by request id, while upstream
    QHash<quint64, ForwardStream*> m_streams; // by request id, while an answer streams to its client
    qint64 m_streamPeakBuffered = 0;
    QHash<quint64, UploadStream*> m_uploads; // by request id, while a request body streams upstream
    qint64 m_uploadPeakUnsent = 0;
    QList<QTcpSocket*> m_idleUpstream; // newest last
    QTimer* m_idleSweep = nullptr;
    QByteArray m_redactionSalt; // the ledger's redacted secrets compare equal within one server
    QElapsedTimer m_clock;
    std::function<qint64()> m_now;
    qint64 m_scenarioStartMs = 0;
};
