// SPDX-License-Identifier: GPL-3.0-or-later
// Hedging's state machine (policy/resilience/hedging.h) on a fake clock: when copies go, which answer
// wins, what is cancelled — Polly 8's latency, parallel and fallback modes (resilience-fleets.md §1.3),
// gRPC's non-fatal and fatal statuses and Envoy's per-try timeout (§1.7).

#include "policy/resilience/hedging.h"

#include <QTest>

#include <map>

using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(HedgingOptions)

namespace {

constexpr Millis ms(qint64 v) { return Millis { v }; }

// One copy as the server would treat it: how long it takes and whether its answer ends the request.
struct Copy
{
    qint64 latency = 0;
    bool accepted = true;
};

// Runs a logical request through the machine, events in time order (an answer before a start due at the
// same instant), and writes what happened: "1@0 2@2000 win2@2100 cancel1".
QString trace(const HedgingOptions& options, const QList<Copy>& copies)
{
    Hedging h(options, ms(0));
    QStringList out { u"1@0"_s };
    std::map<int, qint64> answersAt { { 1, copies.value(0).latency } };
    for (int guard = 0; guard < 100 && !h.done(); ++guard) {
        const auto start = h.nextStartAt();
        auto answer = answersAt.end();
        for (auto it = answersAt.begin(); it != answersAt.end(); ++it)
            if (answer == answersAt.end() || it->second < answer->second)
                answer = it;
        if (answer != answersAt.end() && (!start || answer->second <= start->count())) {
            const int copy = answer->first;
            const qint64 at = answer->second;
            answersAt.erase(answer);
            const Copy c = copies.value(copy - 1, copies.last());
            const auto v = h.answered(copy, c.accepted ? Hedging::Answer::Accepted : Hedging::Answer::Failed, ms(at));
            if (!c.accepted)
                out.append(u"fail%1@%2"_s.arg(copy).arg(at));
            if (v.done)
                out.append(u"%1%2@%3"_s.arg(c.accepted ? u"win"_s : u"failed, result "_s).arg(v.result).arg(at));
            for (int x : v.cancel) {
                out.append(u"cancel%1"_s.arg(x));
                answersAt.erase(x);
            }
            continue;
        }
        if (!start)
            break;
        while (const auto copy = h.startDue(*start)) {
            out.append(u"%1@%2"_s.arg(*copy).arg(start->count()));
            answersAt[*copy] = start->count() + copies.value(*copy - 1, copies.last()).latency;
        }
    }
    return out.join(u' ');
}

HedgingOptions hedges(int max, qint64 delay)
{
    return { max, ms(delay) };
}

} // namespace

Q_DECLARE_METATYPE(QList<Copy>)

