// SPDX-License-Identifier: GPL-3.0-or-later
// The engine running a policy's pipeline (issue 28 §2) on a fake clock and scheduler with scripted
// attempts: a call the circuit breaker refuses is an attempt that never reached the transport (outcome
// circuit-open, with the state and the time left), inside the retry it is the retry's to decide on, outside
// it ends the run; the breaker's changes of state are reported with their evidence; cockatiel's callers
// wait for the half-open verdict (a phase of their own); opossum's breaker turns half-open on its own
// timer; a limiter's permits and queue; the pipeline's timeouts. Rules: resilience-fleets.md §1.1–1.6.
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

using State = CircuitBreaker::State;

RetryRule rule(OutcomeKind outcome, RuleAction action, QList<StatusRange> statuses = {})
{
    RetryRule r;
    r.name = QStringLiteral("r%1").arg(int(outcome));
    r.when.outcome = outcome;
    r.when.statuses = std::move(statuses);
    r.action = action;
    return r;
}

ResilienceStrategy strategy(ResilienceStrategy::Kind kind)
{
    ResilienceStrategy s;
    s.kind = kind;
    return s;
}

// Three 5xx in a row open it for one second (cockatiel's consecutive window).
ResilienceStrategy consecutiveBreaker(int failures = 3, Millis breakFor = 1000ms)
{
    ResilienceStrategy s = strategy(ResilienceStrategy::Kind::CircuitBreaker);
    s.breaker.window = CircuitBreakerOptions::Window::Consecutive;
    s.breaker.consecutiveFailures = failures;
    s.breaker.breakDuration = breakFor;
    RuleCondition fiveHundreds;
    fiveHundreds.outcome = OutcomeKind::Status;
    fiveHundreds.statuses = { StatusRange { 500, 599 } };
    RuleCondition errors;
    errors.outcome = OutcomeKind::Error;
    s.failures = { fiveHundreds, errors };
    return s;
}

// A retry (constant 100 ms, MAX attempts) on 5xx; RETRY_OPEN: also on a call the breaker refused.
RetryPolicy policyWith(QList<ResilienceStrategy> pipeline, int maxAttempts = 1, bool retryOpen = false)
{
    RetryPolicy p;
    p.name = QStringLiteral("pipeline-test");
    p.limits.maxAttempts = maxAttempts;
    p.backoff.kind = BackoffKind::Constant;
    p.backoff.base = Millis(100);
    p.jitter.kind = JitterKind::None;
    p.rules = { rule(OutcomeKind::Status, RuleAction::Retry, { StatusRange { 500, 599 } }) };
    if (retryOpen)
        p.rules.append(rule(OutcomeKind::CircuitOpen, RuleAction::Retry));
    p.pipeline = std::move(pipeline);
    return p;
}

RequestSpec getSpec()
{
    RequestSpec s;
    s.url = QUrl(QStringLiteral("http://127.0.0.1:9/x"));
    return s;
}

} // namespace

class TestEnginePipeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void refusalsAreUnsentAttempts();
    void retryDecidesOnARefusal();
    void breakerOutsideTheRetryCountsTheRun();
    void halfOpenCallersWaitForTheVerdict();
    void timerTurnsHalfOpenWithoutACall();
    void limiterQueuesThenRefuses();
    void pipelineTimeoutsBecomeLimits_data();
    void pipelineTimeoutsBecomeLimits();
    void refusesWhatItDoesNotRun_data();
    void refusesWhatItDoesNotRun();

private:
    void runAll()
    {
        while (m_scheduler->runNext()) { }
    }
    // Submits one run at the current time and runs the clock until it (and everything due) ends.
    void submitAndRun(const RetryPolicy& policy)
    {
        m_engine->submit(getSpec(), policy);
        runAll();
    }
    QList<BreakerChange> changes() const
    {
        QList<BreakerChange> out;
        for (const QList<QVariant>& args : *m_changes)
            out << args.at(0).value<BreakerChange>();
        return out;
    }

    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<ManualScheduler> m_scheduler;
    std::unique_ptr<RetryEngine> m_engine;
    std::unique_ptr<FixedRandomSource> m_random;
    std::unique_ptr<QSignalSpy> m_changes;
    Script m_script;
};

void TestEnginePipeline::init()
{
    m_clock = std::make_unique<ManualClock>();
    m_scheduler = std::make_unique<ManualScheduler>(*m_clock);
    m_engine = std::make_unique<RetryEngine>(*m_clock, *m_scheduler);
    m_random = std::make_unique<FixedRandomSource>(QList<double> { 0.5 });
    m_engine->setRandomSource(m_random.get());
    m_engine->setConcurrencyLimit(16);
    m_script = Script {};
    m_engine->setTransportFactory(
        [this](QNetworkAccessManager&, QObject* parent) -> Transport* { return new ScriptedTransport(m_script, *m_scheduler, parent); });
    m_changes = std::make_unique<QSignalSpy>(m_engine.get(), &RetryEngine::breakerChanged);
}

