// SPDX-License-Identifier: GPL-3.0-or-later
// The lab as a reverse proxy (issue 12 §1), end to end on loopback: curl is the client, Python's
// http.server (tests/data/upstream/upstream_server.py) the upstream. One client request makes at most one
// upstream request; hop-by-hop fields stop at the lab (RFC 9110 §7.6.1); Host names the upstream; an
// upstream that refuses, resets, hangs, sends garbage or an answer past the max body becomes a 502/504
// saying so; idle upstream connections are closed when their time runs out; https upstreams are verified
// unless told otherwise.
#include "lab/faultserver.h"

#include "forwardtestsupport.h"
#include "labtestsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

FaultScenario forwardAll(const QByteArray& stepJson = R"({"kind":"forward","repeat":"forever"})")
{
    return oneRoute("[" + stepJson + "]");
}

} // namespace

class TestForward : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void forwardsOnceWithHostRewrittenAndHopByHopDropped();
    void chunkedAnswerRelayed();
    void upstreamConnectionKeptAlive();
    void idleUpstreamConnectionClosedAfterTwoSeconds();
    void upstreamFailures_data();
    void upstreamFailures();
    void httpsUpstream_data();
    void httpsUpstream();
    void answerLostAfterUpstreamApplied();
    void clientLeavingAbandonsTheUpstreamRequest();
    void faultsMixWithForwarding();
    void forwardedHeaders_data();
    void forwardedHeaders();
};

void TestForward::initTestCase()
{
    for (const QString& tool : { u"curl"_s, u"python3"_s }) {
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QFAIL(qPrintable(tool + u" is required (packaging/install-deps.sh installs it)"_s));
    }
}

void TestForward::forwardsOnceWithHostRewrittenAndHopByHopDropped()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);

    const CurlAnswer a = curl({ u"-H"_s, u"Connection: keep-alive, X-Drop-Me"_s, u"-H"_s, u"X-Drop-Me: 1"_s, u"-H"_s,
        u"Keep-Alive: timeout=9"_s, u"-H"_s, u"TE: trailers"_s, u"-H"_s, u"Upgrade: h2c"_s, u"-H"_s,
        u"Proxy-Connection: keep-alive"_s, u"-H"_s, u"X-Keep: yes"_s, u"--data-binary"_s, u"abc"_s,
        server.url().toString() + u"/x/echo?q=1"_s });
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.status(), 200);
    QCOMPARE(a.header("X-Upstream"), "python"_ba);
    QVERIFY2(a.header("Keep-Alive").isEmpty(), a.head.constData()); // hop-by-hop on the way back too
    const QJsonObject echo = QJsonDocument::fromJson(a.body).object();
    QCOMPARE(echo.value(u"target"_s).toString(), u"/x/echo?q=1"_s);
    QCOMPARE(echo.value(u"body_size"_s).toInt(), 3);
    QStringList names;
    QString host;
    for (const QJsonValue& pair : echo.value(u"headers"_s).toArray()) {
        names << pair.toArray().at(0).toString().toLower();
        if (names.last() == u"host"_s)
            host = pair.toArray().at(1).toString();
    }
    QCOMPARE(host, u"127.0.0.1:%1"_s.arg(python.port()));
    for (const QString& gone : { u"x-drop-me"_s, u"keep-alive"_s, u"te"_s, u"upgrade"_s, u"proxy-connection"_s })
        QVERIFY2(!names.contains(gone), qPrintable(names.join(u',')));
    QVERIFY(names.contains(u"x-keep"_s));
    QCOMPARE(names.count(u"connection"_s), 1); // the lab's own, for its connection to the upstream

    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.stepKind, u"forward"_s);
    QCOMPARE(x.upstream, options.upstream.base.toString());
    QCOMPARE(x.status, 200);
    QCOMPARE(x.outcome, u"answered"_s);
    QVERIFY(x.upstreamConnectedMs && x.upstreamFirstByteMs && x.upstreamEndMs && x.responseFinishedMs);
    QVERIFY(x.arrivedMs <= *x.upstreamConnectedMs);
    QVERIFY(*x.upstreamConnectedMs <= *x.upstreamFirstByteMs);
    QVERIFY(*x.upstreamFirstByteMs <= *x.upstreamEndMs);
    QVERIFY(*x.upstreamEndMs <= *x.responseFinishedMs);
    QTRY_COMPARE(python.requestsReceived(), 1); // one client request, one upstream request
}

