// SPDX-License-Identifier: GPL-3.0-or-later
// The judge of a case with many calls (issue 28 §5), on timelines written here rather than run: a client
// whose breaker is the policy's conforms, at a steady beat or with its timers a little late; one whose
// breaker opens sooner or later, breaks shorter or longer, or probes more than the policy is named by the
// rule it broke, with the window's counts or the break as evidence; copies of one call sent too soon or
// too many are hedging findings. The clients are simulated with the pure breaker itself (policy/resilience/
// circuitbreaker.h) set up otherwise than the policy, and the policies are the presets (cockatiel-3:
// ConsecutiveBreaker(5), 10 s; opossum-9: > 50 % over 10 s, 30 s, refused calls counted; grpc-hedging: a
// copy every 500 ms, at most 3 more).
#include "conform/calls/callplacement.h"
#include "conform/calls/callsjudge.h"
#include "conform/conformancerunner.h"
#include "lab/labexchange.h"
#include "policy/presetcatalog.h"
#include "policy/resilience/breakerpresets.h"
#include "policy/resilience/circuitbreaker.h"

#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// A client making CALLS calls INTERVAL apart from 0 ms, its breaker set as CLIENT says, against a lab that
// resets every connection from OUTAGE_FROM to OUTAGE_TO (or answers 503 when STATUS is set); each request
// arrives LATE ms (plus up to JITTER, seeded) after its call's time and is answered TOOK ms later.
struct Client
{
    std::optional<CircuitBreakerOptions> breaker; // none: every call goes
    int calls = 260;
    qint64 interval = 50;
    qint64 outageFrom = 2000;
    qint64 outageTo = 7000;
    int status = 0; // 0: the outage resets; else this status
    qint64 late = 1;
    qint64 jitter = 0;
    qint64 took = 2;
    bool header = true;
};

LabExchange exchange(quint64 id, int call, qint64 arrived, qint64 took, bool outage, int status, bool header)
{
    LabExchange e;
    e.requestId = id;
    e.connectionId = id;
    e.clientAddress = u"127.0.0.1"_s;
    e.arrivedMs = arrived;
    e.requestCompleteMs = arrived;
    e.method = "GET";
    e.target = "/conform/outage";
    e.requestHeaders = { { "Host", "127.0.0.1:9" }, { "User-Agent", "client/1" } };
    if (header)
        e.requestHeaders.append({ kCallHeader, QByteArray::number(call) });
    if (outage && status == 0) {
        e.outcome = u"reset"_s;
        e.labClosedMs = arrived + took;
    } else {
        e.outcome = u"answered"_s;
        e.status = outage ? status : 200;
        e.responseStartedMs = arrived + took;
        e.responseFinishedMs = arrived + took;
    }
    return e;
}

QList<LabExchange> simulate(const Client& c)
{
    std::optional<CircuitBreaker> breaker;
    if (c.breaker)
        breaker.emplace(*c.breaker, Millis { 0 });
    QRandomGenerator random(7);
    struct Pending
    {
        qint64 end;
        CircuitBreaker::Ticket ticket;
        bool failure;
    };
    QList<Pending> pending; // results the client has not heard yet
    QList<LabExchange> out;
    const auto hear = [&](qint64 until) {
        std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) { return a.end < b.end; });
        while (!pending.isEmpty() && pending.first().end <= until) {
            const Pending p = pending.takeFirst();
            if (breaker)
                breaker->record(p.ticket, p.failure, Millis { p.end });
        }
    };
    for (int n = 1; n <= c.calls; ++n) {
        const qint64 at = (n - 1) * c.interval + c.late + (c.jitter > 0 ? qint64(random.bounded(int(c.jitter))) : 0);
        hear(at);
        CircuitBreaker::Ticket ticket;
        if (breaker) {
            ticket = breaker->admit(Millis { at });
            if (!ticket.sent())
                continue;
        }
        const bool outage = at >= c.outageFrom && at < c.outageTo;
        const bool failure = outage && c.status == 0;
        out << exchange(quint64(out.size() + 1), n, at, c.took, outage, c.status, c.header);
        pending.append({ at + c.took, ticket, failure });
    }
    return out;
}

CircuitBreakerOptions cockatiel(int failures = 5, qint64 breakMs = 10000)
{
    return BreakerPresets::cockatiel3Consecutive(failures, Millis { breakMs });
}

CircuitBreakerOptions opossum(qint64 breakMs = 30000, int probes = 1)
{
    CircuitBreakerOptions o = BreakerPresets::opossum9();
    o.breakDuration = Millis { breakMs };
    o.halfOpenProbes = probes;
    return o;
}

