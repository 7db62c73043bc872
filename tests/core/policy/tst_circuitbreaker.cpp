// SPDX-License-Identifier: GPL-3.0-or-later
// The circuit breaker's state machine (policy/resilience/circuitbreaker.h) on a fake clock: when each
// library's breaker opens, probes, closes and refuses, as resilience-fleets.md §1 reads their sources
// (§1.1 Polly 8, §1.4 resilience4j 2, §1.5 cockatiel 3.2.1, §1.6 opossum 9). tst_client_breakers runs the
// real cockatiel and opossum against the lab and holds this machine to what they did.

#include "policy/resilience/breakerpresets.h"
#include "policy/resilience/circuitbreaker.h"

#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using Breaker = CircuitBreaker;
using O = CircuitBreakerOptions;
using State = CircuitBreaker::State;
using Admission = CircuitBreaker::Admission;

Q_DECLARE_METATYPE(CircuitBreakerOptions)

namespace {

constexpr Millis ms(qint64 v) { return Millis { v }; }

// Calls made one after another, each ending when it starts: "S" a success, "F" a failure, N of them with
// "90S" and an explicit time with "@1500". Returns the 0-based index of the call after which the breaker
// opened (-1 if it never did); calls after that are not made.
int openedAt(Breaker& b, const QString& script, qint64 step = 10)
{
    static const QRegularExpression token(u"@(\\d+)|(\\d*)([SF])"_s);
    qint64 t = 0;
    int index = 0;
    for (auto it = token.globalMatch(script); it.hasNext();) {
        const auto m = it.next();
        if (m.hasCaptured(1)) {
            t = m.captured(1).toLongLong();
            continue;
        }
        const int n = m.captured(2).isEmpty() ? 1 : m.captured(2).toInt();
        for (int i = 0; i < n; ++i, ++index, t += step) {
            const auto ticket = b.admit(ms(t));
            if (!ticket.sent())
                return -2; // refused before it opened: the script is wrong
            b.record(ticket, m.captured(3) == u"F"_s, ms(t));
            if (b.state(ms(t)) == State::Open)
                return index;
        }
    }
    return -1;
}

// Opens a fresh breaker with failures in a row (for the presets that open on them) at t = 0…
Breaker opened(const CircuitBreakerOptions& o)
{
    Breaker b(o);
    for (qint64 t = 0; b.state(ms(t)) != State::Open; ++t) {
        const auto ticket = b.admit(ms(t));
        b.record(ticket, true, ms(t));
        if (t > 1000)
            qFatal("the breaker never opened");
    }
    return b;
}

CircuitBreakerOptions with(CircuitBreakerOptions o, const std::function<void(CircuitBreakerOptions&)>& change)
{
    change(o);
    return o;
}

} // namespace