void TestEnginePipeline::cleanup()
{
    m_changes.reset();
    m_engine.reset();
}

// cockatiel 3.2.1 without a retry: five calls against a server answering 503; the breaker opens at the
// third failure in a row; the fourth and fifth never reach the transport.
void TestEnginePipeline::refusalsAreUnsentAttempts()
{
    m_script.answers = { { 503, {}, {}, 10ms } };
    RunCollector runs(m_engine.get());
    const RetryPolicy policy = policyWith({ consecutiveBreaker() });
    for (int i = 0; i < 5; ++i)
        submitAndRun(policy);
    QCOMPARE(runs.size(), 5);
    QCOMPARE(m_script.started, 3); // what reached the transport: the lab's count
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(runs.at(i).outcome, FinalKind::ServerError);
        QVERIFY(!runs.at(i).attempts.first().refused);
    }
    for (int i = 3; i < 5; ++i) {
        const RunRecord& run = runs.at(i);
        QCOMPARE(run.outcome, FinalKind::CircuitOpen);
        QCOMPARE(run.attempts.size(), 1);
        const AttemptRecord& a = run.attempts.first();
        QVERIFY(a.refused);
        QCOMPARE(a.refused->by, StrategyRefusal::By::CircuitBreaker);
        QCOMPARE(a.refused->state, State::Open);
        QCOMPARE(a.refused->scope, QStringLiteral("client"));
        QVERIFY(a.refused->retryIn > 0ms && a.refused->retryIn <= 1000ms);
        QVERIFY(!a.at.started); // never on the wire
        QVERIFY(!a.status);
        QVERIFY(!a.error); // not a network error
        QVERIFY(a.at.finished);
        QCOMPARE(a.decision->finalKind, FinalKind::CircuitOpen);
    }
    const QList<BreakerChange> c = changes();
    QCOMPARE(c.size(), 1);
    QCOMPARE(c.first().from, State::Closed);
    QCOMPARE(c.first().to, State::Open);
    QCOMPARE(c.first().breakFor, 1000ms);
    QCOMPARE(c.first().policy, QStringLiteral("pipeline-test"));
    QCOMPARE(c.first().at, MonoTime(30ms)); // the third answer, 10 ms each, back to back
}

// Breaker inside the retry, the retry retrying `circuit-open` (cockatiel's retry(handleAll) around its
// breaker): the refused attempts are waited on like any other; after the break the probe goes, succeeds,
// and the circuit closes. Without that rule the refusal ends the run (MEHR: not transient for the retry).
void TestEnginePipeline::retryDecidesOnARefusal()
{
    m_script.answers = { { 503, {}, {}, 10ms }, { 503, {}, {}, 10ms }, { 200, {}, {}, 10ms } };
    ResilienceStrategy breaker = consecutiveBreaker(2, 250ms);
    RunCollector runs(m_engine.get());
    submitAndRun(policyWith({ strategy(ResilienceStrategy::Kind::Retry), breaker }, 10, true));
    QCOMPARE(runs.size(), 1);
    const RunRecord& run = runs.first();
    QCOMPARE(run.outcome, FinalKind::Success);
    QCOMPARE(m_script.started, 3);
    // 503 (0–10), wait 100, 503 (110–120: opens, 250 ms break until 370), refused at 220 and 320, then the
    // probe at 420 succeeds.
    QCOMPARE(run.attempts.size(), 5);
    QVERIFY(run.attempts.at(2).refused);
    QVERIFY(run.attempts.at(3).refused);
    QCOMPARE(run.attempts.at(2).decision->verdict, Verdict::Retry);
    QCOMPARE(run.attempts.at(2).refused->retryIn, 150ms);
    QCOMPARE(*run.attempts.at(4).at.started, MonoTime(420ms));
    const QList<BreakerChange> c = changes();
    QCOMPARE(c.size(), 3);
    QCOMPARE(c.at(0).to, State::Open);
    QCOMPARE(c.at(0).at, MonoTime(120ms));
    QCOMPARE(c.at(1).to, State::HalfOpen);
    QCOMPARE(c.at(1).at, MonoTime(420ms)); // lazily, at the call after the break
    QCOMPARE(c.at(2).to, State::Closed);

    // The same without the rule: the first refusal ends the run.
    m_script = Script { { { 503, {}, {}, 10ms } } };
    RunCollector again(m_engine.get());
    ResilienceStrategy other = breaker;
    other.breaker.scope = CircuitBreakerOptions::Scope::Host; // a breaker of its own for this host
    submitAndRun(policyWith({ strategy(ResilienceStrategy::Kind::Retry), other }, 10, false));
    QCOMPARE(again.first().outcome, FinalKind::CircuitOpen);
    QCOMPARE(again.first().attempts.size(), 3);
    QCOMPARE(again.first().attempts.last().refused->scope, QStringLiteral("127.0.0.1:9"));
    QCOMPARE(again.first().attempts.last().decision->verdict, Verdict::Stop);
}

