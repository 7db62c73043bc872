// SPDX-License-Identifier: GPL-3.0-or-later
// The per-host throttle (RetryPolicy::hostThrottle, "waits for a reported reset and fails fast without
// sending when the reset is beyond maxWait"): on a fake scheduler with scripted answers, then against the
// real fault lab's rate limiter. Also: every attempt carries its parsed rate-limit snapshot.
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "runcollector.h"
#include "engine/timerscheduler.h"
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "policy/randomsource.h"
#include "scriptedtransport.h"
#include "support/manualclock.h"
#include "support/manualscheduler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace {

RetryPolicy throttled(bool enabled = true, Millis maxWait = Millis(30000))
{
    RetryPolicy p;
    p.name = u"throttled"_s;
    p.limits.maxAttempts = 3;
    p.backoff.kind = BackoffKind::Constant;
    p.backoff.base = Millis(100);
    p.jitter.kind = JitterKind::None;
    RetryRule rule;
    rule.name = u"busy"_s;
    rule.when.outcome = OutcomeKind::Status;
    rule.when.statuses = { StatusRange { 429, 429 }, StatusRange { 503, 503 } };
    p.rules = { rule };
    p.hostThrottle.enabled = enabled;
    p.hostThrottle.maxWait = maxWait;
    return p;
}

RequestSpec getSpec(int port = 9)
{
    RequestSpec s;
    s.url = QUrl(u"http://127.0.0.1:%1/x"_s.arg(port));
    return s;
}

// IETF draft-11 fields: one policy, REMAINING left, reset in RESET seconds.
HttpHeaderList ietf(int remaining, int reset)
{
    return { { "RateLimit-Policy", "\"default\";q=10;w=60" },
        { "RateLimit", "\"default\";r=" + QByteArray::number(remaining) + ";t=" + QByteArray::number(reset) } };
}

QList<RunRecord> runsOf(const RunCollector& collected)
{
    return collected.byRunId();
}

QByteArray rateLimitedScenario()
{
    return R"({ "format": 1, "name": "throttle-test",
  "rate_limit": { "algorithm": "fixed-window", "limit": 2, "window_ms": 2000, "dialect": "ietf-11", "policy": "burst" },
  "routes": [ { "name": "read", "method": "GET", "path": "/t",
                "steps": [ { "kind": "respond", "status": 200, "repeat": "forever", "json": { "n": "{{n}}" } } ] } ] })";
}

} // namespace

class TestHostThrottle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void attemptCarriesRateLimitSnapshot();
    void firstAttemptWaitsForReportedReset_data();
    void firstAttemptWaitsForReportedReset();
    void failsFastBeyondMaxWait();
    void retryWaitsForRetryAfterOf503();
    void otherHostsAreNotHeld();
    void cancelWhileHeldLeavesNothing();
    void realLabRateLimiter_data();
    void realLabRateLimiter();

private:
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<ManualScheduler> m_scheduler;
    std::unique_ptr<RetryEngine> m_engine;
    std::unique_ptr<FixedRandomSource> m_random;
    Script m_script;
};

void TestHostThrottle::init()
{
    m_clock = std::make_unique<ManualClock>();
    m_scheduler = std::make_unique<ManualScheduler>(*m_clock);
    m_engine = std::make_unique<RetryEngine>(*m_clock, *m_scheduler);
    m_random = std::make_unique<FixedRandomSource>(QList<double> { 0.5 });
    m_engine->setRandomSource(m_random.get());
    m_engine->setConcurrencyLimit(1);
    m_script = Script {};
    m_engine->setTransportFactory(
        [this](QNetworkAccessManager&, QObject* parent) -> Transport* { return new ScriptedTransport(m_script, *m_scheduler, parent); });
}

void TestHostThrottle::cleanup()
{
    m_engine.reset();
}

