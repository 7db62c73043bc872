// SPDX-License-Identifier: GPL-3.0-or-later
// The lab as a forward proxy (issue 31 §1, resilience-fleets.md §4c–4d), end to end on loopback with clients
// and upstreams nobody here wrote: curl through the proxy (absolute-form for http, CONNECT for https), Python's
// http.server as the upstream (in TLS with its own certificate made by openssl), the leaves checked by curl.
// RFC 9110 §9.3.6: CONNECT takes an authority-form target and a 2xx makes the connection a tunnel; a 2xx
// carries no Content-Length. Hosts not intercepted are relayed untouched; plain http to them is refused.
// Abuse: bad CONNECT targets, a CONNECT that never ends, handshakes that never finish, garbage after the 2xx,
// 1 000 tunnels at once — the lab keeps serving.
#include "lab/faultserver.h"

#include "forwardtestsupport.h"
#include "intercept/interceptauthority.h"
#include "labtestsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class TestForwardProxy : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void absoluteFormGoesToTheNamedHost();
    void connectInterceptedAndBothSidesVerified();
    void upstreamCertificateFailureShownOnTheExchange();
    void clientWithoutTheCaFailsAndIsReported();
    void otherHostsRelayedUntouched();
    void routesByHost();
    void badConnectTargets_data();
    void badConnectTargets();
    void abuseLeavesTheLabServing();
    void thousandTunnels();
    void finishedTunnelsFreeTheirPlace();

private:
    FaultServerOptions proxyOptions(const QStringList& intercept = {}) const;
    QString m_upstreamCert;
    QString m_upstreamKey;
    QTemporaryDir m_dir;
    std::shared_ptr<InterceptAuthority> m_authority;
};