RunJudgement judge(const QString& preset, const QList<LabExchange>& exchanges, const CallPlan& plan,
    const QList<std::pair<QString, qint64>>& breakerChanges = {})
{
    PolicyParseResult loaded = PresetCatalog::load(preset);
    if (!loaded.ok())
        qFatal("preset %s does not load", qPrintable(preset));
    RetryPolicy policy = *loaded.policy;
    for (ResilienceStrategy& s : policy.pipeline) {
        if (s.kind != ResilienceStrategy::Kind::CircuitBreaker)
            continue;
        for (const auto& [what, value] : breakerChanges) {
            if (what == u"break_ms"_s)
                s.breaker.breakDuration = Millis { value };
        }
    }
    qint64 until = 0;
    for (const LabExchange& e : exchanges)
        until = std::max(until, e.arrivedMs + 10);
    until = std::max(until, qint64(plan.count) * plan.interval.count());
    return judgeCalls(policy, judgedRunOf(exchanges, 0, until, {}), plan, JudgeOptions {});
}

QStringList rulesOf(const RunJudgement& j)
{
    QStringList names;
    for (const ConformanceFinding& f : j.findings)
        names << findingRuleName(f.rule);
    return names;
}

QString sentences(const RunJudgement& j)
{
    QStringList lines;
    for (const ConformanceFinding& f : j.findings)
        lines << f.sentence();
    return lines.join(u'\n');
}

} // namespace

Q_DECLARE_METATYPE(Client)

class TestCallsJudge : public QObject
{
    Q_OBJECT

private slots:
    void breakers_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<Client>("client");
        QTest::addColumn<QStringList>("findings");
        QTest::addColumn<QString>("evidence"); // in the first finding's sentence

        Client c;
        c.breaker = cockatiel();
        QTest::addRow("cockatiel-3 client, cockatiel-3: opens at 5 in a row, probes after 10 s")
            << u"cockatiel-3"_s << c << QStringList() << QString();
        Client late = c;
        late.jitter = 20;
        QTest::addRow("cockatiel-3 client, timers up to 20 ms late")
            << u"cockatiel-3"_s << late << QStringList() << QString();
        Client instant = c;
        instant.took = 0; // the lab stamps arrival and answer in one millisecond: the answer is still its own
        QTest::addRow("cockatiel-3 client, answers within the millisecond")
            << u"cockatiel-3"_s << instant << QStringList() << QString();
        Client bare = c;
        bare.header = false;
        QTest::addRow("cockatiel-3 client without the call header (placed by time)")
            << u"cockatiel-3"_s << bare << QStringList() << QString();
        Client o;
        o.breaker = opossum();
        QTest::addRow("opossum-9 client, opossum-9: opens above 50 %%, refused calls counted")
            << u"opossum-9"_s << o << QStringList() << QString();
        Client o503 = o;
        o503.status = 503;
        QTest::addRow("opossum-9 client, 503s are answers: never opens")
            << u"opossum-9"_s << o503 << QStringList() << QString();

        Client early = c;
        early.breaker = cockatiel(3);
        QTest::addRow("opens at 3 in a row, cockatiel-3 at 5: opened early")
            << u"cockatiel-3"_s << early << QStringList { u"breaker-opened-early"_s } << u"3 failures in a row"_s;
        Client tooLate = c;
        tooLate.breaker = cockatiel(8);
        QTest::addRow("opens at 8 in a row, cockatiel-3 at 5: opened late")
            << u"cockatiel-3"_s << tooLate << QStringList { u"breaker-opened-late"_s } << u"5 failures in a row"_s;
        Client shortBreak = c;
        shortBreak.breaker = cockatiel(5, 5000);
        QTest::addRow("breaks 5 s, cockatiel-3 10 s: sent while open")
            << u"cockatiel-3"_s << shortBreak << QStringList { u"breaker-sent-while-open"_s } << u"until +12"_s;
        Client longBreak = c;
        longBreak.breaker = cockatiel(5, 15000);
        longBreak.calls = 400;
        QTest::addRow("breaks 15 s, cockatiel-3 10 s: too few probes")
            << u"cockatiel-3"_s << longBreak << QStringList { u"breaker-too-few-probes"_s } << u"break of 10 s"_s;
        QTest::addRow("cockatiel's breaker judged by opossum-9: opened early")
            << u"opossum-9"_s << c << QStringList { u"breaker-opened-early"_s } << u"failures in its window"_s;
        Client o15 = o;
        o15.calls = 300; // 15 s: the policy's break (10 s and 1 s of tolerance) ends within the run
        QTest::addRow("opossum's breaker judged by cockatiel-3: opened late, then no probe")
            << u"cockatiel-3"_s << o15 << QStringList { u"breaker-opened-late"_s, u"breaker-too-few-probes"_s }
            << u"5 failures in a row"_s;
        QTest::addRow("a breaker judged by a policy without one (curl-7.88)")
            << u"curl-7.88"_s << c << QStringList { u"breaker-opened-early"_s } << u"no circuit breaker"_s;
        Client noBreaker;
        QTest::addRow("no breaker at all, curl-7.88: every call goes")
            << u"curl-7.88"_s << noBreaker << QStringList() << QString();
        QTest::addRow("no breaker at all, cockatiel-3: opened late")
            << u"cockatiel-3"_s << noBreaker << QStringList { u"breaker-opened-late"_s } << u"5 failures in a row"_s;