void TestHostThrottle::attemptCarriesRateLimitSnapshot()
{
    // Two dialects at once: the exhausted legacy quota is the most restrictive (ratelimitparser.h rule 1).
    HttpHeaderList headers = ietf(7, 30);
    headers << qMakePair(QByteArray("RateLimit-Limit"), QByteArray("100"))
            << qMakePair(QByteArray("RateLimit-Remaining"), QByteArray("0"))
            << qMakePair(QByteArray("RateLimit-Reset"), QByteArray("2"));
    m_script.answers = { { 200, {}, headers, 100ms } };
    QSignalSpy finished(m_engine.get(), &RetryEngine::attemptFinished);
    m_engine->submit(getSpec(), throttled(false));
    while (m_scheduler->runNext()) { }
    QCOMPARE(finished.size(), 1);
    const auto a = finished.at(0).at(0).value<AttemptRecord>();
    QCOMPARE(a.rateLimit.snapshots.size(), 2);
    const RateLimitSnapshot* most = a.rateLimit.mostRestrictive();
    QVERIFY(most);
    QCOMPARE(most->dialect, u"ratelimit-legacy"_s);
    QCOMPARE(a.rateLimitHeaders.size(), 5); // the raw fields are kept too

    QCOMPARE(most->limit, 100);
    QCOMPARE(most->remaining, 0);
    QCOMPARE(most->resetSeconds, 2.0);
    QCOMPARE(a.rateLimit.snapshots.at(0).policy, u"default"_s);
    QCOMPARE(a.rateLimit.snapshots.at(0).dialect, u"ietf-draft-11"_s);
    QCOMPARE(a.rateLimit.snapshots.at(0).remaining, 7);

    m_script = Script {};
    m_script.answers = { { 200, {}, {}, 100ms } };
    m_engine->submit(getSpec(), throttled(false));
    while (m_scheduler->runNext()) { }
    QVERIFY(finished.at(1).at(0).value<AttemptRecord>().rateLimit.isEmpty());
}

void TestHostThrottle::firstAttemptWaitsForReportedReset_data()
{
    QTest::addColumn<HttpHeaderList>("headers");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<int>("waitMs");
    QTest::addRow("policy spent (remaining 0, t=5): the next run's first attempt waits 5 s")
        << ietf(0, 5) << 200 << true << 5000;
    QTest::addRow("quota left (remaining 3): no wait") << ietf(3, 5) << 200 << true << 0;
    QTest::addRow("429 with Retry-After 4: the next run waits 4 s")
        << HttpHeaderList { { "Retry-After", "4" } } << 429 << true << 4000;
    QTest::addRow("throttle disabled: no wait") << ietf(0, 5) << 200 << false << 0;
}

void TestHostThrottle::firstAttemptWaitsForReportedReset()
{
    QFETCH(HttpHeaderList, headers);
    QFETCH(int, status);
    QFETCH(bool, enabled);
    QFETCH(int, waitMs);
    RetryPolicy policy = throttled(enabled);
    policy.limits.maxAttempts = 1; // the first run takes what it gets
    m_script.answers = { { status, {}, headers, 100ms }, { 200, {}, {}, 100ms } };
    QSignalSpy waits(m_engine.get(), &RetryEngine::waitScheduled);
    RunCollector runs(m_engine.get());
    m_engine->submit(getSpec(), policy);
    m_engine->submit(getSpec(), policy);
    while (m_scheduler->runNext()) { }
    const QList<RunRecord> done = runsOf(runs);
    QCOMPARE(done.size(), 2);
    const RunRecord& second = done.at(1);
    QCOMPARE(second.outcome, FinalKind::Success);
    QCOMPARE(second.attempts.size(), 1);
    const AttemptRecord& a = second.attempts.first();
    QCOMPARE(a.throttleWait, Millis(waitMs));
    QCOMPARE(second.totalWait, Millis(waitMs));
    // The answer came at 100 ms; the reset is measured from then; run 2 began at 100 ms.
    QCOMPARE(*a.at.started, MonoTime(100ms) + Millis(waitMs));
    if (waitMs == 0) {
        QCOMPARE(waits.size(), 0);
        return;
    }
    QCOMPARE(waits.size(), 1);
    const auto w = waits.at(0).at(0).value<WaitInfo>();
    QCOMPARE(w.runId, second.runId);
    QCOMPARE(w.nextIndex, 1);
    QCOMPARE(w.decision.source, DelaySource::Throttle);
    QCOMPARE(w.dueAt - w.scheduledAt, MonoTime(Millis(waitMs)));
    QCOMPARE(*a.at.scheduled, w.dueAt);
    QCOMPARE(m_script.started, 2);
}