namespace {

FaultScenario forwardEverything()
{
    return scenarioFrom(R"({"format":1,"name":"p","routes":[{"name":"all","path":"/**","steps":[{"kind":"forward","repeat":"forever"}]}]})");
}

// curl through the proxy, the event loop running meanwhile.
CurlAnswer viaProxy(const FaultServer& server, const QString& url, const QStringList& extra = {})
{
    // --suppress-connect-headers: the head read back is the origin's answer, not the proxy's 200 to CONNECT.
    return curl(QStringList { u"-x"_s, server.url().toString(), u"--suppress-connect-headers"_s } + extra + QStringList { url });
}

// A raw connection to the proxy: what it answered to BYTES, within TIMEOUTMS.
struct Raw
{
    std::unique_ptr<QTcpSocket> socket = std::make_unique<QTcpSocket>();
    QByteArray got;
    bool open(quint16 port)
    {
        QObject::connect(socket.get(), &QTcpSocket::readyRead, socket.get(), [this] { got += socket->readAll(); });
        socket->connectToHost(u"127.0.0.1"_s, port);
        return QTest::qWaitFor([&] { return socket->state() == QAbstractSocket::ConnectedState; }, 5000);
    }
    bool closedWithin(int ms)
    {
        return QTest::qWaitFor([&] { return socket->state() == QAbstractSocket::UnconnectedState; }, ms);
    }
};

} // namespace

void TestForwardProxy::initTestCase()
{
    for (const QString& tool : { u"curl"_s, u"python3"_s, u"openssl"_s }) {
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QFAIL(qPrintable(tool + u" is required (packaging/install-deps.sh installs it)"_s));
    }
    QVERIFY(m_dir.isValid());
    // The upstream's own certificate, made by openssl, for the names the tests reach it by.
    m_upstreamCert = m_dir.filePath(u"upstream.crt"_s);
    m_upstreamKey = m_dir.filePath(u"upstream.key"_s);
    QProcess openssl;
    openssl.start(u"openssl"_s, { u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
                                    u"-nodes"_s, u"-keyout"_s, m_upstreamKey, u"-out"_s, m_upstreamCert, u"-days"_s, u"2"_s,
                                    u"-subj"_s, u"/CN=api.test"_s, u"-addext"_s, u"subjectAltName=DNS:api.test,DNS:other.test"_s });
    QVERIFY(openssl.waitForFinished(20000));
    QCOMPARE(openssl.exitCode(), 0);
    QString error;
    m_authority = InterceptAuthority::open(m_dir.filePath(u"ca"_s), true, &error);
    QVERIFY2(m_authority, qPrintable(error));
}

FaultServerOptions TestForwardProxy::proxyOptions(const QStringList& intercept) const
{
    FaultServerOptions options;
    options.proxy.enabled = true;
    options.proxy.authority = m_authority;
    options.proxy.intercept = intercept;
    return options;
}

void TestForwardProxy::absoluteFormGoesToTheNamedHost()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options = proxyOptions();
    options.proxy.map << *HostMapping::parse(u"api.test=127.0.0.1:%1"_s.arg(python.port()), nullptr);
    QVERIFY(server.start(options));
    server.loadScenario(forwardEverything());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);

    const CurlAnswer a = viaProxy(server, u"http://api.test/x/echo?q=1"_s);
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.status(), 200);
    const QJsonObject echo = QJsonDocument::fromJson(a.body).object();
    QCOMPARE(echo.value(u"target"_s).toString(), u"/x/echo?q=1"_s); // origin-form upstream, never absolute
    bool hostSeen = false;
    for (const QJsonValue& h : echo.value(u"headers"_s).toArray()) {
        if (h.toArray().at(0).toString().compare(u"host"_s, Qt::CaseInsensitive) == 0)
            hostSeen = h.toArray().at(1).toString() == u"api.test"_s;
    }
    QVERIFY2(hostSeen, a.body.constData());
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.origin, u"http://api.test:80"_s);
    QCOMPARE(python.requestsReceived(), 1);
    QCOMPARE(server.ledger().requestsReceived(), 1);
    QCOMPARE(server.proxyHosts().size(), 1);
    QCOMPARE(server.proxyHosts().first().authority, u"api.test:80"_s);
    QCOMPARE(server.proxyHosts().first().requests, 1);
}

void TestForwardProxy::connectInterceptedAndBothSidesVerified()
{
    PythonUpstream python;
    QVERIFY(python.start(true)); // localhost's certificate: not api.test's
    QProcess tlsUpstream;
    const quint16 tlsPort = startPythonUpstream(tlsUpstream,
        { QStringLiteral(RETRYLAB_TEST_DATA "/upstream/upstream_server.py"), u"--tls"_s, m_upstreamCert, m_upstreamKey });
    QVERIFY(tlsPort);
    FaultServer server;
    FaultServerOptions options = proxyOptions();
    options.upstream.caFile = m_upstreamCert; // the upstream's own certificate, as --upstream-ca gives it
    options.proxy.map << *HostMapping::parse(u"api.test=127.0.0.1:%1"_s.arg(tlsPort), nullptr);
    QVERIFY(server.start(options));
    server.loadScenario(forwardEverything());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    QSignalSpy events(&server, &FaultServer::labEvent);

    // Two requests on one tunnel: the decrypted connection is kept alive like any other.
    const CurlAnswer a = viaProxy(server, u"https://api.test/x/echo"_s,
        { u"--cacert"_s, m_authority->certificatePath(), u"-H"_s, u"X-Case: one"_s, u"--next"_s, u"-x"_s,
            server.url().toString(), u"--suppress-connect-headers"_s, u"--cacert"_s, m_authority->certificatePath(), u"https://api.test/x/echo"_s });
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.status(), 200);
    QTRY_COMPARE(finished.size(), 2);
    for (const QVariantList& args : std::as_const(finished)) {
        const LabExchange x = args.first().value<LabExchange>();
        QCOMPARE(x.origin, u"https://api.test:443"_s);
        QCOMPARE(x.status, 200);
        QCOMPARE(x.upstreamTlsVerified, std::optional<bool>(true));
    }
    const ProxyHost host = server.proxyHosts().value(0);
    QCOMPARE(host.authority, u"api.test:443"_s);
    QVERIFY(host.intercepted);
    QCOMPARE(host.tunnels, 1);
    QCOMPARE(host.requests, 2);
    QCOMPARE(server.ledger().requestsReceived(), 2);
    int tunnelEvents = 0;
    for (const QVariantList& args : std::as_const(events)) {
        const LabEvent e = args.first().value<LabEvent>();
        if (e.kind == LabEvent::Kind::Tunnel) {
            ++tunnelEvents;
            QVERIFY2(e.detail.contains(u"intercepted"_s), qPrintable(e.detail));
        }
    }
    QCOMPARE(tunnelEvents, 1);
    tlsUpstream.kill();
    tlsUpstream.waitForFinished(3000);
}

void TestForwardProxy::upstreamCertificateFailureShownOnTheExchange()
{
    QProcess tlsUpstream;
    const quint16 tlsPort = startPythonUpstream(tlsUpstream,
        { QStringLiteral(RETRYLAB_TEST_DATA "/upstream/upstream_server.py"), u"--tls"_s, m_upstreamCert, m_upstreamKey });
    QVERIFY(tlsPort);
    FaultServer server;
    FaultServerOptions options = proxyOptions(); // the system's CAs only: the upstream's self-made one fails
    options.proxy.map << *HostMapping::parse(u"api.test=127.0.0.1:%1"_s.arg(tlsPort), nullptr);
    QVERIFY(server.start(options));
    server.loadScenario(forwardEverything());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlAnswer a = viaProxy(server, u"https://api.test/x/echo"_s, { u"--cacert"_s, m_authority->certificatePath() });
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.status(), 502);
    QCOMPARE(a.header("X-Retrylab-Upstream-Error"), "tls"_ba);
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QVERIFY2(x.upstreamError.startsWith(u"tls: "_s) && x.upstreamError.contains(u"self-signed"_s), qPrintable(x.upstreamError));
    tlsUpstream.kill();
    tlsUpstream.waitForFinished(3000);
}

void TestForwardProxy::clientWithoutTheCaFailsAndIsReported()
{
    FaultServer server;
    QVERIFY(server.start(proxyOptions()));
    server.loadScenario(forwardEverything());
    QSignalSpy events(&server, &FaultServer::labEvent);
    // curl given the upstream's CA instead of Retrylab's refuses the minted leaf: exit 60.
    const CurlAnswer a = viaProxy(server, u"https://api.test/x/echo"_s, { u"--cacert"_s, m_upstreamCert });
    QCOMPARE(a.exitCode, 60);
    QTRY_VERIFY(!server.proxyHosts().isEmpty() && server.proxyHosts().first().failures == 1);
    QVERIFY2(server.proxyHosts().first().lastProblem.contains(u"TLS handshake with the client failed"_s),
        qPrintable(server.proxyHosts().first().lastProblem));
    QCOMPARE(server.proxyHosts().first().requests, 0);
    QCOMPARE(server.ledger().requestsReceived(), 0);
}

void TestForwardProxy::otherHostsRelayedUntouched()
{
    QProcess tlsUpstream;
    const quint16 tlsPort = startPythonUpstream(tlsUpstream,
        { QStringLiteral(RETRYLAB_TEST_DATA "/upstream/upstream_server.py"), u"--tls"_s, m_upstreamCert, m_upstreamKey });
    QVERIFY(tlsPort);
    FaultServer server;
    FaultServerOptions options = proxyOptions({ u"*.intercepted.test"_s });
    options.proxy.map << *HostMapping::parse(u"api.test=127.0.0.1:%1"_s.arg(tlsPort), nullptr);
    QVERIFY(server.start(options));
    server.loadScenario(forwardEverything());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    // The upstream's own certificate reaches curl: it trusts only that one, and the answer comes.
    const CurlAnswer a = viaProxy(server, u"https://api.test/x/echo"_s, { u"--cacert"_s, m_upstreamCert });
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.status(), 200);
    QTRY_VERIFY(!server.proxyHosts().isEmpty() && server.proxyHosts().first().relayedBytes > 0);
    const ProxyHost host = server.proxyHosts().first();
    QVERIFY(!host.intercepted);
    QCOMPARE(host.tunnels, 1);
    QCOMPARE(finished.size(), 0); // nothing decrypted, nothing recorded as an exchange
    // Plain http to a host not intercepted: refused, never relayed blind.
    const CurlAnswer refused = viaProxy(server, u"http://api.test/x/echo"_s);
    QCOMPARE(refused.status(), 403);
    QVERIFY(refused.body.contains("not_intercepted"));
    tlsUpstream.kill();
    tlsUpstream.waitForFinished(3000);
}

void TestForwardProxy::routesByHost()
{
    FaultServer server;
    QVERIFY(server.start(proxyOptions()));
    server.loadScenario(scenarioFrom(R"({"format":1,"name":"hosts","routes":[
        {"name":"down","host":"api.test","path":"/**","steps":[{"kind":"respond","status":503,"retry_after":2,"repeat":"forever"}]},
        {"name":"up","host":"*.example.test","path":"/**","steps":[{"kind":"respond","status":201,"repeat":"forever"}]}]})"));
    const CurlAnswer down = viaProxy(server, u"http://api.test/v1/x"_s);
    QCOMPARE(down.status(), 503);
    QCOMPARE(down.header("Retry-After"), "2"_ba);
    const CurlAnswer up = viaProxy(server, u"https://eu.example.test/v1/x"_s, { u"--cacert"_s, m_authority->certificatePath() });
    QCOMPARE(up.exitCode, 0);
    QCOMPARE(up.status(), 201);
    const CurlAnswer none = viaProxy(server, u"http://example.test/v1/x"_s); // "*.example.test" is not the name itself
    QCOMPARE(none.status(), 404);
}

void TestForwardProxy::badConnectTargets_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addRow("no port") << QByteArray("CONNECT api.test HTTP/1.1\r\nHost: api.test\r\n\r\n");
    QTest::addRow("port 0") << QByteArray("CONNECT api.test:0 HTTP/1.1\r\nHost: api.test:0\r\n\r\n");
    QTest::addRow("port too large") << QByteArray("CONNECT api.test:70000 HTTP/1.1\r\n\r\n");
    QTest::addRow("origin-form") << QByteArray("CONNECT /path HTTP/1.1\r\n\r\n");
    QTest::addRow("absolute-form") << QByteArray("CONNECT https://api.test:443/ HTTP/1.1\r\n\r\n");
    QTest::addRow("bad v6") << QByteArray("CONNECT [zz::1]:443 HTTP/1.1\r\n\r\n");
    QTest::addRow("bare v6") << QByteArray("CONNECT ::1:443 HTTP/1.1\r\n\r\n");
    QTest::addRow("odd characters") << QByteArray("CONNECT api%2etest:443 HTTP/1.1\r\n\r\n");
}

void TestForwardProxy::badConnectTargets()
{
    QFETCH(QByteArray, request);
    FaultServer server;
    QVERIFY(server.start(proxyOptions()));
    server.loadScenario(forwardEverything());
    const RawExchange r = rawExchange(server.port(), request, 5000, true);
    QVERIFY2(r.bytes.startsWith("HTTP/1.1 400 "), r.bytes.constData());
    QVERIFY(r.closedByServer);
    QVERIFY(r.bytes.contains("authority-form"));
    QCOMPARE(server.ledger().requestsReceived(), 0);
}

void TestForwardProxy::abuseLeavesTheLabServing()
{
    FaultServer server;
    FaultServerOptions options = proxyOptions();
    options.proxy.handshakeTimeout = std::chrono::milliseconds(400);
    options.timeouts.headers = std::chrono::milliseconds(400);
    QVERIFY(server.start(options));
    server.loadScenario(scenarioFrom(R"({"format":1,"name":"ok","routes":[{"path":"/**","steps":[{"kind":"respond","status":200,"repeat":"forever"}]}]})"));

    // A CONNECT that never ends: the head's timeout closes it.
    Raw slow;
    QVERIFY(slow.open(server.port()));
    slow.socket->write("CONNECT api.te");
    QVERIFY(slow.closedWithin(5000));
    QVERIFY2(slow.got.startsWith("HTTP/1.1 408"), slow.got.constData());

    // A tunnel whose TLS handshake never finishes: a ClientHello's first bytes, then nothing.
    Raw stalled;
    QVERIFY(stalled.open(server.port()));
    stalled.socket->write("CONNECT api.test:443 HTTP/1.1\r\nHost: api.test:443\r\n\r\n");
    QVERIFY(QTest::qWaitFor([&] { return stalled.got.contains("\r\n\r\n"); }, 5000));
    QVERIFY2(stalled.got.startsWith("HTTP/1.1 200 "), stalled.got.constData());
    QVERIFY(!stalled.got.toLower().contains("content-length")); // RFC 9110 §9.3.6
    stalled.socket->write(QByteArray::fromHex("160301"));
    QVERIFY(stalled.closedWithin(5000));

    // A tunnel that says nothing at all after the 2xx.
    Raw silent;
    QVERIFY(silent.open(server.port()));
    silent.socket->write("CONNECT api.test:443 HTTP/1.1\r\n\r\n");
    QVERIFY(silent.closedWithin(5000));

    // TLS-looking garbage after the 2xx: the handshake fails, the tunnel ends.
    Raw garbage;
    QVERIFY(garbage.open(server.port()));
    garbage.socket->write("CONNECT api.test:443 HTTP/1.1\r\n\r\n");
    QVERIFY(QTest::qWaitFor([&] { return garbage.got.contains("\r\n\r\n"); }, 5000));
    garbage.socket->write(QByteArray::fromHex("16030100ff") + QByteArray(300, '\xee'));
    QVERIFY(garbage.closedWithin(5000));

    // Plain-text garbage after the 2xx is read as HTTP inside the tunnel: a 400, then closed.
    Raw text;
    QVERIFY(text.open(server.port()));
    text.socket->write("CONNECT api.test:80 HTTP/1.1\r\n\r\n");
    QVERIFY(QTest::qWaitFor([&] { return text.got.contains("\r\n\r\n"); }, 5000));
    text.got.clear();
    text.socket->write("\x01\x02 not http at all\r\n\r\n");
    QVERIFY(text.closedWithin(5000));
    QVERIFY2(text.got.startsWith("HTTP/1.1 400 "), text.got.constData());

    // Bytes sent before the 2xx cannot be handed to the TLS layer: the tunnel is refused, not garbled.
    Raw eager;
    QVERIFY(eager.open(server.port()));
    eager.socket->write("CONNECT api.test:443 HTTP/1.1\r\n\r\n" + QByteArray::fromHex("1603010005") + "hello");
    QVERIFY(eager.closedWithin(5000));

    // And the lab still serves.
    const CurlAnswer ok = viaProxy(server, u"https://api.test/after"_s, { u"--cacert"_s, m_authority->certificatePath() });
    QCOMPARE(ok.exitCode, 0);
    QCOMPARE(ok.status(), 200);
    QTRY_COMPARE(server.openConnectionCount(), 0);
}

void TestForwardProxy::thousandTunnels()
{
    FaultServer server;
    FaultServerOptions options = proxyOptions();
    options.maxConnections = 1100;
    QVERIFY(server.start(options));
    server.loadScenario(scenarioFrom(R"({"format":1,"name":"ok","routes":[{"path":"/**","steps":[{"kind":"respond","status":200,"repeat":"forever"}]}]})"));
    constexpr int kTunnels = 1000;
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    int accepted = 0;
    for (int i = 0; i < kTunnels; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        QTcpSocket* s = socket.get();
        connect(s, &QTcpSocket::connected, s, [s, i] {
            s->write("CONNECT host" + QByteArray::number(i % 50) + ".test:443 HTTP/1.1\r\n\r\n");
        });
        connect(s, &QTcpSocket::readyRead, s, [s, &accepted] {
            if (s->readAll().startsWith("HTTP/1.1 200 "))
                ++accepted;
        });
        s->connectToHost(u"127.0.0.1"_s, server.port());
        sockets.push_back(std::move(socket));
    }
    QTRY_COMPARE_WITH_TIMEOUT(accepted, kTunnels, 60000);
    QCOMPARE(server.proxyHosts().size(), 50);
    // With a thousand tunnels open, a real client still gets through.
    const CurlAnswer ok = viaProxy(server, u"https://api.test/busy"_s, { u"--cacert"_s, m_authority->certificatePath() });
    QCOMPARE(ok.exitCode, 0);
    QCOMPARE(ok.status(), 200);
    sockets.clear();
    const CurlAnswer after = viaProxy(server, u"http://api.test/after"_s);
    QCOMPARE(after.status(), 200);
    QCOMPARE(m_authority->mintedCount() > 0, true);
}

// A tunnel handed over (decrypted, now a lab connection) no longer counts against the connection cap: with
// room for 10, curl's 30 sequential tunnels (each closed after its answer) all get through.
void TestForwardProxy::finishedTunnelsFreeTheirPlace()
{
    FaultServer server;
    FaultServerOptions options = proxyOptions();
    options.maxConnections = 10;
    QVERIFY(server.start(options));
    server.loadScenario(scenarioFrom(R"({"format":1,"name":"ok","routes":[{"path":"/**","steps":[{"kind":"respond","status":200,"repeat":"forever"}]}]})"));
    QStringList args { u"--cacert"_s, m_authority->certificatePath(), u"-H"_s, u"Connection: close"_s, u"-o"_s, u"/dev/null"_s,
        u"-w"_s, u"%{http_code} "_s };
    for (int i = 0; i < 30; ++i)
        args << u"https://api.test/n%1"_s.arg(i);
    QProcess p;
    p.start(u"curl"_s, QStringList { u"-sS"_s, u"-x"_s, server.url().toString() } + args);
    QVERIFY(p.waitForStarted(5000));
    QVERIFY(waitForExit(p, 30000));
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(p.readAllStandardOutput().trimmed(), QByteArray("200 ").repeated(30).trimmed());
    QCOMPARE(server.proxyHosts().value(0).tunnels, 30);
    QCOMPARE(server.ledger().requestsReceived(), 30);
}

QTEST_GUILESS_MAIN(TestForwardProxy)
#include "tst_forwardproxy.moc"
