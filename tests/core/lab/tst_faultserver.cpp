// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/faultserver.h"
#include "lab/labtlsserver.h"

#include "labtestsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class TestFaultServer : public QObject
{
    Q_OBJECT
private slots:
    void startsOnLoopbackWithFreePort();
    void refusesNonLoopbackWithoutOption();
    void answersQnam();
    void keepAliveServesSeveralRequests();
    void ipv6Loopback();
    void controlEndpoints();
    void attemptHeaderCountsReceipts();
    void eventsCarryMonotonicTimestamps();
    void hundredsOfConcurrentConnections();
    void tlsValid();
    void tlsFailures_data();
    void tlsFailures();
};

void TestFaultServer::startsOnLoopbackWithFreePort()
{
    FaultServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.port() > 0);
    QVERIFY(server.isListening());
    QCOMPARE(server.url().toString(), u"http://127.0.0.1:%1"_s.arg(server.port()));
    QVERIFY(server.warnings().isEmpty());
    server.stop();
    QVERIFY(!server.isListening());
}

void TestFaultServer::refusesNonLoopbackWithoutOption()
{
    FaultServer server;
    FaultServerOptions options;
    options.address = QHostAddress(QHostAddress::AnyIPv4);
    QVERIFY(!server.start(options));
    QVERIFY(server.errorString().contains(u"loopback"_s));
}

void TestFaultServer::answersQnam()
{
    FaultServer server;
    QVERIFY(server.start());
    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(server.url().resolved(QUrl(u"/x/1"_s)))));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
    QCOMPARE(body.value(u"ok"_s).toBool(), true);
    QCOMPARE(body.value(u"n"_s).toInt(), 1);
    QCOMPARE(server.ledger().requestsReceived(), 1);
}

void TestFaultServer::keepAliveServesSeveralRequests()
{
    FaultServer server;
    QVERIFY(server.start());
    QTcpSocket socket;
    socket.connectToHost(u"127.0.0.1"_s, server.port());
    QVERIFY(socket.waitForConnected(3000));
    QByteArray got;
    connect(&socket, &QTcpSocket::readyRead, &socket, [&] { got += socket.readAll(); });
    socket.write(simpleRequest("GET", "/a", {}, {}, false) + simpleRequest("GET", "/b", {}, {}, false));
    QTRY_COMPARE_WITH_TIMEOUT(got.count("HTTP/1.1 200"), 2, 5000);
    QCOMPARE(got.count("Connection: keep-alive"), 2);
    QCOMPARE(socket.state(), QAbstractSocket::ConnectedState);
    QCOMPARE(server.openConnectionCount(), 1);
    socket.write(simpleRequest("GET", "/c", {}, {}, true));
    QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QAbstractSocket::UnconnectedState, 5000);
    QCOMPARE(got.count("HTTP/1.1 200"), 3);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
}

void TestFaultServer::ipv6Loopback()
{
    FaultServer server;
    QVERIFY(server.start());
    if (!server.listensOnIpv6Loopback())
        QSKIP("no IPv6 loopback here");
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/v6"), 5000, false, u"::1"_s);
    QCOMPARE(r.status(), 200);
}

void TestFaultServer::controlEndpoints()
{
    FaultServer server;
    QVERIFY(server.start());
    QCOMPARE(rawExchange(server.port(), simpleRequest("POST", "/x/1", "a")).status(), 200);
    RawExchange ledger = rawExchange(server.port(), simpleRequest("GET", "/_lab/ledger"));
    QCOMPARE(ledger.status(), 200);
    QJsonObject json = QJsonDocument::fromJson(ledger.body()).object();
    QCOMPARE(json.value(u"requests_received"_s).toInt(), 1); // control requests are not counted
    QCOMPARE(json.value(u"operations_applied"_s).toInt(), 1);
    const QJsonObject op = json.value(u"operations"_s).toArray().first().toObject();
    QCOMPARE(op.value(u"route"_s).toString(), u"any"_s);
    QVERIFY(op.contains(u"at_ms"_s));

    const RawExchange scenario = rawExchange(server.port(), simpleRequest("GET", "/_lab/scenario"));
    QCOMPARE(QJsonDocument::fromJson(scenario.body()).object().value(u"name"_s).toString(), u"default"_s);
    QCOMPARE(rawExchange(server.port(), simpleRequest("POST", "/_lab/reset")).status(), 200);
    QCOMPARE(server.ledger().requestsReceived(), 0);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/_lab/nothing")).status(), 404);
    QCOMPARE(rawExchange(server.port(), simpleRequest("DELETE", "/_lab/ledger")).status(), 405);
}