void TestForward::chunkedAnswerRelayed()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    QVERIFY(server.start(options));
    // A plain forward streams: the body goes on chunked as it comes (tst_forwardstream has the big ones).
    server.loadScenario(forwardAll());
    const CurlAnswer streamed = curl({ server.url().toString() + u"/x/chunked"_s });
    QCOMPARE(streamed.status(), 200);
    QCOMPARE(streamed.body, "alpha-beta-gamma"_ba);
    QCOMPARE(streamed.header("Transfer-Encoding"), "chunked"_ba);
    QVERIFY(streamed.header("Content-Length").isEmpty());
    // A forward with a delay holds the whole answer first (scenario-format.md): reframed with its length.
    server.loadScenario(forwardAll(R"({"kind":"forward","delay_ms":1,"repeat":"forever"})"));
    const CurlAnswer a = curl({ server.url().toString() + u"/x/chunked"_s });
    QCOMPARE(a.status(), 200);
    QCOMPARE(a.body, "alpha-beta-gamma"_ba);
    QCOMPARE(a.header("Content-Length"), "16"_ba); // reframed by the lab
    QVERIFY(a.header("Transfer-Encoding").isEmpty());
}

void TestForward::upstreamConnectionKeptAlive()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    // Two clients one after the other: the second request rides the first one's upstream connection.
    const CurlAnswer first = curl({ server.url().toString() + u"/x/echo"_s });
    const CurlAnswer second = curl({ server.url().toString() + u"/x/echo"_s });
    QCOMPARE(first.status(), 200);
    QCOMPARE(second.status(), 200);
    const int port1 = QJsonDocument::fromJson(first.body).object().value(u"peer_port"_s).toInt();
    QVERIFY(port1 > 0);
    QCOMPARE(QJsonDocument::fromJson(second.body).object().value(u"peer_port"_s).toInt(), port1);
    // A connection whose answer failed never goes back to the pool: after the garbage, the next request
    // works on a new connection.
    QCOMPARE(curl({ server.url().toString() + u"/x/garbage"_s }).status(), 502);
    const CurlAnswer third = curl({ server.url().toString() + u"/x/echo"_s });
    QCOMPARE(third.status(), 200);
    QTRY_COMPARE(python.requestsReceived(), 4);
    // Another upstream (a scenario reloaded, another port): the kept connection to the first is not reused.
    PythonUpstream other;
    QVERIFY(other.start());
    server.stop();
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(other.port()));
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QCOMPARE(curl({ server.url().toString() + u"/x/echo"_s }).status(), 200);
    QTRY_COMPARE(other.requestsReceived(), 1);
    QCOMPARE(python.requestsReceived(), 4);
}