class TestCircuitBreaker : public QObject
{
    Q_OBJECT

private slots:
    // When the closed breaker opens: the window, the comparator, the least volume (§1.8's closed state).
    void opensWhen_data()
    {
        QTest::addColumn<CircuitBreakerOptions>("options");
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("opensAfter");

        const auto polly = BreakerPresets::polly8();
        // §1.1: failures/throughput ≥ 0.1 and throughput ≥ 100, judged on a failure.
        QTest::newRow("polly: 10 of 100 is 0.1, and >= opens on the 100th") << polly << u"90S 10F"_s << 99;
        QTest::newRow("polly: 9 of 100 stays closed") << polly << u"91S 9F"_s << -1;
        QTest::newRow("polly: 99 failures are below the least throughput") << polly << u"99F"_s << -1;
        QTest::newRow("polly: the 100th failure opens") << polly << u"100F"_s << 99;
        QTest::newRow("polly: a success never opens, though 10 of 100 failed first") << polly << u"10F 90S"_s << -1;
        // §1.1: 30 s of 10 buckets, each starting at the call that finds the last one over; a bucket counts
        // for 30 s from its start.
        QTest::newRow("polly: failures 30 s old are out of the window")
            << polly << u"@0 50F @30000 90S 9F"_s << -1;
        QTest::newRow("polly: failures 29 s old are still in")
            << polly << u"@0 50F @29000 90S 9F"_s << 140;

        const auto r4j = BreakerPresets::resilience4j2();
        // §1.4: COUNT_BASED 100, ≥ 50 %, judged after every call once 100 are in.
        QTest::newRow("r4j: 50 failures then 50 successes open on the 100th, a success")
            << r4j << u"50F 50S"_s << 99;
        QTest::newRow("r4j: 49 of 100 stays closed") << r4j << u"49F 51S"_s << -1;
        QTest::newRow("r4j: the last 100 calls only") << r4j << u"100S 49F 1S 1F"_s << 150;
        QTest::newRow("r4j: minimum capped at a smaller window")
            << with(r4j, [](O& o) { o.windowCalls = 10; }) << u"5S 5F"_s << 9;
        QTest::newRow("polly-style judge: 50 failures, 50 successes stay closed")
            << with(r4j, [](O& o) { o.judgeAfterSuccess = false; }) << u"50F 50S"_s << -1;

        // §1.5: ConsecutiveBreaker(n) opens at n in a row; a success starts over.
        const auto cockatiel = BreakerPresets::cockatiel3Consecutive(5, ms(1000));
        QTest::newRow("cockatiel: 5 in a row") << cockatiel << u"FFFFF"_s << 4;
        QTest::newRow("cockatiel: a success starts over") << cockatiel << u"FFFFSFFFFF"_s << 9;
        QTest::newRow("cockatiel: 4 in a row, forever") << cockatiel << u"FFFFS FFFFS FFFFS"_s << -1;
        // §1.5: SamplingBreaker, failures > threshold × total once total ≥ duration × minimumRps
        // (5/threshold by default): 0.2 over 30 s needs 750 calls.
        const auto sampling = with(polly, [](O& o) {
            o.failureRatio = 0.2;
            o.comparator = O::Comparator::Above;
            o.minimumCallsPerSecond = 5.0 / 0.2;
        });
        QTest::newRow("cockatiel sampling: 749 failures are too few") << sampling << u"749F"_s << -1;
        QTest::newRow("cockatiel sampling: the 750th opens") << sampling << u"749F 1F"_s << 749;
        QTest::newRow("cockatiel sampling: exactly 0.2 is not above it") << sampling << u"600S 149F 1F"_s << -1;
        QTest::newRow("cockatiel sampling: one more is") << sampling << u"600S 150F 1F"_s << 750;

        // §1.6: failures/fires > 50 % with a volume threshold of 0: the very first failure opens.
        const auto opossum = BreakerPresets::opossum9();
        QTest::newRow("opossum: a first failure is 100 %") << opossum << u"F"_s << 0;
        QTest::newRow("opossum: 1 of 2 is not above 50 %") << opossum << u"SF"_s << -1;
        QTest::newRow("opossum: 2 of 3 is") << opossum << u"SFF"_s << 2;
        QTest::newRow("opossum: volume threshold 10")
            << with(opossum, [](O& o) { o.minimumCalls = 10; }) << u"SFFFFFFFF F"_s << 9;
        // §1.6: ten 1 s buckets turned from the breaker's creation: at 10 000 the bucket of 0–999 is gone.
        QTest::newRow("opossum: at 9 999 the first second still counts")
            << opossum << u"@0 S @500 S @9999 F"_s << -1;
        QTest::newRow("opossum: at 10 000 it is gone, 1 of 1")
            << opossum << u"@0 S @500 S @10000 F"_s << 2;
    }
    void opensWhen()
    {
        QFETCH(CircuitBreakerOptions, options);
        QFETCH(QString, script);
        QFETCH(int, opensAfter);
        QVERIFY(validate(options).isEmpty());
        Breaker b(options);
        QCOMPARE(openedAt(b, script), opensAfter);
    }

