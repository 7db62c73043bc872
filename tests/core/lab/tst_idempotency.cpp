// SPDX-License-Identifier: GPL-3.0-or-later
// Idempotency-Key semantics of a route (headers.md §6).
#include "lab/faultserver.h"
#include "lab/idempotencystore.h"

#include "labtestsupport.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestIdempotency : public QObject
{
    Q_OBJECT
private slots:
    void keyFromField_data();
    void keyFromField();
    void sameKeySamePayloadReplaysWithoutReapplying();
    void differentPayloadIs422();
    void inFlightIs409();
    void missingKeyIs400WhenRequired();
    void transientFailureIsNotStored();
};

void TestIdempotency::keyFromField_data()
{
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QString>("key");
    QTest::addRow("sf-string") << "\"8e03978e\""_ba << u"8e03978e"_s;
    QTest::addRow("raw token (Stripe)") << "KG5LxwFBepaKHyUD"_ba << u"KG5LxwFBepaKHyUD"_s;
    QTest::addRow("escaped quote") << R"("a\"b")"_ba << u"a\"b"_s;
}

void TestIdempotency::keyFromField()
{
    QFETCH(QByteArray, field);
    QTEST(IdempotencyStore::keyFromField(field), "key");
}

static const QByteArray keyedRoute = R"("operation":"payment","idempotency":{"required":true},)";

void TestIdempotency::sameKeySamePayloadReplaysWithoutReapplying()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":201,"json":{"id":"p{{applied}}"}}])", keyedRoute));
    const RawExchange first = rawExchange(server.port(), simpleRequest("POST", "/x", "a=1", { { "Idempotency-Key", "k" } }));
    const RawExchange again = rawExchange(server.port(), simpleRequest("POST", "/x", "a=1", { { "Idempotency-Key", "k" } }));
    QCOMPARE(first.status(), 201);
    QCOMPARE(again.status(), 201);
    QCOMPARE(again.body(), first.body());
    QCOMPARE(again.header("Idempotent-Replayed"), "true"_ba);
    QCOMPARE(server.ledger().operationsApplied(), 1);
    QCOMPARE(server.ledger().operationsForKey(u"k"_s), 1);
    QCOMPARE(server.ledger().requestsReceived(), 2);
}

void TestIdempotency::differentPayloadIs422()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":201}])", keyedRoute));
    rawExchange(server.port(), simpleRequest("POST", "/x", "amount=1", { { "Idempotency-Key", "k" } }));
    const RawExchange other = rawExchange(server.port(), simpleRequest("POST", "/x", "amount=2", { { "Idempotency-Key", "k" } }));
    QCOMPARE(other.status(), 422);
    QVERIFY(other.body().contains("already used"));
    QCOMPARE(server.ledger().operationsApplied(), 1);
}

void TestIdempotency::inFlightIs409()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":201,"delay_ms":1500}])", keyedRoute));
    QTcpSocket slow;
    slow.connectToHost(u"127.0.0.1"_s, server.port());
    QVERIFY(slow.waitForConnected(3000));
    slow.write(simpleRequest("POST", "/x", "p", { { "Idempotency-Key", "k" } }));
    QTRY_COMPARE_WITH_TIMEOUT(server.ledger().requestsReceived(), 1, 3000);
    const RawExchange concurrent = rawExchange(server.port(), simpleRequest("POST", "/x", "p", { { "Idempotency-Key", "k" } }));
    QCOMPARE(concurrent.status(), 409);
    QTRY_VERIFY_WITH_TIMEOUT(slow.bytesAvailable() > 0, 5000);
    QVERIFY(slow.readAll().startsWith("HTTP/1.1 201"));
    QTRY_COMPARE_WITH_TIMEOUT(rawExchange(server.port(), simpleRequest("POST", "/x", "p", { { "Idempotency-Key", "k" } })).status(), 201, 5000);
    QCOMPARE(server.ledger().operationsApplied(), 1);
}

void TestIdempotency::missingKeyIs400WhenRequired()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":201}])", keyedRoute));
    const RawExchange r = rawExchange(server.port(), simpleRequest("POST", "/x", "p"));
    QCOMPARE(r.status(), 400);
    QVERIFY(r.body().contains("Idempotency-Key is missing"));
    QCOMPARE(server.ledger().operationsApplied(), 0);
}

void TestIdempotency::transientFailureIsNotStored()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":503},{"kind":"respond","status":201}])", keyedRoute));
    QCOMPARE(rawExchange(server.port(), simpleRequest("POST", "/x", "p", { { "Idempotency-Key", "k" } })).status(), 503);
    QCOMPARE(rawExchange(server.port(), simpleRequest("POST", "/x", "p", { { "Idempotency-Key", "k" } })).status(), 201);
    const RawExchange replay = rawExchange(server.port(), simpleRequest("POST", "/x", "p", { { "Idempotency-Key", "k" } }));
    QCOMPARE(replay.status(), 201);
    QCOMPARE(replay.header("Idempotent-Replayed"), "true"_ba);
    QCOMPARE(server.ledger().operationsApplied(), 1);
}

QTEST_GUILESS_MAIN(TestIdempotency)
#include "tst_idempotency.moc"
