// SPDX-License-Identifier: GPL-3.0-or-later
// The `outage` step (issue 28 §4): the request that plays it starts an outage of the WHOLE server, every
// scenario request fails the outage's way until it is over — on any route, without moving a route's steps
// on — and then the routes play on. The ledger and the lab's events say when it began and ended, and the
// server's count of requests stays the count that arrived. Real loopback sockets; timing asserts are loose
// (the sanitizer build runs tests two at a time).
#include "lab/faultserver.h"

#include "labtestsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// /a: one 200, the outage, then "a-back"; /b: "b1", "b2" — /b's steps must not move during the outage.
QByteArray twoRoutes(const QByteArray& outageStep)
{
    return R"({"format":1,"name":"o","routes":[
        {"name":"a","path":"/a","steps":[{"kind":"respond","body":"a1"},)"
        + outageStep + R"(,{"kind":"respond","body":"a-back"}]},
        {"name":"b","path":"/b","steps":[{"kind":"respond","body":"b1"},{"kind":"respond","body":"b2"}]}]})";
}

QList<LabEvent> outageEvents(const QSignalSpy& spy)
{
    QList<LabEvent> events;
    for (const QList<QVariant>& args : spy) {
        const LabEvent e = args.at(0).value<LabEvent>();
        if (e.kind == LabEvent::Kind::ListeningChanged)
            events << e;
    }
    return events;
}

// A keep-alive connection opened before an outage: one request at a time on the same socket.
struct KeptConnection
{
    QTcpSocket socket;
    bool connectTo(quint16 port)
    {
        socket.connectToHost(u"127.0.0.1"_s, port);
        return socket.waitForConnected(5000);
    }
    RawExchange ask(const QByteArray& path)
    {
        RawExchange r;
        socket.write(simpleRequest("GET", path, {}, {}, false));
        (void)QTest::qWaitFor(
            [&] {
                r.bytes += socket.readAll();
                return r.complete() || socket.state() != QAbstractSocket::ConnectedState;
            },
            5000);
        r.bytes += socket.readAll();
        r.closedByServer = socket.state() != QAbstractSocket::ConnectedState;
        return r;
    }
};

} // namespace

class TestOutageStep : public QObject
{
    Q_OBJECT
private slots:
    void wholeServerDownThenRoutesPlayOn();
    void answerDelayAndTemplates();
    void resetMode();
    void refuseMode();
    void lastStepOfASequenceStartsAgain();
    void labResetEndsIt();
    void windowsAreEventsAndLedgerRecordsToo();
};