void TestFaultServer::attemptHeaderCountsReceipts()
{
    FaultServer server;
    QVERIFY(server.start());
    rawExchange(server.port(), simpleRequest("GET", "/x", {}, { { "X-Retrylab-Attempt", "run1-a1" } }));
    rawExchange(server.port(), simpleRequest("GET", "/x", {}, { { "X-Retrylab-Attempt", "run1-a2" } }));
    rawExchange(server.port(), simpleRequest("GET", "/x", {}, { { "X-Retrylab-Attempt", "run1-a2" } }));
    QCOMPARE(server.ledger().receiptsForAttempt(u"run1-a1"_s), 1);
    QCOMPARE(server.ledger().receiptsForAttempt(u"run1-a2"_s), 2);
    QCOMPARE(server.ledger().attemptsReceivedMoreThanOnce(), QStringList { u"run1-a2"_s });
}

void TestFaultServer::eventsCarryMonotonicTimestamps()
{
    FaultServer server;
    QElapsedTimer origin;
    origin.start();
    server.setClockOrigin(origin);
    QVERIFY(server.start());
    QSignalSpy all(&server, &FaultServer::labEvent);
    QSignalSpy received(&server, &FaultServer::requestReceived);
    QSignalSpy started(&server, &FaultServer::responseStarted);
    QSignalSpy finished(&server, &FaultServer::responseFinished);
    QSignalSpy dropped(&server, &FaultServer::connectionDropped);
    QSignalSpy applied(&server, &FaultServer::operationApplied);
    rawExchange(server.port(), simpleRequest("GET", "/x", {}, { { "X-Retrylab-Attempt", "a1" } }), 5000, true);
    QTRY_COMPARE_WITH_TIMEOUT(dropped.size(), 1, 5000);
    QCOMPARE(received.size(), 1);
    QCOMPARE(started.size(), 1);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(applied.size(), 1);
    const LabEvent r = received.first().first().value<LabEvent>();
    QCOMPARE(r.attemptId, u"a1"_s);
    QCOMPARE(r.method, "GET"_ba);
    QCOMPARE(finished.first().first().value<LabEvent>().status, 200);
    qint64 last = -1;
    for (const QList<QVariant>& args : std::as_const(all)) {
        const LabEvent e = args.first().value<LabEvent>();
        QVERIFY(e.atMs >= last);
        QVERIFY(e.atMs <= origin.elapsed());
        last = e.atMs;
        QVERIFY(!e.toLogLine().isEmpty());
    }
}

void TestFaultServer::hundredsOfConcurrentConnections()
{
    FaultServer server;
    QVERIFY(server.start());
    constexpr int count = 300;
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    int answered = 0;
    for (int i = 0; i < count; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        QTcpSocket* s = socket.get();
        connect(s, &QTcpSocket::connected, s, [s] { s->write(simpleRequest("GET", "/x/" + QByteArray::number(1))); });
        connect(s, &QTcpSocket::readyRead, s, [s, &answered] {
            if (s->readAll().startsWith("HTTP/1.1 200"))
                ++answered;
        });
        s->connectToHost(u"127.0.0.1"_s, server.port());
        sockets.push_back(std::move(socket));
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, count, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 10000);
    QCOMPARE(server.ledger().requestsReceived(), count);
}

void TestFaultServer::tlsValid()
{
    FaultServer server;
    FaultServerOptions options;
    options.tls = LabTlsMode::Valid;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QVERIFY(server.tlsPort() > 0);
    QVERIFY(!LabTlsServer::testCertificate().isNull());
    QNetworkAccessManager nam;
    QNetworkRequest request(server.tlsUrl().resolved(QUrl(u"/x/secure"_s)));
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setCaCertificates({ LabTlsServer::testCertificate() });
    request.setSslConfiguration(config);
    std::unique_ptr<QNetworkReply> reply(nam.get(request));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
}

void TestFaultServer::tlsFailures_data()
{
    QTest::addColumn<LabTlsMode>("mode");
    QTest::addRow("certificate for another host") << LabTlsMode::WrongHost;
    QTest::addRow("garbage instead of ServerHello") << LabTlsMode::Garbage;
    QTest::addRow("handshake stalls") << LabTlsMode::Stall;
}

void TestFaultServer::tlsFailures()
{
    QFETCH(LabTlsMode, mode);
    FaultServer server;
    FaultServerOptions options;
    options.tls = mode;
    QVERIFY2(server.start(options), qPrintable(server.errorString()));
    QSslSocket client;
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setCaCertificates({ LabTlsServer::testCertificate() });
    client.setSslConfiguration(config);
    QSignalSpy encrypted(&client, &QSslSocket::encrypted);
    QSignalSpy errors(&client, &QAbstractSocket::errorOccurred);
    client.connectToHostEncrypted(u"127.0.0.1"_s, server.tlsPort());
    if (mode == LabTlsMode::Stall) {
        QVERIFY(client.waitForConnected(3000));
        QVERIFY(!encrypted.wait(1500)); // TCP is up, the handshake never finishes
        QCOMPARE(server.openConnectionCount(), 1);
        client.abort();
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
        return;
    }
    QTRY_VERIFY_WITH_TIMEOUT(errors.size() > 0, 10000);
    QCOMPARE(encrypted.size(), 0);
    client.abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 10000);
}

QTEST_GUILESS_MAIN(TestFaultServer)
#include "tst_faultserver.moc"