// Breaker outside the retry: a run of three failed attempts is one failed call.
void TestEnginePipeline::breakerOutsideTheRetryCountsTheRun()
{
    m_script.answers = { { 503, {}, {}, 10ms } };
    RunCollector runs(m_engine.get());
    const RetryPolicy policy = policyWith({ consecutiveBreaker(2), strategy(ResilienceStrategy::Kind::Retry) }, 3);
    submitAndRun(policy);
    QCOMPARE(m_script.started, 3);
    QVERIFY(changes().isEmpty()); // one failure counted, not three
    submitAndRun(policy);
    QCOMPARE(m_script.started, 6);
    QCOMPARE(changes().size(), 1);
    QCOMPARE(changes().first().window, (CircuitBreaker::Counts { 2, 2 }));
    submitAndRun(policy);
    QCOMPARE(m_script.started, 6);
    QCOMPARE(runs.last().outcome, FinalKind::CircuitOpen);
    QCOMPARE(runs.last().attempts.size(), 1);
    QVERIFY(runs.last().attempts.first().refused);
}

// cockatiel: while the probe is out, other callers wait for its verdict (a phase of their own), then go.
void TestEnginePipeline::halfOpenCallersWaitForTheVerdict()
{
    ResilienceStrategy breaker = consecutiveBreaker(1, 100ms);
    breaker.breaker.halfOpenCallers = CircuitBreakerOptions::HalfOpenCallers::Wait;
    const RetryPolicy policy = policyWith({ breaker });
    RunCollector runs(m_engine.get());
    m_script.answers = { { 503, {}, {}, 10ms }, { 200, {}, {}, 50ms } };
    submitAndRun(policy); // opens at 10 ms until 110 ms
    m_scheduler->advanceBy(200ms); // at 210: the probe (50 ms) and, 5 ms later, a caller that must wait
    m_engine->submit(getSpec(), policy);
    m_scheduler->advanceBy(5ms);
    m_engine->submit(getSpec(), policy);
    runAll();
    QCOMPARE(runs.size(), 3);
    QCOMPARE(m_script.started, 3);
    const RunRecord& waiter = runs.last();
    QCOMPARE(waiter.outcome, FinalKind::Success);
    const AttemptRecord& a = waiter.attempts.first();
    QVERIFY(!a.refused);
    QCOMPARE(*a.at.verdictWait, MonoTime(215ms));
    QCOMPARE(*a.at.started, MonoTime(260ms)); // when the probe's 200 closed the circuit
    const QList<BreakerChange> c = changes();
    QCOMPARE(c.size(), 3);
    QCOMPARE(c.at(2).to, State::Closed);
    QCOMPARE(c.at(2).at, MonoTime(260ms));
}

// opossum: the breaker turns half-open when the break ends, whether or not a call comes.
void TestEnginePipeline::timerTurnsHalfOpenWithoutACall()
{
    ResilienceStrategy breaker = consecutiveBreaker(1, 300ms);
    breaker.breaker.transition = CircuitBreakerOptions::Transition::Timer;
    m_script.answers = { { 503, {}, {}, 10ms } };
    submitAndRun(policyWith({ breaker }));
    const QList<BreakerChange> c = changes();
    QCOMPARE(c.size(), 2);
    QCOMPARE(c.at(0).to, State::Open);
    QCOMPARE(c.at(1).to, State::HalfOpen);
    QCOMPARE(c.at(1).at, MonoTime(310ms));
    QCOMPARE(m_clock->now(), MonoTime(310ms)); // the timer ran the clock there, nothing else did
}