// The pool keeps an idle upstream connection at most 2 s (scenario-format.md, Forwarding), then closes it
// — it is not held, with its descriptor, until a next request looks at it (found by tst_proxyabuse: the
// proxy's descriptors stayed above the baseline after the storm). The upstream here is a plain QTcpServer,
// so the test sees when the lab closes.
void TestForward::idleUpstreamConnectionClosedAfterTwoSeconds()
{
    QTcpServer upstream;
    QVERIFY(upstream.listen(QHostAddress::LocalHost));
    QElapsedTimer clock;
    clock.start();
    qint64 closedAt = -1;
    int accepted = 0;
    connect(&upstream, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket* s = upstream.nextPendingConnection()) {
            ++accepted;
            connect(s, &QIODevice::readyRead, s, [s] {
                if (s->readAll().contains("\r\n\r\n"))
                    s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            });
            connect(s, &QAbstractSocket::disconnected, s, [&] { closedAt = clock.elapsed(); });
        }
    });
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(upstream.serverPort()));
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    const CurlAnswer a = curl({ server.url().toString() + u"/x/ok"_s });
    const qint64 answeredAt = clock.elapsed();
    QCOMPARE(a.status(), 200);
    QCOMPARE(a.body, "ok"_ba);
    QCOMPARE(accepted, 1);
    QTRY_VERIFY_WITH_TIMEOUT(closedAt >= 0, 8000);
    QVERIFY2(closedAt - answeredAt >= 1500, qPrintable(QString::number(closedAt - answeredAt))); // kept for reuse first
}

void TestForward::upstreamFailures_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("closedPort");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("error");
    QTest::addColumn<int>("upstreamRequests");
    QTest::addColumn<bool>("buffered"); // a forward that holds the whole answer (a delay) instead of streaming
    QTest::addRow("refused") << u"/x/echo"_s << true << 502 << "refused"_ba << 0 << false;
    QTest::addRow("reset before answering") << u"/x/reset"_s << false << 502 << "reset"_ba << 1 << false;
    QTest::addRow("garbage") << u"/x/garbage"_s << false << 502 << "garbage"_ba << 1 << false;
    QTest::addRow("hangs past the timeout") << u"/x/hang"_s << false << 504 << "timeout"_ba << 1 << false;
    QTest::addRow("buffered: trickles a body without end") << u"/x/trickle"_s << false << 504 << "timeout"_ba << 1 << true;
    // An answer longer than the upstream's max body (256 KiB here) is cut off, and said so — not garbage.
    QTest::addRow("buffered: endless body past the max body") << u"/x/endless"_s << false << 502 << "too_large"_ba << 1 << true;
    QTest::addRow("announced length past the max body") << u"/x/bytes/300000"_s << false << 502 << "too_large"_ba << 1 << false;
    // Streamed, the same limits cut the answer after its head went out (status 200): tst_forwardstream.
}

