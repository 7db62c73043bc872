// SPDX-License-Identifier: GPL-3.0-or-later
// A step's `latency_ramp` (issue 28 §4): its delay moves in a straight line from from_ms to to_ms over a
// span of time from the step's first play, or over a number of its plays, then stays at to_ms; the answer is
// the step's own (status, headers, body, Retry-After). The line itself is pure (LatencyRamp::delayAt);
// on the wire the delay is measured by the lab (answer head written − request arrived) against the line
// at the request's arrival, with room for a timer's lateness when the sanitizer build runs tests two at a time.
#include "lab/faultserver.h"
#include "lab/latencyramp.h"

#include "labtestsupport.h"

#include <QTest>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

constexpr qint64 kLateSlackMs = 250; // a timer may fire late, never early

// The lab's own measure of each answered exchange of STEPKIND: (arrived, head written − arrived).
QList<QPair<qint64, qint64>> delays(const FaultServer& server)
{
    QList<QPair<qint64, qint64>> out;
    for (const LabExchange& x : server.ledger().exchanges()) {
        if (x.responseStartedMs)
            out << qMakePair(x.arrivedMs, *x.responseStartedMs - x.arrivedMs);
    }
    return out;
}

} // namespace

class TestLatencyRamp : public QObject
{
    Q_OBJECT
private slots:
    void delayAt_data();
    void delayAt();
    void overRequestsOnTheWire();
    void overTimeFromTheStepsFirstPlay();
};

void TestLatencyRamp::delayAt_data()
{
    QTest::addColumn<QList<int>>("ramp"); // from_ms, to_ms, over_ms, over_requests
    QTest::addColumn<int>("play");
    QTest::addColumn<qint64>("sinceFirstMs");
    QTest::addColumn<qint64>("delayMs");
    const QList<int> up { 0, 1000, 1000, 0 };
    QTest::addRow("over time: the first play waits from_ms") << up << 1 << qint64(0) << qint64(0);
    QTest::addRow("over time: half the span, half the way") << up << 7 << qint64(500) << qint64(500);
    QTest::addRow("over time: at the end of the span, to_ms") << up << 9 << qint64(1000) << qint64(1000);
    QTest::addRow("over time: after it, to_ms stays") << up << 99 << qint64(60000) << qint64(1000);
    QTest::addRow("over time: the play count does not matter") << up << 1000 << qint64(250) << qint64(250);
    const QList<int> down { 1000, 200, 400, 0 };
    QTest::addRow("falling (a recovery): a quarter of 400 ms, 1000 - 200") << down << 1 << qint64(100) << qint64(800);
    QTest::addRow("falling: ends at to_ms") << down << 1 << qint64(400) << qint64(200);
    const QList<int> plays { 0, 400, 0, 5 };
    QTest::addRow("over 5 requests: the 1st waits from_ms") << plays << 1 << qint64(0) << qint64(0);
    QTest::addRow("over 5 requests: the 2nd a quarter of the way") << plays << 2 << qint64(0) << qint64(100);
    QTest::addRow("over 5 requests: the 5th waits to_ms") << plays << 5 << qint64(0) << qint64(400);
    QTest::addRow("over 5 requests: later ones too") << plays << 9 << qint64(0) << qint64(400);
    QTest::addRow("over 5 requests: time does not matter") << plays << 3 << qint64(86400000) << qint64(200);
    const QList<int> odd { 0, 1, 3, 0 };
    QTest::addRow("rounded to the nearest ms: 1/3 ms is 0") << odd << 1 << qint64(1) << qint64(0);
    QTest::addRow("rounded to the nearest ms: 2/3 ms is 1") << odd << 1 << qint64(2) << qint64(1);
}

void TestLatencyRamp::delayAt()
{
    QFETCH(QList<int>, ramp);
    QFETCH(int, play);
    QFETCH(qint64, sinceFirstMs);
    QFETCH(qint64, delayMs);
    const LatencyRamp line { milliseconds(ramp[0]), milliseconds(ramp[1]), milliseconds(ramp[2]), ramp[3] };
    QCOMPARE(line.delayAt(play, milliseconds(sinceFirstMs)).count(), delayMs);
}

void TestLatencyRamp::overRequestsOnTheWire()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(
        R"([{"kind":"respond","status":200,"body":"n={{n}}","latency_ramp":{"from_ms":0,"to_ms":300,"over_requests":4}}])"));
    const QList<qint64> expected { 0, 100, 200, 300, 300 };
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"));
        QCOMPARE(r.status(), 200);
        QCOMPARE(r.body(), "n=" + QByteArray::number(i + 1));
        QVERIFY2(r.firstByteMs >= expected[i] - 5,
            qPrintable(u"request %1: first byte after %2 ms"_s.arg(i + 1).arg(r.firstByteMs)));
    }
    const QList<QPair<qint64, qint64>> measured = delays(server);
    QCOMPARE(measured.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        QVERIFY2(measured[i].second >= expected[i] && measured[i].second <= expected[i] + kLateSlackMs,
            qPrintable(u"request %1: the lab waited %2 ms, the ramp says %3"_s.arg(i + 1)
                           .arg(measured[i].second)
                           .arg(expected[i])));
    }
    // The exchange says why it waited.
    QVERIFY2(server.ledger().exchanges().at(2).note.contains(u"latency 200 ms"_s),
        qPrintable(server.ledger().exchanges().at(2).note));
}

void TestLatencyRamp::overTimeFromTheStepsFirstPlay()
{
    FaultServer server;
    QVERIFY(server.start());
    // Two quick answers first: the ramp's clock starts at its own step's first play, not at load.
    server.loadScenario(oneRoute(R"([{"kind":"respond","repeat":2,"body":"quick"},
        {"kind":"respond","status":503,"retry_after":2,"json":{"error":"slow"},"latency_ramp":{"from_ms":100,"to_ms":500,"over_ms":1000}}])"));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).body(), "quick"_ba);
    QTest::qWait(300);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).body(), "quick"_ba);
    QElapsedTimer clock;
    clock.start();
    int ramped = 0;
    while (clock.elapsed() < 1600) {
        const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"));
        // The step's answer, composed with the ramp.
        QCOMPARE(r.status(), 503);
        QCOMPARE(r.header("Retry-After"), "2"_ba);
        QCOMPARE(r.body(), R"({"error":"slow"})"_ba);
        ++ramped;
    }
    QVERIFY(ramped >= 3);
    const QList<QPair<qint64, qint64>> measured = delays(server);
    QCOMPARE(measured.size(), 2 + ramped);
    QVERIFY(measured[1].second < 100);
    const LatencyRamp ramp { milliseconds(100), milliseconds(500), milliseconds(1000), 0 };
    const qint64 firstPlay = measured[2].first;
    bool reachedTo = false;
    for (qsizetype i = 2; i < measured.size(); ++i) {
        const qint64 since = measured[i].first - firstPlay;
        const qint64 expected = ramp.delayAt(int(i - 1), milliseconds(since)).count();
        // The lab reads its clock when it plays the step, at most a few ms after the request arrived.
        QVERIFY2(measured[i].second >= expected - 5 && measured[i].second <= expected + kLateSlackMs,
            qPrintable(u"+%1 ms into the ramp: the lab waited %2 ms, the ramp says %3"_s.arg(since)
                           .arg(measured[i].second)
                           .arg(expected)));
        reachedTo = reachedTo || expected == 500;
    }
    QVERIFY(reachedTo);
}

QTEST_GUILESS_MAIN(TestLatencyRamp)
#include "tst_latencyramp.moc"
