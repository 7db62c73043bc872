// SPDX-License-Identifier: GPL-3.0-or-later
// The whole engine on a fake clock and scheduler with scripted attempts: decide-then-schedule, waits,
// deadline, concurrency, cancel at every phase with no late signals.
#include "engine/retryengine.h"
#include "policy/randomsource.h"
#include "runcollector.h"
#include "scriptedtransport.h"
#include "support/manualclock.h"
#include "support/manualscheduler.h"

#include <QSignalSpy>
#include <QTest>

using namespace std::chrono_literals;

namespace {

RetryPolicy retry5xx(int maxAttempts = 3)
{
    RetryPolicy p;
    p.name = QStringLiteral("test");
    p.limits.maxAttempts = maxAttempts;
    p.backoff.kind = BackoffKind::Exponential;
    p.backoff.base = Millis(1000);
    p.backoff.multiplier = 2.0;
    p.jitter.kind = JitterKind::None;
    RetryRule rule;
    rule.name = QStringLiteral("transient-5xx");
    rule.when.outcome = OutcomeKind::Status;
    rule.when.statuses = { StatusRange { 500, 599 } };
    rule.action = RuleAction::Retry;
    RetryRule errors;
    errors.name = QStringLiteral("network");
    errors.when.outcome = OutcomeKind::Error;
    errors.action = RuleAction::Retry;
    p.rules = { rule, errors };
    return p;
}

RequestSpec getSpec()
{
    RequestSpec s;
    s.url = QUrl(QStringLiteral("http://127.0.0.1:9/x"));
    return s;
}

} // namespace

class TestRetryEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void retriesThenSucceeds();
    void stopsWhenWaitWouldCrossDeadline();
    void givesUpAfterMaxAttempts();
    void concurrencyLimitQueuesRuns();
    void cancel_data();
    void cancel();
    void cancelAllLeavesNothing();
    void throttlingCountsOnlyRetryableFailures_data();
    void throttlingCountsOnlyRetryableFailures();

private:
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<ManualScheduler> m_scheduler;
    std::unique_ptr<RetryEngine> m_engine;
    std::unique_ptr<FixedRandomSource> m_random;
    Script m_script;
};

void TestRetryEngine::init()
{
    m_clock = std::make_unique<ManualClock>();
    m_scheduler = std::make_unique<ManualScheduler>(*m_clock);
    m_engine = std::make_unique<RetryEngine>(*m_clock, *m_scheduler);
    m_random = std::make_unique<FixedRandomSource>(QList<double> { 0.5 });
    m_engine->setRandomSource(m_random.get());
    m_script = Script {};
    m_engine->setTransportFactory(
        [this](QNetworkAccessManager&, QObject* parent) -> Transport* { return new ScriptedTransport(m_script, *m_scheduler, parent); });
}

void TestRetryEngine::cleanup()
{
    m_engine.reset();
}

void TestRetryEngine::retriesThenSucceeds()
{
    m_script.answers = { { 503, {}, {}, 100ms }, { 502, {}, {}, 100ms }, { 200, {}, {}, 100ms } };
    QSignalSpy finished(m_engine.get(), &RetryEngine::attemptFinished);
    QSignalSpy waits(m_engine.get(), &RetryEngine::waitScheduled);
    RunCollector runs(m_engine.get());
    m_engine->submit(getSpec(), retry5xx());
    while (m_scheduler->runNext()) { }
    QCOMPARE(runs.size(), 1);
    const auto run = runs.at(0);
    QCOMPARE(run.outcome, FinalKind::Success);
    QCOMPARE(run.attempts.size(), 3);
    QCOMPARE(finished.size(), 3);
    QCOMPARE(waits.size(), 2);
    const auto w1 = waits.at(0).at(0).value<WaitInfo>();
    const auto w2 = waits.at(1).at(0).value<WaitInfo>();
    QCOMPARE(w1.dueAt - w1.scheduledAt, MonoTime(1000ms));
    QCOMPARE(w2.dueAt - w2.scheduledAt, MonoTime(2000ms));
    QCOMPARE(w1.decision.source, DelaySource::Backoff);
    // The next attempt is due at the wait's deadline and starts then (fake time: no lateness).
    QCOMPARE(*run.attempts.at(1).at.scheduled, w1.dueAt);
    QCOMPARE(*run.attempts.at(1).at.started, w1.dueAt);
    QCOMPARE(run.attempts.at(0).decision->verdict, Verdict::Retry);
    QCOMPARE(run.attempts.at(2).decision->verdict, Verdict::Success);
    QCOMPARE(run.totalWait, Millis(3000));
    QCOMPARE(m_clock->now(), MonoTime(3300ms));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(run.attempts.at(i).index, i + 1);
    QVERIFY(run.attempts.at(0).attemptId != run.attempts.at(1).attemptId);
}