void TestForward::upstreamFailures()
{
    QFETCH(QString, path);
    QFETCH(bool, closedPort);
    QFETCH(int, status);
    QFETCH(QByteArray, error);
    QFETCH(int, upstreamRequests);
    QFETCH(bool, buffered);
    PythonUpstream python;
    QVERIFY(python.start());
    quint16 port = python.port();
    if (closedPort) { // a port nobody listens on: bound, then closed
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    options.upstream.timeout = std::chrono::milliseconds(600);
    options.upstream.maxBodyBytes = 256 * 1024;
    QVERIFY(server.start(options));
    server.loadScenario(buffered ? forwardAll(R"({"kind":"forward","delay_ms":1,"repeat":"forever"})") : forwardAll());
    QSignalSpy events(&server, &FaultServer::labEvent);
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlAnswer a = curl({ server.url().toString() + path });
    QCOMPARE(a.status(), status);
    QCOMPARE(a.header("X-Retrylab-Upstream-Error"), error);
    const QJsonObject body = QJsonDocument::fromJson(a.body).object();
    QCOMPARE(body.value(u"error"_s).toString(), u"upstream_"_s + QString::fromLatin1(error));
    QVERIFY(!body.value(u"detail"_s).toString().isEmpty());
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QVERIFY2(x.upstreamError.startsWith(QString::fromLatin1(error)), qPrintable(x.upstreamError));
    QCOMPARE(x.status, status);
    bool reported = false;
    for (const QList<QVariant>& args : std::as_const(events)) {
        const LabEvent e = args.first().value<LabEvent>();
        reported = reported || (e.kind == LabEvent::Kind::UpstreamFailed && e.status == status);
    }
    QVERIFY(reported);
    QTRY_COMPARE(python.requestsReceived(), upstreamRequests);
    QTest::qWait(100);
    QCOMPARE(python.requestsReceived(), upstreamRequests); // the lab never retried on its own
}

void TestForward::httpsUpstream_data()
{
    QTest::addColumn<QString>("trust"); // "", "ca", "insecure"
    QTest::addColumn<int>("status");
    QTest::addRow("untrusted certificate: 502 tls") << QString() << 502;
    QTest::addRow("--upstream-ca") << u"ca"_s << 200;
    QTest::addRow("--upstream-insecure") << u"insecure"_s << 200;
}

void TestForward::httpsUpstream()
{
    QFETCH(QString, trust);
    QFETCH(int, status);
    PythonUpstream python;
    QVERIFY(python.start(true));
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"https://localhost:%1"_s.arg(python.port()));
    if (trust == u"ca"_s)
        options.upstream.caFile = QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-cert.pem");
    options.upstream.insecure = trust == u"insecure"_s;
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlAnswer a = curl({ server.url().toString() + u"/x/echo"_s });
    QCOMPARE(a.status(), status);
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.upstreamTlsVerified, std::optional<bool>(trust != u"insecure"_s));
    if (status == 502) {
        QCOMPARE(a.header("X-Retrylab-Upstream-Error"), "tls"_ba);
        QCOMPARE(python.requestsReceived(), 0);
    } else {
        QVERIFY(x.upstreamTlsMs && *x.upstreamTlsMs >= *x.upstreamConnectedMs);
        QTRY_COMPARE(python.requestsReceived(), 1);
        // The TLS connection is kept like a plain one: the next request rides it, without a new handshake.
        const CurlAnswer b = curl({ server.url().toString() + u"/x/echo"_s });
        QCOMPARE(b.status(), 200);
        const int port1 = QJsonDocument::fromJson(a.body).object().value(u"peer_port"_s).toInt();
        QVERIFY(port1 > 0);
        QCOMPARE(QJsonDocument::fromJson(b.body).object().value(u"peer_port"_s).toInt(), port1);
        QTRY_COMPARE(finished.size(), 2);
        QVERIFY(!finished.at(1).first().value<LabExchange>().upstreamTlsMs); // no second handshake
        QTRY_COMPARE(python.requestsReceived(), 2);
    }
}

void TestForward::answerLostAfterUpstreamApplied()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll(R"({"kind":"forward","then":"close","repeat":"forever"})"));
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlAnswer a = curl({ u"-X"_s, u"POST"_s, server.url().toString() + u"/x/echo"_s });
    QCOMPARE(a.exitCode, 52); // curl: empty reply from server
    QTRY_COMPARE(python.requestsReceived(), 1); // the upstream did it…
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"closed"_s); // …and the client never heard
    QVERIFY(x.upstreamEndMs);
}

void TestForward::clientLeavingAbandonsTheUpstreamRequest()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlAnswer a = curl({ u"--max-time"_s, u"0.4"_s, server.url().toString() + u"/x/hang"_s });
    QCOMPARE(a.exitCode, 28);
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"client-gone"_s);
    QVERIFY2(x.upstreamError.startsWith(u"abandoned"_s), qPrintable(x.upstreamError));
    QVERIFY(x.upstreamConnectedMs && !x.upstreamFirstByteMs);
    // The lab is still serving, and nothing more is recorded for the abandoned request.
    QCOMPARE(curl({ server.url().toString() + u"/x/echo"_s }).status(), 200);
    QTRY_COMPARE(finished.size(), 2);
    QTRY_COMPARE(python.requestsReceived(), 2);
}