void TestHostThrottle::failsFastBeyondMaxWait()
{
    RetryPolicy policy = throttled(true, Millis(1000));
    m_script.answers = { { 200, {}, ietf(0, 5), 100ms } };
    RunCollector runs(m_engine.get());
    QSignalSpy started(m_engine.get(), &RetryEngine::attemptStarted);
    for (int i = 0; i < 3; ++i)
        m_engine->submit(getSpec(), policy);
    while (m_scheduler->runNext()) { }
    const QList<RunRecord> done = runsOf(runs);
    QCOMPARE(done.size(), 3);
    QCOMPARE(done.at(0).outcome, FinalKind::Success);
    for (int i = 1; i < 3; ++i) {
        QCOMPARE(done.at(i).outcome, FinalKind::RateLimited);
        QCOMPARE(done.at(i).attempts.size(), 0);
        QVERIFY2(done.at(i).reason.contains(u"beyond the throttle's 1 s maximum wait"_s), qPrintable(done.at(i).reason));
        QCOMPARE(done.at(i).serverAskedFor.value_or(Millis(0)), Millis(5000));
    }
    QCOMPARE(m_script.started, 1); // nothing sent for the failed runs
    QCOMPARE(started.size(), 1);
    QVERIFY(m_engine->isIdle());
}

void TestHostThrottle::retryWaitsForRetryAfterOf503()
{
    // The policy reads no hint itself: the throttle's reset (BudgetView::hostResetIn) sets the wait.
    m_script.answers = { { 503, {}, { { "Retry-After", "3" } }, 100ms }, { 200, {}, {}, 100ms } };
    RunCollector runs(m_engine.get());
    m_engine->submit(getSpec(), throttled());
    while (m_scheduler->runNext()) { }
    const RunRecord r = runsOf(runs).first();
    QCOMPARE(r.outcome, FinalKind::Success);
    QCOMPARE(r.attempts.size(), 2);
    const AttemptRecord& first = r.attempts.first();
    QCOMPARE(first.decision->source, DelaySource::Throttle);
    QCOMPARE(first.decision->delay, Millis(3000));
    QCOMPARE(first.budgetAfter.hostResetIn.value_or(Millis(0)), Millis(3000));
    QCOMPARE(r.attempts.at(1).throttleWait, Millis(0)); // the decision's wait already covered the reset

    // Beyond maxWait the decision stops (decide.cpp), reporting rate-limited.
    init();
    m_script.answers = { { 503, {}, { { "Retry-After", "60" } }, 100ms } };
    RunCollector runs2(m_engine.get());
    m_engine->submit(getSpec(), throttled(true, Millis(10000)));
    while (m_scheduler->runNext()) { }
    const RunRecord r2 = runsOf(runs2).first();
    QCOMPARE(r2.outcome, FinalKind::RateLimited);
    QCOMPARE(r2.attempts.size(), 1);
}

void TestHostThrottle::otherHostsAreNotHeld()
{
    RetryPolicy policy = throttled();
    m_script.answers = { { 200, {}, ietf(0, 5), 100ms }, { 200, {}, {}, 100ms } };
    RunCollector runs(m_engine.get());
    m_engine->submit(getSpec(9), policy);
    m_engine->submit(getSpec(10), policy); // another port: another host:port
    while (m_scheduler->runNext()) { }
    const QList<RunRecord> done = runsOf(runs);
    QCOMPARE(done.at(1).attempts.first().throttleWait, Millis(0));
    QCOMPARE(*done.at(1).attempts.first().at.started, MonoTime(100ms));
    QVERIFY(m_engine->hostThrottle().resetOf(u"127.0.0.1:9"_s).has_value());
    QVERIFY(!m_engine->hostThrottle().resetOf(u"127.0.0.1:10"_s).has_value());
}

