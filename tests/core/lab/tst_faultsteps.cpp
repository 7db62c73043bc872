// SPDX-License-Identifier: GPL-3.0-or-later
// Every step kind, driven over loopback, asserting what arrives on the wire.
#include "lab/faultserver.h"

#include "labtestsupport.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

class TestFaultSteps : public QObject
{
    Q_OBJECT
private slots:
    void respondWithHeadersAndTemplate();
    void respondDelayBeforeHeaders();
    void dribbleArrivesInPieces();
    void lateAppliesThenAnswers();
    void closeBeforeAnswering_data();
    void closeBeforeAnswering();
    void resetIsAbortive();
    void truncateMidBody();
    void garbage();
    void hangUntilClientGivesUp();
    void refuseStopsListening();
    void outageWindowByTime();
    void sequenceRepeatAndLoop();
    void randomIsReproducibleWithSeed();
    void retryAfterForms_data();
    void retryAfterForms();
};

void TestFaultSteps::respondWithHeadersAndTemplate()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(
        R"([{"kind":"respond","status":418,"headers":{"X-Thing":"{{method}} {{last}}"},"json":{"n":"{{n}}","key":"{{key}}"}}])"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("POST", "/x/item7", "{}", { { "Idempotency-Key", "\"k1\"" } }));
    QCOMPARE(r.status(), 418);
    QCOMPARE(r.header("X-Thing"), "POST item7"_ba);
    QCOMPARE(r.header("Content-Type"), "application/json"_ba);
    QCOMPARE(r.body(), R"({"key":"k1","n":1})"_ba);
}

void TestFaultSteps::respondDelayBeforeHeaders()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":200,"delay_ms":400,"body":"ok"}])"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"));
    QCOMPARE(r.status(), 200);
    QVERIFY2(r.firstByteMs >= 350, qPrintable(QString::number(r.firstByteMs)));
    QVERIFY(r.firstByteMs < 3000);
}

void TestFaultSteps::dribbleArrivesInPieces()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","body":"0123456789abcdef","dribble":{"bytes":4,"interval_ms":100}}])"));
    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(server.url().resolved(QUrl(u"/x"_s)))));
    int pieces = 0;
    connect(reply.get(), &QNetworkReply::readyRead, this, [&] { ++pieces; });
    QElapsedTimer clock;
    clock.start();
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(reply->readAll(), "0123456789abcdef"_ba);
    QVERIFY2(clock.elapsed() >= 250, "four pieces 100 ms apart take at least 300 ms");
    QVERIFY(pieces >= 2);
}

void TestFaultSteps::lateAppliesThenAnswers()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"late","status":201,"delay_ms":600,"body":"done"}])", R"("operation":"settlement",)"));
    QSignalSpy applied(&server, &FaultServer::operationApplied);
    const RawExchange r = rawExchange(server.port(), simpleRequest("POST", "/x", "p"));
    QCOMPARE(r.status(), 201);
    QVERIFY(r.firstByteMs >= 550);
    QCOMPARE(applied.size(), 1);
    const LabEvent e = applied.first().first().value<LabEvent>();
    QCOMPARE(e.detail, u"settlement"_s);
    QCOMPARE(server.ledger().operationsApplied(), 1);
}

void TestFaultSteps::closeBeforeAnswering_data()
{
    QTest::addColumn<QByteArray>("step");
    QTest::addColumn<int>("applied");
    QTest::addRow("closed, applied") << R"([{"kind":"close","applied":true}])"_ba << 1;
    QTest::addRow("closed, not applied") << R"([{"kind":"close","applied":false}])"_ba << 0;
}

void TestFaultSteps::closeBeforeAnswering()
{
    QFETCH(QByteArray, step);
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(step));
    const RawExchange r = rawExchange(server.port(), simpleRequest("POST", "/x", "p"), 5000, true);
    QVERIFY(r.closedByServer);
    QVERIFY(r.bytes.isEmpty());
    QCOMPARE(r.error, QAbstractSocket::RemoteHostClosedError); // FIN, not RST
    QTEST(server.ledger().operationsApplied(), "applied");
}

void TestFaultSteps::resetIsAbortive()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"reset"}])"));
    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(server.url().resolved(QUrl(u"/x"_s)))));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(5000));
    // QNAM may re-send once on a dropped keep-alive connection (qt-internals.md §1); any drop is an error.
    QVERIFY(reply->error() == QNetworkReply::RemoteHostClosedError || reply->error() == QNetworkReply::UnknownNetworkError);
    QVERIFY(server.ledger().requestsReceived() >= 1);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
}

void TestFaultSteps::truncateMidBody()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"truncate","body":"0123456789","truncate_after":4}])"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"), 5000, true);
    QCOMPARE(r.status(), 200);
    QCOMPARE(r.header("Content-Length"), "10"_ba);
    QCOMPARE(r.body(), "0123"_ba);
    QVERIFY(r.closedByServer);
}