void TestForward::faultsMixWithForwarding()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    QVERIFY(server.start(options));
    // "503, 503, forward" with the forwarded answer modified: status, a replaced and an added field.
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":503,"repeat":2},
        {"kind":"forward","status":202,"headers":{"X-Upstream":"relabelled","RateLimit-Remaining":"4"}}])"));
    QCOMPARE(curl({ server.url().toString() + u"/x/echo"_s }).status(), 503);
    QCOMPARE(curl({ server.url().toString() + u"/x/echo"_s }).status(), 503);
    QCOMPARE(python.requestsReceived(), 0);
    const CurlAnswer a = curl({ server.url().toString() + u"/x/echo"_s });
    QCOMPARE(a.status(), 202);
    QCOMPARE(a.header("X-Upstream"), "relabelled"_ba);
    QCOMPARE(a.header("RateLimit-Remaining"), "4"_ba);
    QCOMPARE(QJsonDocument::fromJson(a.body).object().value(u"target"_s).toString(), u"/x/echo"_s);
    QTRY_COMPARE(python.requestsReceived(), 1);
}

// Via and X-Forwarded-* (RFC 9110 §7.6.3 for Via): off unless asked for, by the scenario or the option; an
// incoming chain is appended to, never replaced. Python echoes what it received.
void TestForward::forwardedHeaders_data()
{
    QTest::addColumn<bool>("option");
    QTest::addColumn<bool>("scenarioField");
    QTest::addColumn<bool>("incomingChain");
    QTest::addRow("off by default") << false << false << false;
    QTest::addRow("off by default, the client's own fields untouched") << false << false << true;
    QTest::addRow("on by the option (serve --forwarded-headers)") << true << false << false;
    QTest::addRow("on by the scenario's forwarded_headers") << false << true << false;
    QTest::addRow("on, appended to the client's Via and X-Forwarded-For") << true << false << true;
}

void TestForward::forwardedHeaders()
{
    QFETCH(bool, option);
    QFETCH(bool, scenarioField);
    QFETCH(bool, incomingChain);
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    options.upstream.forwardedHeaders = option;
    QVERIFY(server.start(options));
    FaultScenario scenario = forwardAll();
    scenario.forwardedHeaders = scenarioField;
    server.loadScenario(scenario);
    QStringList args { server.url().toString() + u"/x/echo"_s, u"-H"_s, u"Host: api.example.test"_s };
    if (incomingChain)
        args << u"-H"_s << u"X-Forwarded-For: 203.0.113.7"_s << u"-H"_s << u"Via: 1.1 edge"_s;
    const CurlAnswer a = curl(args);
    QCOMPARE(a.status(), 200);
    QHash<QString, QString> seen;
    const QJsonArray headers = QJsonDocument::fromJson(a.body).object().value(u"headers"_s).toArray();
    for (const QJsonValue& pair : headers)
        seen.insert(pair.toArray().at(0).toString().toLower(), pair.toArray().at(1).toString());
    const bool on = option || scenarioField;
    if (!on) {
        QCOMPARE(seen.value(u"via"_s), incomingChain ? u"1.1 edge"_s : QString());
        QCOMPARE(seen.value(u"x-forwarded-for"_s), incomingChain ? u"203.0.113.7"_s : QString());
        QVERIFY(!seen.contains(u"x-forwarded-host"_s));
        QVERIFY(!seen.contains(u"x-forwarded-proto"_s));
        return;
    }
    QCOMPARE(seen.value(u"via"_s), incomingChain ? u"1.1 edge, 1.1 retrylab"_s : u"1.1 retrylab"_s);
    QCOMPARE(seen.value(u"x-forwarded-for"_s), incomingChain ? u"203.0.113.7, 127.0.0.1"_s : u"127.0.0.1"_s);
    QCOMPARE(seen.value(u"x-forwarded-host"_s), u"api.example.test"_s);
    QCOMPARE(seen.value(u"x-forwarded-proto"_s), u"http"_s);
    QCOMPARE(seen.value(u"host"_s), u"127.0.0.1:%1"_s.arg(python.port())); // Host still names the upstream
}

QTEST_GUILESS_MAIN(TestForward)
#include "tst_forward.moc"