    // §1.1: Polly's half-open: lazy, one probe, others refused with the time left; a success closes and
    // the window starts empty.
    void pollyHalfOpenRefusesOthersAndCloses()
    {
        auto o = BreakerPresets::polly8();
        o.minimumCalls = 2;
        Breaker b = opened(o); // opened at t = 1: two failures
        QCOMPARE(b.changes().size(), 1);
        QCOMPARE(b.changes()[0].at, ms(1));
        QCOMPARE(b.changes()[0].window, (Breaker::Counts { 2, 2 }));
        QCOMPARE(b.changes()[0].breakFor, ms(5000));

        const auto early = b.admit(ms(5000));
        QCOMPARE(early.admission, Admission::Rejected);
        QCOMPARE(early.state, State::Open);
        QCOMPARE(early.retryIn, ms(1));
        QCOMPARE(b.state(ms(5001)), State::Open); // lazy: no call, no half-open
        const auto probe = b.admit(ms(5001));
        QCOMPARE(probe.admission, Admission::Probe);
        QCOMPARE(b.admit(ms(5002)).admission, Admission::Rejected);
        b.record(probe, false, ms(5100));
        QCOMPARE(b.state(ms(5100)), State::Closed);
        QCOMPARE(b.window(ms(5100)), (Breaker::Counts {}));
        QCOMPARE(b.changes().size(), 3);
        QCOMPARE(b.changes()[1].at, ms(5001));
        QCOMPARE(b.changes()[1].to, State::HalfOpen);
        QCOMPARE(b.changes()[2].at, ms(5100));
        QCOMPARE(b.changes()[2].to, State::Closed);
        // Closed and empty: one failure is below the least throughput again.
        const auto next = b.admit(ms(5200));
        b.record(next, true, ms(5200));
        QCOMPARE(b.state(ms(5200)), State::Closed);
    }

    // §1.1: a failed probe reopens for a whole break; results that come while open never move it.
    void failedProbeReopensAndStragglersDoNotMoveAnOpenBreaker()
    {
        auto o = BreakerPresets::polly8();
        o.minimumCalls = 2;
        Breaker b(o);
        const auto a = b.admit(ms(0));
        const auto c = b.admit(ms(0));
        const auto d = b.admit(ms(0)); // in flight when the breaker opens
        b.record(a, true, ms(10));
        b.record(c, true, ms(10));
        QCOMPARE(b.state(ms(10)), State::Open);
        b.record(d, false, ms(20)); // a success while open: counted, changes nothing
        QCOMPARE(b.state(ms(20)), State::Open);
        QCOMPARE(b.window(ms(20)), (Breaker::Counts { 3, 2 }));
        const auto probe = b.admit(ms(5010));
        QCOMPARE(probe.admission, Admission::Probe);
        b.record(probe, true, ms(5050));
        QCOMPARE(b.state(ms(5050)), State::Open);
        QCOMPARE(b.openUntil(), ms(10050));
        QCOMPARE(b.admit(ms(10049)).admission, Admission::Rejected);
        QCOMPARE(b.admit(ms(10050)).admission, Admission::Probe);
    }

    // §1.5: cockatiel's callers wait for the probe's verdict, then go as the breaker then says.
    void cockatielCallersWaitForTheVerdict()
    {
        Breaker b = opened(BreakerPresets::cockatiel3Consecutive(3, ms(1000))); // opened at t = 2
        QCOMPARE(b.admit(ms(1001)).admission, Admission::Rejected); // Date.now() - openedAt < duration
        const auto probe = b.admit(ms(1002));
        QCOMPARE(probe.admission, Admission::Probe);
        const auto waiter = b.admit(ms(1003));
        QCOMPARE(waiter.admission, Admission::Wait);
        QVERIFY(!waiter.sent());
        b.record(waiter, true, ms(1004)); // a held call has no result: ignored
        QCOMPARE(b.state(ms(1004)), State::HalfOpen);
        b.record(probe, true, ms(1100));
        QCOMPARE(b.state(ms(1100)), State::Open);
        QCOMPARE(b.admit(ms(1100)).admission, Admission::Rejected); // the waiter, asking again
        const auto second = b.admit(ms(2100));
        QCOMPARE(second.admission, Admission::Probe);
        const auto waiter2 = b.admit(ms(2101));
        b.record(second, false, ms(2150));
        QCOMPARE(waiter2.admission, Admission::Wait);
        QCOMPARE(b.admit(ms(2150)).admission, Admission::Allowed);
    }