void TestRetryEngine::stopsWhenWaitWouldCrossDeadline()
{
    m_script.answers = { { 503, {}, {}, 100ms } };
    RequestSpec spec = getSpec();
    spec.deadline = Millis(2000);
    RunCollector runs(m_engine.get());
    m_engine->submit(spec, retry5xx(5));
    while (m_scheduler->runNext()) { }
    QCOMPARE(runs.size(), 1);
    const auto run = runs.at(0);
    QCOMPARE(run.outcome, FinalKind::Deadline);
    QCOMPARE(run.attempts.size(), 2); // 100 ms, wait 1 s, 100 ms, then a 2 s wait would cross 2 s
}

void TestRetryEngine::givesUpAfterMaxAttempts()
{
    m_script.answers = { { 503, {}, {}, 10ms } };
    RunCollector runs(m_engine.get());
    m_engine->submit(getSpec(), retry5xx(3));
    while (m_scheduler->runNext()) { }
    const auto run = runs.at(0);
    QCOMPARE(run.attempts.size(), 3);
    QCOMPARE(run.outcome, FinalKind::ServerError);
    QCOMPARE(m_script.started, 3);
}

void TestRetryEngine::concurrencyLimitQueuesRuns()
{
    m_script.answers = { { 200, {}, {}, 100ms } };
    m_engine->setConcurrencyLimit(2);
    int maxRunning = 0;
    connect(m_engine.get(), &RetryEngine::attemptStarted, this,
        [&] { maxRunning = std::max(maxRunning, m_engine->runningCount()); });
    RunCollector runs(m_engine.get());
    QSignalSpy idle(m_engine.get(), &RetryEngine::idle);
    for (int i = 0; i < 5; ++i)
        m_engine->submit(getSpec(), retry5xx());
    QCOMPARE(m_engine->runningCount(), 2);
    QCOMPARE(m_engine->queuedCount(), 3);
    while (m_scheduler->runNext()) { }
    QCOMPARE(runs.size(), 5);
    QCOMPARE(maxRunning, 2);
    QCOMPARE(idle.size(), 1);
    QCOMPARE(m_clock->now(), MonoTime(300ms));
}

void TestRetryEngine::cancel_data()
{
    QTest::addColumn<QString>("phase");
    QTest::addRow("queued") << QStringLiteral("queued");
    QTest::addRow("attempting") << QStringLiteral("attempting");
    QTest::addRow("waiting") << QStringLiteral("waiting");
}

void TestRetryEngine::cancel()
{
    QFETCH(QString, phase);
    m_script.answers = { { 503, {}, {}, 100ms } };
    m_engine->setConcurrencyLimit(1);
    QSignalSpy all(m_engine.get(), &RetryEngine::attemptStarted);
    QSignalSpy finished(m_engine.get(), &RetryEngine::attemptFinished);
    RunCollector runs(m_engine.get());
    QSignalSpy waits(m_engine.get(), &RetryEngine::waitScheduled);
    const int first = m_engine->submit(getSpec(), retry5xx());
    const int second = m_engine->submit(getSpec(), retry5xx());
    int target = first;
    if (phase == QLatin1String("queued"))
        target = second;
    else if (phase == QLatin1String("waiting"))
        m_scheduler->advanceBy(150ms); // attempt 1 done, waiting 1 s
    m_engine->cancel(target);
    QCOMPARE(runs.size(), 1);
    const auto run = runs.at(0);
    QCOMPARE(run.runId, target);
    QCOMPARE(run.outcome, FinalKind::Cancelled);
    // Every started attempt of the cancelled run was reported finished, exactly once.
    int startedForTarget = 0;
    for (const auto& args : std::as_const(all))
        startedForTarget += args.at(0).value<AttemptRecord>().runId == target;
    QCOMPARE(run.attempts.size(), startedForTarget);
    // No late signal for the cancelled run, whatever happens next.
    const auto countFor = [target](const QSignalSpy& spy) {
        int n = 0;
        for (const auto& args : spy) {
            const QVariant v = args.at(0);
            if (v.canConvert<AttemptRecord>())
                n += v.value<AttemptRecord>().runId == target;
            else if (v.canConvert<WaitInfo>())
                n += v.value<WaitInfo>().runId == target;
        }
        return n;
    };
    const auto runsFor = [target](const RunCollector& collected) {
        return std::count_if(collected.runs().cbegin(), collected.runs().cend(), [target](const RunRecord& r) { return r.runId == target; });
    };
    const auto before = countFor(all) + countFor(finished) + countFor(waits) + runsFor(runs);
    while (m_scheduler->runNext()) { }
    QCOMPARE(countFor(all) + countFor(finished) + countFor(waits) + runsFor(runs), before);
    QVERIFY(m_engine->isIdle());
}