        // Calls that last longer than the beat overlap: three probes at once where opossum lets one.
        Client probes;
        probes.breaker = opossum(2000, 3);
        probes.took = 120;
        probes.outageTo = 5000;
        Client oneProbe = probes;
        oneProbe.breaker = opossum(2000, 1);
        QTest::addRow("opossum with a 2 s break, one probe, slow answers")
            << u"opossum-9"_s << oneProbe << QStringList() << QString();
        // The client closes only when all three have answered: the calls it holds till then, the policy
        // (closed by the first) would send.
        QTest::addRow("three probes at once, opossum-9 lets one through")
            << u"opossum-9"_s << probes << QStringList { u"breaker-too-many-probes"_s, u"breaker-opened-early"_s }
            << u"1 probe"_s;
    }

    void breakers()
    {
        QFETCH(QString, preset);
        QFETCH(Client, client);
        QFETCH(QStringList, findings);
        QFETCH(QString, evidence);
        // The opossum rows with a short break judge against the preset with the same break.
        QList<std::pair<QString, qint64>> changes;
        if (client.breaker && client.breaker->window == CircuitBreakerOptions::Window::Time
            && client.breaker->breakDuration.count() < 30000)
            changes.append({ u"break_ms"_s, client.breaker->breakDuration.count() });
        const QList<LabExchange> exchanges = simulate(client);
        const RunJudgement j = judge(preset, exchanges, CallPlan { client.calls, Millis { client.interval } }, changes);
        QVERIFY(j.calls);
        const QString report = sentences(j);
        if (rulesOf(j) != findings)
            qWarning().noquote() << report;
        QCOMPARE(rulesOf(j), findings);
        QVERIFY2(j.notes.isEmpty(), qPrintable(j.notes.isEmpty() ? QString() : j.notes.first().sentence()));
        QCOMPARE(j.calls->planned, client.calls);
        QCOMPARE(j.calls->requests, int(exchanges.size()));
        QCOMPARE(j.calls->sent + j.calls->kept, client.calls);
        if (!evidence.isEmpty())
            QVERIFY2(j.findings.first().sentence().contains(evidence), qPrintable(report));
        for (const ConformanceFinding& f : j.findings) {
            QVERIFY(!f.observed.isEmpty() && !f.expected.isEmpty());
            QVERIFY2(f.callCount >= 1 && f.firstCall >= 1 && f.lastCall >= f.firstCall, qPrintable(f.sentence()));
        }
    }

    // The policy's breaker along a conforming client's calls: opened by the fifth failure in a row, half-open
    // and closed by the first call after its break.
    void breakerMomentsAreReported()
    {
        Client c;
        c.breaker = cockatiel();
        const RunJudgement j = judge(u"cockatiel-3"_s, simulate(c), CallPlan { c.calls, Millis { c.interval } });
        QVERIFY2(j.conforms(), qPrintable(sentences(j)));
        QVERIFY(j.calls->hasBreaker);
        QCOMPARE(j.calls->breaker.size(), 3);
        const CircuitBreaker::Change& opened = j.calls->breaker.at(0);
        QCOMPARE(opened.to, CircuitBreaker::State::Open);
        QCOMPARE(opened.at.count(), 2200 + 1 + 2); // calls 41–45 at 2 001…2 201 ms, answered 2 ms later
        QCOMPARE(opened.window.failures, 5);
        QCOMPARE(j.calls->breaker.at(1).to, CircuitBreaker::State::HalfOpen);
        QCOMPARE(j.calls->breaker.at(2).to, CircuitBreaker::State::Closed);
        QCOMPARE(j.calls->breaker.at(1).at.count(), 12251); // the first call after 12 203 ms
        QCOMPARE(j.calls->kept, (12250 - 2250) / 50);
        QCOMPARE(j.calls->late, 0);
        QCOMPARE(j.calls->failures, 5);
        QCOMPARE(j.calls->origin.count(), 1);
    }

    // A call that never reached the lab counts only while the client was watched: a client stopped early is
    // judged on the calls due before that.
    void callsAfterTheObservationAreNotJudged()
    {
        Client c;
        c.breaker = cockatiel();
        const QList<LabExchange> all = simulate(c);
        QList<LabExchange> first;
        for (const LabExchange& e : all)
            if (e.arrivedMs < 1000)
                first << e;
        const RunJudgement j = judgeCalls(*PresetCatalog::load(u"cockatiel-3"_s).policy,
            judgedRunOf(first, std::nullopt, 1010, {}), CallPlan { c.calls, Millis { c.interval } }, JudgeOptions {});
        QVERIFY2(j.conforms(), qPrintable(sentences(j)));
        QCOMPARE(j.calls->planned, 20);
    }

    void hedges_data()
    {
        QTest::addColumn<QList<qint64>>("starts"); // the copies of one call: when each went
        QTest::addColumn<QList<qint64>>("ends"); // and when each was answered
        QTest::addColumn<QList<int>>("statuses");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QStringList>("findings");
        // grpc-hedging: a copy 500 ms after the newest, at most 3 more; a 503 sends the next at once.
        QTest::addRow("grpc-hedging: copies 500 ms apart")
            << QList<qint64> { 0, 500, 1000 } << QList<qint64> { 1400, 1400, 1200 } << QList<int> { 200, 200, 200 }
            << u"grpc-hedging"_s << QStringList();
        QTest::addRow("grpc-hedging: a 503 sends the next copy at once")
            << QList<qint64> { 0, 101 } << QList<qint64> { 100, 300 } << QList<int> { 503, 200 } << u"grpc-hedging"_s
            << QStringList();
        QTest::addRow("grpc-hedging: a copy after 100 ms")
            << QList<qint64> { 0, 100 } << QList<qint64> { 900, 900 } << QList<int> { 200, 200 } << u"grpc-hedging"_s
            << QStringList { u"hedge-early"_s };
        QTest::addRow("grpc-hedging: five copies")
            << QList<qint64> { 0, 500, 1000, 1500, 2000 } << QList<qint64> { 2500, 2500, 2500, 2500, 2500 }
            << QList<int> { 200, 200, 200, 200, 200 } << u"grpc-hedging"_s << QStringList { u"hedge-beyond-max"_s };
        QTest::addRow("cockatiel-3 does not hedge")
            << QList<qint64> { 0, 500 } << QList<qint64> { 900, 900 } << QList<int> { 200, 200 } << u"cockatiel-3"_s
            << QStringList { u"hedge-beyond-max"_s };
    }

    void hedges()
    {
        QFETCH(QList<qint64>, starts);
        QFETCH(QList<qint64>, ends);
        QFETCH(QList<int>, statuses);
        QFETCH(QString, preset);
        QFETCH(QStringList, findings);
        QList<LabExchange> exchanges;
        for (qsizetype i = 0; i < starts.size(); ++i) {
            LabExchange e = exchange(quint64(i + 1), 1, 1000 + starts.at(i), ends.at(i) - starts.at(i), false, 0, true);
            e.status = statuses.at(i);
            exchanges << e;
        }
        const RunJudgement j = judge(preset, exchanges, CallPlan { 1, Millis { 5000 } });
        QCOMPARE(rulesOf(j), findings);
        QCOMPARE(j.calls->hedges,
            int(std::count_if(starts.cbegin() + 1, starts.cend(), [&](qint64 s) { return s < ends.first(); })));
    }

    void placement()
    {
        // By the call header: the median of the first requests' offsets sets call 1's time.
        Client c;
        c.calls = 5;
        c.late = 3;
        QList<LabExchange> exchanges = simulate(c);
        exchanges[2].arrivedMs += 30; // one late timer does not move the beat
        const JudgedRun run = judgedRunOf(exchanges, 0, 1000, {});
        const CallPlacement p = placeCalls(run.record.attempts, CallPlan { 5, Millis { 50 } }, Millis { 1000 });
        QVERIFY(p.byHeader);
        QCOMPARE(p.origin.count(), 3);
        QCOMPARE(p.calls.size(), 5);
        QCOMPARE(p.calls.at(4).due.count(), 203);
        QVERIFY(p.slack.count() >= 10 && p.slack.count() <= 25);
        // A request naming no call of the plan is a stray.
        exchanges[4].requestHeaders.last().second = "9";
        const CallPlacement strays = placeCalls(
            judgedRunOf(exchanges, 0, 1000, {}).record.attempts, CallPlan { 5, Millis { 50 } }, Millis { 1000 });
        QCOMPARE(strays.strays, QList<int> { 4 });
    }
};

QTEST_GUILESS_MAIN(TestCallsJudge)
#include "tst_callsjudge.moc"