void TestOutageStep::wholeServerDownThenRoutesPlayOn()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(twoRoutes(R"({"kind":"outage","duration_ms":800,"retry_after":1})")));
    QSignalSpy events(&server, &FaultServer::labEvent);
    int sent = 0;
    const auto get = [&](const QByteArray& path) {
        ++sent;
        return rawExchange(server.port(), simpleRequest("GET", path));
    };

    QCOMPARE(get("/a").body(), "a1"_ba);
    QElapsedTimer clock;
    clock.start();
    const RawExchange trigger = get("/a"); // the outage's first failure
    QCOMPARE(trigger.status(), 503);
    QCOMPARE(trigger.header("Retry-After"), "1"_ba);
    QCOMPARE(trigger.header("Content-Type"), "application/json"_ba);
    QVERIFY2(trigger.body().contains("outage"), trigger.body().constData());
    // Every route, and requests no route matches, fail the same way: the whole server is down.
    QCOMPARE(get("/b").status(), 503);
    QCOMPARE(get("/a").status(), 503);
    QCOMPARE(get("/nowhere").status(), 503);
    const int failedBefore = sent - 1;

    QTRY_VERIFY_WITH_TIMEOUT(!server.ledger().outages().isEmpty() && server.ledger().outages().first().untilMs, 5000);
    QVERIFY2(clock.elapsed() >= 750, qPrintable(QString::number(clock.elapsed())));
    // /b did not move during the outage; /a goes on after its outage step.
    QCOMPARE(get("/b").body(), "b1"_ba);
    QCOMPARE(get("/a").body(), "a-back"_ba);
    QCOMPARE(get("/b").body(), "b2"_ba);
    QCOMPARE(get("/nowhere").status(), 404);

    const LabLedger& ledger = server.ledger();
    QCOMPARE(ledger.requestsReceived(), sent);
    QCOMPARE(ledger.operationsApplied(), 4); // the 2xx: a1, b1, a-back, b2; nothing during the outage
    QCOMPARE(ledger.outages().size(), 1);
    const LabOutage& outage = ledger.outages().first();
    QCOMPARE(outage.cause, u"step"_s);
    QCOMPARE(outage.route, u"a"_s);
    QCOMPARE(outage.step, 1);
    QCOMPARE(outage.mode, u"status"_s);
    QCOMPARE(outage.status, 503);
    QCOMPARE(*outage.untilMs - outage.fromMs, 800);
    QCOMPARE(outage.requestsFailed, failedBefore);
    int outageOutcomes = 0;
    for (const LabReceipt& r : ledger.receipts())
        outageOutcomes += r.outcome == u"outage"_s && r.status == 503 ? 1 : 0;
    QCOMPARE(outageOutcomes, failedBefore);

    const QList<LabEvent> changes = outageEvents(events);
    QCOMPARE(changes.size(), 2);
    QCOMPARE(changes[0].stepKind, u"outage"_s);
    QCOMPARE(changes[0].route, u"a"_s);
    QCOMPARE(changes[0].status, 503);
    QVERIFY2(changes[0].detail.contains(u"outage for 800 ms"_s), qPrintable(changes[0].detail));
    QVERIFY2(changes[1].detail.contains(u"outage over after 800 ms"_s), qPrintable(changes[1].detail));
    QVERIFY2(changes[1].detail.contains(u"%1 requests failed"_s.arg(failedBefore)), qPrintable(changes[1].detail));
    QVERIFY(changes[0].atMs >= outage.fromMs && changes[0].atMs <= outage.fromMs + 50);
    QVERIFY(changes[1].atMs >= *outage.untilMs && changes[1].atMs <= *outage.untilMs + 500);
    const QJsonObject json = ledger.toJson().value(u"outages"_s).toArray().first().toObject();
    QCOMPARE(json.value(u"cause"_s).toString(), u"step"_s);
    QCOMPARE(json.value(u"until_ms"_s).toInteger() - json.value(u"from_ms"_s).toInteger(), 800);
    QCOMPARE(json.value(u"requests_failed"_s).toInt(), failedBefore);
}

void TestOutageStep::answerDelayAndTemplates()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(twoRoutes(
        R"({"kind":"outage","duration_ms":1500,"status":502,"delay_ms":300,"headers":{"X-Down":"{{route}}"},"json":{"path":"{{path}}","n":"{{n}}"}})")));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/a")).status(), 200);
    const RawExchange trigger = rawExchange(server.port(), simpleRequest("GET", "/a"));
    QCOMPARE(trigger.status(), 502);
    QVERIFY2(trigger.firstByteMs >= 250, qPrintable(QString::number(trigger.firstByteMs)));
    const RawExchange other = rawExchange(server.port(), simpleRequest("GET", "/b/x"));
    QCOMPARE(other.status(), 502);
    QVERIFY2(other.firstByteMs >= 250, qPrintable(QString::number(other.firstByteMs)));
    // The request at hand's path; the route and count of the request that started the outage.
    QCOMPARE(other.header("X-Down"), "a"_ba);
    QCOMPARE(other.body(), R"({"n":2,"path":"/b/x"})"_ba);
}

void TestOutageStep::resetMode()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(twoRoutes(R"({"kind":"outage","duration_ms":600,"mode":"reset"})")));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/a")).status(), 200);
    const RawExchange trigger = rawExchange(server.port(), simpleRequest("GET", "/a"));
    QVERIFY(trigger.bytes.isEmpty());
    QVERIFY(trigger.closedByServer);
    const RawExchange other = rawExchange(server.port(), simpleRequest("GET", "/b"));
    QVERIFY(other.bytes.isEmpty());
    QVERIFY(other.closedByServer);
    QTRY_VERIFY_WITH_TIMEOUT(server.ledger().outages().first().untilMs.has_value(), 5000);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/b")).body(), "b1"_ba);
    const LabOutage& outage = server.ledger().outages().first();
    QCOMPARE(outage.mode, u"reset"_s);
    QCOMPARE(outage.status, 0);
    QCOMPARE(outage.requestsFailed, 2);
    QCOMPARE(server.ledger().exchangeOutcomes().value(u"reset"_s), 2);
    QCOMPARE(server.ledger().receipts().at(1).outcome, u"outage-reset"_s);
}