void TestHostThrottle::cancelWhileHeldLeavesNothing()
{
    m_script.answers = { { 200, {}, ietf(0, 5), 100ms } };
    RunCollector runs(m_engine.get());
    QSignalSpy started(m_engine.get(), &RetryEngine::attemptStarted);
    m_engine->submit(getSpec(), throttled());
    const int second = m_engine->submit(getSpec(), throttled());
    m_scheduler->advanceBy(1s); // run 2 is held by the throttle
    QCOMPARE(started.size(), 1);
    m_engine->cancel(second);
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runsOf(runs).at(1).outcome, FinalKind::Cancelled);
    while (m_scheduler->runNext()) { }
    QCOMPARE(started.size(), 1);
    QCOMPARE(m_scheduler->pending(), 0);
    QVERIFY(m_engine->isIdle());
}

void TestHostThrottle::realLabRateLimiter_data()
{
    QTest::addColumn<bool>("enabled");
    QTest::addRow("throttle on: run 3 waits for the window, no 429") << true;
    QTest::addRow("throttle off: run 3 gets the 429") << false;
}

void TestHostThrottle::realLabRateLimiter()
{
    QFETCH(bool, enabled);
    m_engine.reset();
    QTemporaryDir dir;
    const QString path = dir.filePath(u"throttle.json"_s);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(rateLimitedScenario());
    }
    const auto loaded = ScenarioCatalog::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    engine.setConcurrencyLimit(1);
    FaultServer lab;
    lab.setClockOrigin(clock.origin());
    QVERIFY(lab.start());
    lab.loadScenario(*loaded.scenario);
    RetryPolicy policy = throttled(enabled, Millis(5000));
    policy.limits.maxAttempts = 1; // a 429 is final: it shows whether the throttle kept it away
    RunCollector collected(&engine);
    RequestSpec spec;
    spec.url = QUrl(u"http://127.0.0.1:%1/t"_s.arg(lab.port()));
    for (int i = 0; i < 3; ++i)
        engine.submit(spec, policy);
    QTRY_COMPARE_WITH_TIMEOUT(collected.size(), 3, 20000);
    const QList<RunRecord> done = collected.byRunId();
    QCOMPARE(lab.ledger().requestsReceived(), 3);
    const AttemptRecord& second = done.at(1).attempts.first();
    QVERIFY(second.rateLimit.mostRestrictive());
    QCOMPARE(second.rateLimit.mostRestrictive()->dialect, u"ietf-draft-11"_s);
    QCOMPARE(second.rateLimit.mostRestrictive()->policy, u"burst"_s);
    QCOMPARE(second.rateLimit.mostRestrictive()->remaining.value_or(-1), 0);
    const AttemptRecord& third = done.at(2).attempts.first();
    if (!enabled) {
        QCOMPARE(third.status.value_or(0), 429);
        QCOMPARE(done.at(2).outcome, FinalKind::RateLimited);
        return;
    }
    QCOMPARE(third.status.value_or(0), 200);
    QVERIFY(third.throttleWait > Millis(0));
    // Recorded, not wall time: attempt 3 started no earlier than the reset run 2's answer reported.
    const double held = toMs(*third.at.started - *second.at.headersReceived);
    QVERIFY2(held >= second.rateLimit.mostRestrictive()->resetSeconds.value_or(1) * 1000.0 - 1.0, qPrintable(QString::number(held)));
    for (const RunRecord& r : std::as_const(done))
        QCOMPARE(r.outcome, FinalKind::Success);
}

QTEST_GUILESS_MAIN(TestHostThrottle)
#include "tst_hostthrottle.moc"