// A limiter of one permit and a queue of one: the second run waits for the permit, the third is refused.
void TestEnginePipeline::limiterQueuesThenRefuses()
{
    ResilienceStrategy limiter = strategy(ResilienceStrategy::Kind::RateLimiter);
    limiter.permits = 1;
    limiter.queue = 1;
    const RetryPolicy policy = policyWith({ limiter, strategy(ResilienceStrategy::Kind::Retry) });
    m_script.answers = { { 200, {}, {}, 100ms } };
    RunCollector runs(m_engine.get());
    for (int i = 0; i < 3; ++i)
        m_engine->submit(getSpec(), policy);
    runAll();
    QCOMPARE(runs.size(), 3);
    QCOMPARE(m_script.started, 2);
    QCOMPARE(runs.at(0).outcome, FinalKind::LimiterFull); // refused at once
    QCOMPARE(runs.at(0).runId, 3);
    QCOMPARE(runs.at(0).attempts.first().refused->by, StrategyRefusal::By::RateLimiter);
    QCOMPARE(runs.at(1).outcome, FinalKind::Success);
    QCOMPARE(runs.at(2).outcome, FinalKind::Success);
    const AttemptRecord& queued = runs.at(2).attempts.first();
    QCOMPARE(*queued.at.queued, MonoTime(0ms));
    QCOMPARE(*queued.at.started, MonoTime(100ms)); // when the first run gave its permit back
}

void TestEnginePipeline::pipelineTimeoutsBecomeLimits_data()
{
    QTest::addColumn<QList<ResilienceStrategy>>("pipeline");
    QTest::addColumn<std::optional<Millis>>("deadline");
    QTest::addColumn<std::optional<Millis>>("attemptTimeout");
    ResilienceStrategy total = strategy(ResilienceStrategy::Kind::TotalTimeout);
    total.timeout = 30000ms;
    ResilienceStrategy attempt = strategy(ResilienceStrategy::Kind::AttemptTimeout);
    attempt.timeout = 10000ms;
    const ResilienceStrategy retry = strategy(ResilienceStrategy::Kind::Retry);
    QTest::newRow("MEHR: total outside, attempt inside")
        << QList { total, retry, attempt } << std::optional<Millis>(30000ms) << std::optional<Millis>(10000ms);
    QTest::newRow("no retry: the timeout bounds the one attempt")
        << QList { attempt } << std::optional<Millis>() << std::optional<Millis>(10000ms);
    QTest::newRow("attempt timeout outside the retry bounds the call")
        << QList { attempt, retry } << std::optional<Millis>(10000ms) << std::optional<Millis>();
}

void TestEnginePipeline::pipelineTimeoutsBecomeLimits()
{
    QFETCH(QList<ResilienceStrategy>, pipeline);
    QFETCH(std::optional<Millis>, deadline);
    QFETCH(std::optional<Millis>, attemptTimeout);
    QSignalSpy started(m_engine.get(), &RetryEngine::runStarted);
    m_script.answers = { { 200, {}, {}, 10ms } };
    submitAndRun(policyWith(pipeline, 3));
    QCOMPARE(started.size(), 1);
    const RunSummary run = started.first().first().value<RunSummary>();
    QCOMPARE(run.policy.limits.deadline, deadline);
    QCOMPARE(run.policy.limits.attemptTimeout, attemptTimeout);
}

void TestEnginePipeline::refusesWhatItDoesNotRun_data()
{
    QTest::addColumn<QList<ResilienceStrategy>>("pipeline");
    QTest::addColumn<QString>("refusal"); // a part of the message; empty: runs
    const ResilienceStrategy retry = strategy(ResilienceStrategy::Kind::Retry);
    QTest::newRow("breaker") << QList { retry, consecutiveBreaker() } << QString();
    QTest::newRow("limiter outside") << QList { strategy(ResilienceStrategy::Kind::Bulkhead), retry } << QString();
    QTest::newRow("hedging without a retry") << QList { strategy(ResilienceStrategy::Kind::Hedging) } << QString();
    QTest::newRow("hedging inside a retry") << QList { retry, strategy(ResilienceStrategy::Kind::Hedging) }
                                            << QStringLiteral("hedging with a retry strategy");
    QTest::newRow("limiter inside") << QList { retry, strategy(ResilienceStrategy::Kind::RateLimiter) }
                                    << QStringLiteral("rate_limiter inside the retry");
}

void TestEnginePipeline::refusesWhatItDoesNotRun()
{
    QFETCH(QList<ResilienceStrategy>, pipeline);
    QFETCH(QString, refusal);
    const QString said = engineRefusal(policyWith(pipeline));
    if (refusal.isEmpty())
        QVERIFY2(said.isEmpty(), qPrintable(said));
    else
        QVERIFY2(said.contains(refusal), qPrintable(said));
}

QTEST_GUILESS_MAIN(TestEnginePipeline)
#include "tst_enginepipeline.moc"