class TestHedging : public QObject
{
    Q_OBJECT

private slots:
    void copies_data()
    {
        QTest::addColumn<HedgingOptions>("options");
        QTest::addColumn<QList<Copy>>("copies");
        QTest::addColumn<QString>("expected");
        const HedgingOptions polly; // §1.3: 1 hedge after 2 s
        QTest::newRow("polly: a fast first copy, no hedge") << polly << QList<Copy> { { 500, true } } << u"1@0 win1@500"_s;
        QTest::newRow("polly: a slow first copy, the hedge wins")
            << polly << QList<Copy> { { 5000, true }, { 100, true } } << u"1@0 2@2000 win2@2100 cancel1"_s;
        QTest::newRow("polly: the first copy still wins if it answers first")
            << polly << QList<Copy> { { 2050, true }, { 100, true } } << u"1@0 2@2000 win1@2050 cancel2"_s;
        QTest::newRow("polly: an answer at the delay comes before the hedge")
            << polly << QList<Copy> { { 2000, true }, { 100, true } } << u"1@0 win1@2000"_s;
        QTest::newRow("polly: a failure sends the hedge at once")
            << polly << QList<Copy> { { 300, false }, { 100, true } } << u"1@0 fail1@300 2@300 win2@400"_s;
        QTest::newRow("polly: every copy failed: the first copy's failure is the result")
            << polly << QList<Copy> { { 300, false }, { 100, false } }
            << u"1@0 fail1@300 2@300 fail2@400 failed, result 1@400"_s;
        QTest::newRow("latency: the delay runs from the newest copy")
            << hedges(2, 1000) << QList<Copy> { { 5000, true }, { 300, false }, { 100, true } }
            << u"1@0 2@1000 fail2@1300 3@1300 win3@1400 cancel1"_s;
        QTest::newRow("latency: no more than max hedges")
            << hedges(2, 1000) << QList<Copy> { { 9000, true }, { 9000, true }, { 9000, true } }
            << u"1@0 2@1000 3@2000 win1@9000 cancel2 cancel3"_s;
        // §1.3: delay 0, every copy at once; the fastest acceptable answer wins.
        QTest::newRow("parallel: all at once, the fastest wins")
            << hedges(2, 0) << QList<Copy> { { 300, true }, { 200, true }, { 100, true } }
            << u"1@0 2@0 3@0 win3@100 cancel1 cancel2"_s;
        QTest::newRow("parallel: a failure sends nothing more")
            << hedges(2, 0) << QList<Copy> { { 300, true }, { 200, true }, { 100, false } }
            << u"1@0 2@0 3@0 fail3@100 win2@200 cancel1"_s;
        // §1.3: delay −1, the next copy only after the previous failed.
        QTest::newRow("fallback: a slow copy is waited for")
            << hedges(2, -1) << QList<Copy> { { 9000, true } } << u"1@0 win1@9000"_s;
        QTest::newRow("fallback: failures one after another")
            << hedges(2, -1) << QList<Copy> { { 100, false }, { 200, false }, { 50, true } }
            << u"1@0 fail1@100 2@100 fail2@300 3@300 win3@350"_s;
        // §1.7 gRPC: maxAttempts 3, hedgingDelay 500 ms; a non-fatal status sends the next copy at once,
        // a fatal one (here: an answer that ends the call) ends it with that status.
        QTest::newRow("grpc: a fatal status ends the call")
            << hedges(2, 500) << QList<Copy> { { 5000, true }, { 100, true } } << u"1@0 2@500 win2@600 cancel1"_s;
        QTest::newRow("grpc: non-fatal statuses use up the copies")
            << hedges(2, 500) << QList<Copy> { { 100, false }, { 100, false }, { 100, false } }
            << u"1@0 fail1@100 2@100 fail2@200 3@200 fail3@300 failed, result 1@300"_s;
        // §1.7 Envoy: a hedge on each per-try timeout (250 ms), the slow try left running.
        QTest::newRow("envoy: per-try timeout 250 ms")
            << hedges(1, 250) << QList<Copy> { { 400, true }, { 100, true } } << u"1@0 2@250 win2@350 cancel1"_s;
    }
    void copies()
    {
        QFETCH(HedgingOptions, options);
        QFETCH(QList<Copy>, copies);
        QFETCH(QString, expected);
        QVERIFY(validate(options).isEmpty());
        QCOMPARE(trace(options, copies), expected);
    }

    void aCancelledCopysLateAnswerChangesNothing()
    {
        Hedging h(hedges(1, 100), ms(0));
        QCOMPARE(h.startDue(ms(99)), std::nullopt);
        QCOMPARE(h.startDue(ms(100)), std::optional<int>(2));
        QVERIFY(!h.startDue(ms(1000))); // no third copy
        const auto win = h.answered(2, Hedging::Answer::Accepted, ms(150));
        QVERIFY(win.done);
        QCOMPARE(win.cancel, QList<int> { 1 });
        QVERIFY(!h.inFlight(1));
        const auto late = h.answered(1, Hedging::Answer::Failed, ms(200));
        QVERIFY(late.done);
        QCOMPARE(late.result, 2);
        QVERIFY(!late.startNow);
        QCOMPARE(h.nextStartAt(), std::nullopt);
    }

    void validation_data()
    {
        QTest::addColumn<HedgingOptions>("options");
        QTest::addColumn<QString>("path");
        QTest::newRow("no hedges") << hedges(0, 100) << u"max_hedges"_s;
        QTest::newRow("eleven hedges") << hedges(11, 100) << u"max_hedges"_s;
        QTest::newRow("delay -2") << hedges(1, -2) << u"delay_ms"_s;
        QTest::newRow("delay over a day") << hedges(1, 86400001) << u"delay_ms"_s;
    }
    void validation()
    {
        QFETCH(HedgingOptions, options);
        QFETCH(QString, path);
        const auto problems = validate(options);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].path, path);
    }
};

QTEST_GUILESS_MAIN(TestHedging)
#include "tst_hedging.moc"