void TestOutageStep::refuseMode()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(twoRoutes(R"({"kind":"outage","duration_ms":700,"mode":"refuse"})")));
    QSignalSpy listening(&server, &FaultServer::listeningChanged);
    KeptConnection kept; // opened before the outage
    QVERIFY(kept.connectTo(server.port()));
    QCOMPARE(kept.ask("/b").body(), "b1"_ba);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/a")).status(), 200);
    const RawExchange trigger = rawExchange(server.port(), simpleRequest("GET", "/a"), 3000, true);
    QVERIFY(trigger.bytes.isEmpty());
    QCOMPARE(listening.size(), 1);
    const RawExchange refused = rawExchange(server.port(), simpleRequest("GET", "/b"), 500);
    QVERIFY(!refused.connected);
    QCOMPARE(refused.error, QAbstractSocket::ConnectionRefusedError);
    // A connection opened before the port closed is no way around the outage: its request is reset.
    const RawExchange onKept = kept.ask("/b");
    QVERIFY(onKept.bytes.isEmpty());
    QVERIFY(onKept.closedByServer);
    QTRY_COMPARE_WITH_TIMEOUT(listening.size(), 2, 5000);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/b")).body(), "b2"_ba);
    QCOMPARE(server.ledger().requestsReceived(), 5); // the refused connection never arrived
    QCOMPARE(server.ledger().outages().first().requestsFailed, 2);
    QCOMPARE(server.ledger().outages().first().mode, u"refuse"_s);
}

void TestOutageStep::lastStepOfASequenceStartsAgain()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond"},{"kind":"outage","duration_ms":300}])"));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 200);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 503);
    QTRY_VERIFY_WITH_TIMEOUT(server.ledger().outages().first().untilMs.has_value(), 5000);
    // The last step of a sequence keeps answering: the first request after the outage starts another one.
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 503);
    QCOMPARE(server.ledger().outages().size(), 2);
}

void TestOutageStep::labResetEndsIt()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenarioFrom(twoRoutes(R"({"kind":"outage","duration_ms":60000})")));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/a")).status(), 200);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/a")).status(), 503);
    QCOMPARE(rawExchange(server.port(), simpleRequest("POST", "/_lab/reset")).status(), 200); // control: never down
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/a")).body(), "a1"_ba);
    QVERIFY(server.ledger().outages().isEmpty());
    QCOMPARE(server.ledger().requestsReceived(), 1);
}

void TestOutageStep::windowsAreEventsAndLedgerRecordsToo()
{
    FaultServer server;
    QSignalSpy events(&server, &FaultServer::labEvent);
    QVERIFY(server.start());
    server.loadScenario(
        scenarioFrom(R"({"format":1,"name":"w","outages":[{"from_ms":200,"duration_ms":1000,"status":500}],
        "routes":[{"path":"/**","steps":[{"kind":"respond","body":"up"}]}]})"));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 200);
    QTRY_COMPARE_WITH_TIMEOUT(outageEvents(events).size(), 1, 5000); // begun by the clock, no request needed
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 500);
    QTRY_COMPARE_WITH_TIMEOUT(outageEvents(events).size(), 2, 5000);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 200);
    const LabOutage& outage = server.ledger().outages().first();
    QCOMPARE(outage.cause, u"window"_s);
    QCOMPARE(outage.window, 0);
    QCOMPARE(outage.status, 500);
    QCOMPARE(*outage.untilMs - outage.fromMs, 1000);
    QCOMPARE(outage.requestsFailed, 1);
    QVERIFY2(
        outageEvents(events).first().detail.contains(u"outages[0]"_s), qPrintable(outageEvents(events).first().detail));
}

QTEST_GUILESS_MAIN(TestOutageStep)
#include "tst_outagestep.moc"