void TestFaultSteps::garbage()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"garbage","garbage":"NOT HTTP AT ALL"}])"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"), 5000, true);
    QCOMPARE(r.bytes, "NOT HTTP AT ALL"_ba);
    QVERIFY(r.closedByServer);
}

void TestFaultSteps::hangUntilClientGivesUp()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"hang"}])"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"), 800);
    QVERIFY(r.bytes.isEmpty());
    QVERIFY(!r.closedByServer);
    QVERIFY(r.elapsedMs >= 700);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000); // the client closed: nothing leaks
}

void TestFaultSteps::refuseStopsListening()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"refuse","duration_ms":700},{"kind":"respond","body":"back"}])"));
    QSignalSpy listening(&server, &FaultServer::listeningChanged);
    const RawExchange first = rawExchange(server.port(), simpleRequest("GET", "/x"), 3000, true);
    QVERIFY(first.bytes.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(listening.size(), 1, 3000);
    const RawExchange refused = rawExchange(server.port(), simpleRequest("GET", "/x"), 500);
    QVERIFY(!refused.connected);
    QCOMPARE(refused.error, QAbstractSocket::ConnectionRefusedError);
    QTRY_COMPARE_WITH_TIMEOUT(listening.size(), 2, 5000);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).body(), "back"_ba);
}

void TestFaultSteps::outageWindowByTime()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(R"({"format":1,"name":"o","outages":[{"from_ms":0,"duration_ms":600,"mode":"status","status":503}],
        "routes":[{"path":"/**","steps":[{"kind":"respond","body":"up"}]}]})"));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 503);
    QTRY_COMPARE_WITH_TIMEOUT(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 200, 5000);
}

void TestFaultSteps::sequenceRepeatAndLoop()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(R"({"format":1,"name":"s","routes":[
        {"path":"/seq","steps":[{"kind":"respond","status":503,"repeat":2},{"kind":"respond","status":200}]},
        {"path":"/loop","mode":"loop","steps":[{"kind":"respond","status":500},{"kind":"respond","status":200}]}]})"));
    QList<int> seq, loop;
    for (int i = 0; i < 4; ++i) {
        seq << rawExchange(server.port(), simpleRequest("GET", "/seq")).status();
        loop << rawExchange(server.port(), simpleRequest("GET", "/loop")).status();
    }
    QCOMPARE(seq, (QList<int> { 503, 503, 200, 200 }));
    QCOMPARE(loop, (QList<int> { 500, 200, 500, 200 }));
}

void TestFaultSteps::randomIsReproducibleWithSeed()
{
    const QByteArray json = R"({"format":1,"name":"r","seed":7,"routes":[{"path":"/**","mode":"random","steps":[
        {"kind":"respond","status":200,"weight":1},{"kind":"respond","status":503,"weight":1}]}]})";
    auto run = [&] {
        FaultServer server;
        if (!server.start())
            return QList<int>();
        server.loadScenario(scenarioFrom(json));
        QList<int> statuses;
        for (int i = 0; i < 12; ++i)
            statuses << rawExchange(server.port(), simpleRequest("GET", "/x")).status();
        return statuses;
    };
    const QList<int> a = run();
    QCOMPARE(a.size(), 12);
    QCOMPARE(run(), a);
    QVERIFY(a.contains(200) && a.contains(503));
}

void TestFaultSteps::retryAfterForms_data()
{
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("pattern");
    QTest::addRow("seconds") << R"(3)"_ba << "Retry-After"_ba << u"^3$"_s;
    QTest::addRow("IMF-fixdate") << R"({"seconds":3,"form":"imf-fixdate"})"_ba << "Retry-After"_ba
                                 << uR"(^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$)"_s;
    QTest::addRow("RFC 850") << R"({"seconds":3,"form":"rfc850"})"_ba << "Retry-After"_ba
                             << uR"(^[A-Z][a-z]+day, \d\d-[A-Z][a-z]{2}-\d\d \d\d:\d\d:\d\d GMT$)"_s;
    QTest::addRow("asctime") << R"({"seconds":3,"form":"asctime"})"_ba << "Retry-After"_ba
                             << uR"(^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}$)"_s;
    QTest::addRow("retry-after-ms") << R"({"ms":250,"form":"ms"})"_ba << "retry-after-ms"_ba << u"^250$"_s;
}

void TestFaultSteps::retryAfterForms()
{
    QFETCH(QByteArray, retryAfter);
    QFETCH(QByteArray, header);
    QFETCH(QString, pattern);
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":503,"retry_after":)" + retryAfter + "}]"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"));
    const QString value = QString::fromLatin1(r.header(header));
    QVERIFY2(QRegularExpression(pattern).match(value).hasMatch(), qPrintable(value));
}

QTEST_GUILESS_MAIN(TestFaultSteps)
#include "tst_faultsteps.moc"