    // §1.4: resilience4j lets 10 calls through half-open and judges their rate (≥ 50 % reopens).
    void resilience4jJudgesTenProbes_data()
    {
        QTest::addColumn<int>("failures");
        QTest::addColumn<State>("after");
        QTest::newRow("5 of 10 failed: 50 % reopens") << 5 << State::Open;
        QTest::newRow("4 of 10 failed: closes") << 4 << State::Closed;
        QTest::newRow("none failed: closes") << 0 << State::Closed;
    }
    void resilience4jJudgesTenProbes()
    {
        QFETCH(int, failures);
        QFETCH(State, after);
        auto o = BreakerPresets::resilience4j2();
        o.windowCalls = 4;
        Breaker b = opened(o); // 4 failures: 100 % of the minimum 4
        const Millis t = b.openUntil();
        QList<Breaker::Ticket> probes;
        for (int i = 0; i < 10; ++i) {
            probes.append(b.admit(t));
            QCOMPARE(probes.last().admission, Admission::Probe);
        }
        QCOMPARE(b.admit(t).admission, Admission::Rejected); // the 11th: CallNotPermittedException
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(b.state(t), State::HalfOpen); // no verdict before the 10th result
            b.record(probes[i], i < failures, t + ms(i));
        }
        QCOMPARE(b.state(t + ms(10)), after);
    }

    // §1.6: opossum's half-open comes on a timer when the break ends, with no call; the first call is the
    // only probe. The window survives closing, and refused calls count as fires.
    void opossumTimerAndWindowThatSurvivesClosing()
    {
        auto o = BreakerPresets::opossum9();
        o.breakDuration = ms(1000);
        Breaker b(o);
        auto s = b.admit(ms(0));
        b.record(s, false, ms(0));
        auto f = b.admit(ms(100));
        b.record(f, true, ms(100));
        QCOMPARE(b.state(ms(100)), State::Closed); // 1 of 2
        f = b.admit(ms(200));
        b.record(f, true, ms(200));
        QCOMPARE(b.state(ms(200)), State::Open); // 2 of 3
        QCOMPARE(b.admit(ms(300)).admission, Admission::Rejected);
        QCOMPARE(b.window(ms(300)), (Breaker::Counts { 4, 2 })); // the refused call is a fire
        QCOMPARE(b.state(ms(1199)), State::Open);
        QCOMPARE(b.state(ms(1500)), State::HalfOpen);
        QCOMPARE(b.changes().last().at, ms(1200)); // when the timer fired, not when asked
        const auto probe = b.admit(ms(1600));
        QCOMPARE(probe.admission, Admission::Probe);
        QCOMPARE(b.admit(ms(1601)).admission, Admission::Rejected);
        b.record(probe, false, ms(1650));
        QCOMPARE(b.state(ms(1650)), State::Closed);
        QCOMPARE(b.window(ms(1650)), (Breaker::Counts { 6, 2 })); // kept: 2 failures of 6 fires
        // 3 failures of 7 fires is not above half; 4 of 8 is not; 5 of 9 is.
        for (int i = 0; i < 3; ++i) {
            const auto c = b.admit(ms(1700 + i));
            b.record(c, true, ms(1700 + i));
        }
        QCOMPARE(b.state(ms(1710)), State::Open);
        QCOMPARE(b.changes().last().window, (Breaker::Counts { 9, 5 }));
    }

    // §1.1 BreakDurationGenerator / §1.5 halfOpenAfter as a backoff: the break grows with each half-open
    // since the last close, up to a longest; a close starts it over.
    void breakGrowsWithHalfOpensUntilAClose()
    {
        auto o = BreakerPresets::cockatiel3Consecutive(1, ms(1000));
        o.breakGrowth = 2.0;
        o.maxBreakDuration = ms(5000);
        Breaker b = opened(o);
        QList<qint64> breaks { b.changes().last().breakFor.count() };
        for (int i = 0; i < 4; ++i) {
            const auto probe = b.admit(b.openUntil());
            b.record(probe, true, b.openUntil());
            breaks.append(b.changes().last().breakFor.count());
        }
        QCOMPARE(breaks, (QList<qint64> { 1000, 2000, 4000, 5000, 5000 }));
        const auto probe = b.admit(b.openUntil());
        b.record(probe, false, b.openUntil());
        QCOMPARE(b.halfOpenCount(), 0);
        const auto f = b.admit(b.openUntil() + ms(1));
        b.record(f, true, b.openUntil() + ms(1));
        QCOMPARE(b.changes().last().breakFor, ms(1000));
    }

    // Polly's buckets start at a call; opossum's turn on the clock from creation.
    void bucketsStartAtACallOrOnTheClock()
    {
        auto o = BreakerPresets::polly8();
        o.samplingDuration = ms(1000); // buckets of 100 ms
        Breaker atCall(o);
        o.bucketStart = O::BucketStart::Fixed;
        Breaker fixed(o, ms(50));
        for (Breaker* b : { &atCall, &fixed }) {
            const auto t = b->admit(ms(120));
            b->record(t, true, ms(120));
        }
        // Polly: the bucket began at 120 and counts until 1 120; opossum's began at 50 and is gone at 1 050.
        QCOMPARE(atCall.window(ms(1119)).failures, 1);
        QCOMPARE(atCall.window(ms(1120)).failures, 0);
        QCOMPARE(fixed.window(ms(1049)).failures, 1);
        QCOMPARE(fixed.window(ms(1050)).failures, 0);
    }

    void validation_data()
    {
        QTest::addColumn<CircuitBreakerOptions>("options");
        QTest::addColumn<QString>("path");
        const auto polly = BreakerPresets::polly8();
        QTest::newRow("ratio above 1") << with(polly, [](O& o) { o.failureRatio = 1.5; }) << u"failure_ratio"_s;
        QTest::newRow("ratio NaN") << with(polly, [](O& o) { o.failureRatio = std::nan(""); }) << u"failure_ratio"_s;
        QTest::newRow("no buckets") << with(polly, [](O& o) { o.buckets = 0; }) << u"buckets"_s;
        QTest::newRow("buckets under 1 ms")
            << with(polly, [](O& o) { o.samplingDuration = ms(5); o.buckets = 10; }) << u"buckets"_s;
        QTest::newRow("sampling over a day")
            << with(polly, [](O& o) { o.samplingDuration = ms(86400001); }) << u"sampling_ms"_s;
        QTest::newRow("zero break") << with(polly, [](O& o) { o.breakDuration = ms(0); }) << u"break_ms"_s;
        QTest::newRow("growth below 1") << with(polly, [](O& o) { o.breakGrowth = 0.5; }) << u"break_growth"_s;
        QTest::newRow("longest under the break")
            << with(polly, [](O& o) { o.maxBreakDuration = ms(10); }) << u"max_break_ms"_s;
        QTest::newRow("no probes") << with(polly, [](O& o) { o.halfOpenProbes = 0; }) << u"half_open_probes"_s;
        QTest::newRow("negative minimum") << with(polly, [](O& o) { o.minimumCalls = -1; }) << u"minimum_calls"_s;
        QTest::newRow("rate on a count window")
            << with(BreakerPresets::resilience4j2(), [](O& o) { o.minimumCallsPerSecond = 5; })
            << u"minimum_calls_per_second"_s;
        QTest::newRow("zero in a row")
            << with(BreakerPresets::cockatiel3Consecutive(), [](O& o) { o.consecutiveFailures = 0; })
            << u"consecutive_failures"_s;
        QTest::newRow("empty count window")
            << with(BreakerPresets::resilience4j2(), [](O& o) { o.windowCalls = 0; }) << u"window_calls"_s;
    }
    void validation()
    {
        QFETCH(CircuitBreakerOptions, options);
        QFETCH(QString, path);
        const auto problems = validate(options);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].path, path);
        QVERIFY(!problems[0].message.isEmpty());
    }

    void presetsAreValid()
    {
        for (const auto& o : { BreakerPresets::polly8(), BreakerPresets::resilience4j2(),
                 BreakerPresets::cockatiel3Consecutive(), BreakerPresets::opossum9() })
            QVERIFY(validate(o).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCircuitBreaker)
#include "tst_circuitbreaker.moc"