void TestRetryEngine::cancelAllLeavesNothing()
{
    m_script.answers = { { 503, {}, {}, 100ms } };
    m_engine->setConcurrencyLimit(2);
    RunCollector runs(m_engine.get());
    QSignalSpy started(m_engine.get(), &RetryEngine::runStarted);
    for (int i = 0; i < 4; ++i)
        m_engine->submit(getSpec(), retry5xx());
    m_scheduler->advanceBy(150ms);
    m_engine->cancelAll();
    QCOMPARE(runs.size(), 4);
    QCOMPARE(started.size(), 2); // the queued ones never started
    QVERIFY(m_engine->isIdle());
    QCOMPARE(m_scheduler->pending(), 0);
}

void TestRetryEngine::throttlingCountsOnlyRetryableFailures_data()
{
    // gRFC A6: "token_count is decremented by 1 every time an RPC fails with a status code in
    // retryableStatusCodes, or the server pushback indicates that the RPC should not be retried".
    QTest::addColumn<int>("status");
    QTest::addColumn<HttpHeaderList>("headers");
    QTest::addColumn<double>("tokensAfter");
    QTest::addRow("gRFC A6: a retryable 503 takes a token") << 503 << HttpHeaderList {} << 9.0;
    QTest::addRow("gRFC A6: a non-retryable 400 takes none") << 400 << HttpHeaderList {} << 10.0;
    QTest::addRow("gRFC A6: a non-retryable 500 takes none") << 500 << HttpHeaderList {} << 10.0;
    QTest::addRow("gRFC A6: a 400 whose pushback says don't retry takes a token")
        << 400 << HttpHeaderList { { "grpc-retry-pushback-ms", "-1" } } << 9.0;
    QTest::addRow("gRFC A6: a 503 whose pushback says don't retry takes one token")
        << 503 << HttpHeaderList { { "grpc-retry-pushback-ms", "-1" } } << 9.0;
    QTest::addRow("gRFC A6: a success takes none (and tokens stay at most max)") << 200 << HttpHeaderList {} << 10.0;
}

void TestRetryEngine::throttlingCountsOnlyRetryableFailures()
{
    QFETCH(int, status);
    QFETCH(HttpHeaderList, headers);
    QFETCH(double, tokensAfter);
    RetryPolicy p = retry5xx(1);
    p.rules.first().when.statuses = { StatusRange { 503, 503 } };
    p.throttling.enabled = true;
    p.throttling.maxTokens = 10;
    p.throttling.tokenRatio = 0.1;
    p.throttling.scope = BudgetScope::Client;
    DelayHint pushback;
    pushback.header = QStringLiteral("grpc-retry-pushback-ms");
    pushback.format = HintFormat::Milliseconds;
    pushback.negativeMeansStop = true;
    pushback.invalidMeansStop = true;
    p.hints = { pushback };
    m_script.answers = { { status, {}, headers, 10ms } };
    RunCollector runs(m_engine.get());
    m_engine->submit(getSpec(), p);
    while (m_scheduler->runNext()) { }
    const auto run = runs.at(0);
    QCOMPARE(run.attempts.size(), 1);
    QCOMPARE(run.attempts.at(0).budgetAfter.throttlingTokens.value_or(-1), tokensAfter);

    // Ten non-retryable failures in a row never throttle a later retryable one.
    if (status == 400 && headers.isEmpty()) {
        p.limits.maxAttempts = 2;
        for (int i = 0; i < 10; ++i)
            m_engine->submit(getSpec(), p);
        while (m_scheduler->runNext()) { }
        m_script.answers = { { 503, {}, {}, 10ms }, { 200, {}, {}, 10ms } };
        m_script.started = 0;
        m_engine->submit(getSpec(), p);
        while (m_scheduler->runNext()) { }
        const auto last = runs.last();
        QCOMPARE(last.outcome, FinalKind::Success);
        QCOMPARE(last.attempts.size(), 2);
    }
}

QTEST_GUILESS_MAIN(TestRetryEngine)
#include "tst_retryengine.moc"
