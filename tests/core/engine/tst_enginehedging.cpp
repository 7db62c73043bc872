// SPDX-License-Identifier: GPL-3.0-or-later
// The engine running hedging (issue 28 §2) on a fake clock and scheduler with scripted attempts: the copies
// of one logical request overlap, each an attempt numbered in the order it went, with why it went; the
// first accepted answer wins and the copies still in flight end as lost (never decided on); a failure to
// the hedging sends the next copy at once; every copy failing gives the first copy's result; a breaker
// inside the hedging refuses a copy without sending it, and the hedging treats that as a failure (MEHR);
// no copy goes after the deadline; cancelling records every copy. Rules: resilience-fleets.md §1.2
// (MEHR's standard hedging handler), §1.3 (Polly's HedgingStrategyOptions: latency, parallel and
// fallback modes), §1.7 (gRPC's non-fatal statuses).
#include "engine/retryengine.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "runcollector.h"
#include "scriptedtransport.h"
#include "support/manualclock.h"
#include "support/manualscheduler.h"

#include <QTest>

using namespace std::chrono_literals;

namespace {

using Trigger = HedgeFacts::Trigger;

ResilienceStrategy hedgingStrategy(int maxHedges, Millis delay)
{
    ResilienceStrategy s;
    s.kind = ResilienceStrategy::Kind::Hedging;
    s.hedging.maxHedges = maxHedges;
    s.hedging.delay = delay;
    s.hedgeUnsafe = true;
    RuleCondition fiveHundreds;
    fiveHundreds.outcome = OutcomeKind::Status;
    fiveHundreds.statuses = { StatusRange { 500, 599 } };
    RuleCondition errors;
    errors.outcome = OutcomeKind::Error;
    s.failures = { fiveHundreds, errors };
    return s;
}

RetryPolicy hedgedPolicy(QList<ResilienceStrategy> pipeline)
{
    RetryPolicy p;
    p.name = QStringLiteral("hedging-test");
    p.limits.maxAttempts = 1;
    p.jitter.kind = JitterKind::None;
    RetryRule fiveHundreds;
    fiveHundreds.name = QStringLiteral("5xx");
    fiveHundreds.when.outcome = OutcomeKind::Status;
    fiveHundreds.when.statuses = { StatusRange { 500, 599 } };
    fiveHundreds.action = RuleAction::Retry;
    p.rules = { fiveHundreds };
    p.pipeline = std::move(pipeline);
    return p;
}

RequestSpec getSpec()
{
    RequestSpec s;
    s.url = QUrl(QStringLiteral("http://127.0.0.1:9/x"));
    return s;
}

const AttemptRecord* copyOf(const RunRecord& run, int index)
{
    for (const AttemptRecord& a : run.attempts)
        if (a.index == index)
            return &a;
    return nullptr;
}

} // namespace

class TestEngineHedging : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void slowFirstCopyLosesToTheHedge();
    void fastAnswerSendsNoHedge();
    void failureSendsTheNextCopyAtOnce();
    void everyCopyFailedGivesTheFirstCopysResult();
    void parallelSendsEveryCopyAtOnce();
    void fallbackHedgesOnlyAfterAFailure();
    void fatalAnswerEndsTheRequest();
    void breakerInsideRefusesACopy();
    void noCopyAfterTheDeadline();
    void cancellingRecordsEveryCopy();
    void presetsRunWithTheirLimits_data();
    void presetsRunWithTheirLimits();
    void refusesWhatItDoesNotRun_data();
    void refusesWhatItDoesNotRun();

private:
    RunRecord runOne(const RetryPolicy& policy)
    {
        RunCollector runs(m_engine.get());
        m_engine->submit(getSpec(), policy);
        while (m_scheduler->runNext()) { }
        if (runs.size() != 1)
            qFatal("expected one run, got %d", int(runs.size()));
        return runs.first();
    }

    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<ManualScheduler> m_scheduler;
    std::unique_ptr<RetryEngine> m_engine;
    std::unique_ptr<FixedRandomSource> m_random;
    Script m_script;
};

void TestEngineHedging::init()
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

void TestEngineHedging::cleanup()
{
    m_engine.reset();
}

// Polly's latency mode (1 hedge, 2 s): the first copy would answer at 3 s; the hedge goes at 2 s and answers
// 100 ms later; it wins, and the first copy, still in flight, is lost — recorded, never decided on.
void TestEngineHedging::slowFirstCopyLosesToTheHedge()
{
    m_script.answers = { { 200, {}, {}, 3000ms }, { 200, {}, {}, 100ms } };
    const RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(1, 2000ms) }));
    QCOMPARE(m_script.started, 2);
    QCOMPARE(run.outcome, FinalKind::Success);
    QCOMPARE(*run.finishedAt, MonoTime(2100ms));
    QCOMPARE(run.attempts.size(), 2);
    const AttemptRecord* first = copyOf(run, 1);
    const AttemptRecord* hedge = copyOf(run, 2);
    QVERIFY(first && hedge);
    QCOMPARE(hedge->hedge, (HedgeFacts { Trigger::Delay, true }));
    QCOMPARE(*hedge->at.scheduled, MonoTime(2000ms));
    QCOMPARE(*hedge->at.started, MonoTime(2000ms));
    QCOMPARE(hedge->decision->verdict, Verdict::Success);
    QVERIFY2(hedge->decision->reason.contains(QStringLiteral("copy 2 answered first (copy 1 cancelled)")),
        qPrintable(hedge->decision->reason));
    QCOMPARE(first->hedge, (HedgeFacts { Trigger::First, false }));
    QCOMPARE(first->abortReason, AbortReason::HedgeLost);
    QCOMPARE(*first->at.finished, MonoTime(2100ms));
    QVERIFY(!first->decision);
    QVERIFY(!first->status);
    QVERIFY(!first->error); // the engine's cancellation, not a network error
    // Both copies carry the logical request's idempotency key (or both none): one operation.
    QCOMPARE(first->idempotencyKey, hedge->idempotencyKey);
    QVERIFY(first->attemptId != hedge->attemptId);
}

void TestEngineHedging::fastAnswerSendsNoHedge()
{
    m_script.answers = { { 200, {}, {}, 150ms } };
    const RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(1, 2000ms) }));
    QCOMPARE(m_script.started, 1);
    QCOMPARE(run.attempts.size(), 1);
    QCOMPARE(run.attempts.first().hedge, (HedgeFacts { Trigger::First, true }));
    QCOMPARE(run.outcome, FinalKind::Success);
    QCOMPARE(*run.finishedAt, MonoTime(150ms));
    QCOMPARE(m_clock->now(), MonoTime(150ms)); // the hedge's timer went with the answer
}

// A failure to the hedging (503) sends the next copy at once, not at the delay (Polly; gRPC's non-fatal).
void TestEngineHedging::failureSendsTheNextCopyAtOnce()
{
    m_script.answers = { { 503, {}, {}, 50ms }, { 200, {}, {}, 10ms } };
    const RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(1, 2000ms) }));
    QCOMPARE(m_script.started, 2);
    const AttemptRecord* first = copyOf(run, 1);
    const AttemptRecord* next = copyOf(run, 2);
    QVERIFY(first && next);
    QCOMPARE(first->status, 503);
    QCOMPARE(first->hedge, (HedgeFacts { Trigger::First, false }));
    QVERIFY2(first->decision->reason.contains(QStringLiteral("copy 2 goes at once")), qPrintable(first->decision->reason));
    QCOMPARE(next->hedge, (HedgeFacts { Trigger::Failure, true }));
    QCOMPARE(*next->at.started, MonoTime(50ms));
    QCOMPARE(run.outcome, FinalKind::Success);
    QCOMPARE(*run.finishedAt, MonoTime(60ms));
}

void TestEngineHedging::everyCopyFailedGivesTheFirstCopysResult()
{
    m_script.answers = { { 503, {}, {}, 10ms }, { 502, {}, {}, 10ms }, { 500, {}, {}, 10ms } };
    const RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(2, 2000ms) }));
    QCOMPARE(m_script.started, 3);
    QCOMPARE(run.attempts.size(), 3);
    QCOMPARE(run.outcome, FinalKind::ServerError);
    QVERIFY2(run.reason.contains(QStringLiteral("all 3 copies of the hedged request failed; the result is copy 1's: 503")), qPrintable(run.reason));
    for (const AttemptRecord& a : run.attempts)
        QVERIFY(!a.hedge->won);
    QCOMPARE(copyOf(run, 3)->hedge->trigger, Trigger::Failure);
}

// Delay 0: every copy at once; the fastest wins, the two others are lost.
void TestEngineHedging::parallelSendsEveryCopyAtOnce()
{
    m_script.answers = { { 200, {}, {}, 300ms }, { 200, {}, {}, 80ms }, { 200, {}, {}, 500ms } };
    const RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(2, 0ms) }));
    QCOMPARE(m_script.started, 3);
    for (int i = 1; i <= 3; ++i)
        QCOMPARE(*copyOf(run, i)->at.started, MonoTime(0ms));
    QCOMPARE(copyOf(run, 2)->hedge, (HedgeFacts { Trigger::Parallel, true }));
    QCOMPARE(copyOf(run, 3)->hedge->trigger, Trigger::Parallel);
    QCOMPARE(copyOf(run, 1)->abortReason, AbortReason::HedgeLost);
    QCOMPARE(copyOf(run, 3)->abortReason, AbortReason::HedgeLost);
    QCOMPARE(*run.finishedAt, MonoTime(80ms));
}

// Polly's fallback mode (delay −1): a slow copy is waited for; only a failure sends the next one.
void TestEngineHedging::fallbackHedgesOnlyAfterAFailure()
{
    m_script.answers = { { 200, {}, {}, 5000ms } };
    RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(1, HedgingOptions::kFallback) }));
    QCOMPARE(m_script.started, 1);
    QCOMPARE(*run.finishedAt, MonoTime(5000ms));

    m_script = Script {};
    m_script.answers = { { 503, {}, {}, 5000ms }, { 200, {}, {}, 10ms } };
    run = runOne(hedgedPolicy({ hedgingStrategy(1, HedgingOptions::kFallback) }));
    QCOMPARE(m_script.started, 2);
    QCOMPARE(copyOf(run, 2)->hedge, (HedgeFacts { Trigger::Failure, true }));
}

// An answer that is no failure to the hedging (a 404: gRPC's fatal statuses) ends the request, and the
// copies in flight are cancelled.
void TestEngineHedging::fatalAnswerEndsTheRequest()
{
    m_script.answers = { { 200, {}, {}, 3000ms }, { 404, {}, {}, 100ms } };
    const RunRecord run = runOne(hedgedPolicy({ hedgingStrategy(3, 1000ms) }));
    QCOMPARE(m_script.started, 2);
    QCOMPARE(run.outcome, FinalKind::ClientError);
    QCOMPARE(copyOf(run, 2)->hedge->won, true);
    QCOMPARE(copyOf(run, 1)->abortReason, AbortReason::HedgeLost);
    QCOMPARE(*run.finishedAt, MonoTime(1100ms));
}

// MEHR's standard hedging handler: the breaker is inside the hedging, one per endpoint. Here it opens at
// the first failure: the hedge is refused (never sent) and, a failure to the hedging, ends it with every
// copy failed. The next request's first copy is refused too: nothing reaches the transport.
void TestEngineHedging::breakerInsideRefusesACopy()
{
    ResilienceStrategy breaker;
    breaker.kind = ResilienceStrategy::Kind::CircuitBreaker;
    breaker.breaker.window = CircuitBreakerOptions::Window::Consecutive;
    breaker.breaker.consecutiveFailures = 1;
    breaker.breaker.breakDuration = 5000ms;
    RuleCondition fiveHundreds;
    fiveHundreds.outcome = OutcomeKind::Status;
    fiveHundreds.statuses = { StatusRange { 500, 599 } };
    breaker.failures = { fiveHundreds };
    const RetryPolicy policy = hedgedPolicy({ hedgingStrategy(1, 2000ms), breaker });
    QCOMPARE(engineRefusal(policy), QString());
    m_script.answers = { { 503, {}, {}, 10ms } };
    RunRecord run = runOne(policy);
    QCOMPARE(m_script.started, 1);
    QCOMPARE(run.attempts.size(), 2);
    const AttemptRecord* refused = copyOf(run, 2);
    QVERIFY(refused->refused);
    QCOMPARE(refused->refused->by, StrategyRefusal::By::CircuitBreaker);
    QVERIFY(!refused->at.started);
    QCOMPARE(refused->hedge->trigger, Trigger::Failure);
    QCOMPARE(refused->decision->finalKind, FinalKind::CircuitOpen);
    QCOMPARE(run.outcome, FinalKind::ServerError); // the first copy's 503

    run = runOne(policy);
    QCOMPARE(m_script.started, 1);
    QCOMPARE(run.attempts.size(), 2); // both copies refused
    QCOMPARE(run.outcome, FinalKind::CircuitOpen);
}

// A total timeout outside the hedging is the request's deadline: the hedge due at 2 s after a 1.5 s
// deadline never goes.
void TestEngineHedging::noCopyAfterTheDeadline()
{
    ResilienceStrategy total;
    total.kind = ResilienceStrategy::Kind::TotalTimeout;
    total.timeout = 1500ms;
    m_script.answers = { { 200, {}, {}, 3000ms } };
    const RunRecord run = runOne(hedgedPolicy({ total, hedgingStrategy(1, 2000ms) }));
    QCOMPARE(run.policy.limits.deadline, std::optional<Millis>(1500ms));
    QCOMPARE(m_script.started, 1);
}

void TestEngineHedging::cancellingRecordsEveryCopy()
{
    m_script.answers = { { 200, {}, {}, 3000ms }, { 200, {}, {}, 3000ms } };
    RunCollector runs(m_engine.get());
    const int id = m_engine->submit(getSpec(), hedgedPolicy({ hedgingStrategy(1, 1000ms) }));
    m_scheduler->advanceBy(1500ms);
    QCOMPARE(m_script.started, 2);
    m_engine->cancel(id);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs.first().outcome, FinalKind::Cancelled);
    QCOMPARE(runs.first().attempts.size(), 2);
    for (const AttemptRecord& a : runs.first().attempts)
        QCOMPARE(a.abortReason, AbortReason::Cancelled);
    QVERIFY(m_engine->isIdle());
}

// The hedging presets run as their sources compose them: MEHR's 30 s total timeout outside the hedging is
// the deadline and its 10 s attempt timeout inside bounds each copy; Envoy's route timeout likewise.
void TestEngineHedging::presetsRunWithTheirLimits_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("deadlineMs"); // -1: none
    QTest::addColumn<int>("attemptTimeoutMs"); // -1: none
    QTest::addColumn<int>("copies");
    QTest::newRow("ms-http-hedging") << "ms-http-hedging" << 30000 << 10000 << 2;
    QTest::newRow("grpc-hedging") << "grpc-hedging" << -1 << -1 << 4;
    QTest::newRow("envoy-hedge") << "envoy-hedge" << 15000 << -1 << 2;
}

void TestEngineHedging::presetsRunWithTheirLimits()
{
    QFETCH(QString, preset);
    QFETCH(int, deadlineMs);
    QFETCH(int, attemptTimeoutMs);
    QFETCH(int, copies);
    const PolicyParseResult loaded = PresetCatalog::load(preset);
    QVERIFY(loaded.ok());
    QCOMPARE(engineRefusal(*loaded.policy), QString());
    m_script.answers = { { 503, {}, {}, 10ms } };
    const RunRecord run = runOne(*loaded.policy);
    QCOMPARE(run.policy.limits.deadline, deadlineMs < 0 ? std::optional<Millis>() : std::optional<Millis>(Millis(deadlineMs)));
    QCOMPARE(run.policy.limits.attemptTimeout,
        attemptTimeoutMs < 0 ? std::optional<Millis>() : std::optional<Millis>(Millis(attemptTimeoutMs)));
    QCOMPARE(m_script.started, copies); // a 503 is a failure to each: every copy goes, one after another
    QCOMPARE(run.attempts.size(), copies);
    QCOMPARE(run.outcome, FinalKind::ServerError);
}

void TestEngineHedging::refusesWhatItDoesNotRun_data()
{
    QTest::addColumn<QList<ResilienceStrategy>>("pipeline");
    QTest::addColumn<bool>("connectionLimit");
    QTest::addColumn<QString>("refusal"); // a part of the sentence
    ResilienceStrategy retry;
    retry.kind = ResilienceStrategy::Kind::Retry;
    ResilienceStrategy queued;
    queued.kind = ResilienceStrategy::Kind::RateLimiter;
    queued.permits = 2;
    queued.queue = 4;
    ResilienceStrategy waiting;
    waiting.kind = ResilienceStrategy::Kind::CircuitBreaker;
    waiting.breaker.halfOpenCallers = CircuitBreakerOptions::HalfOpenCallers::Wait;
    const ResilienceStrategy hedge = hedgingStrategy(1, 1000ms);
    QTest::newRow("retry around hedging") << QList { retry, hedge } << false << "hedging with a retry strategy";
    QTest::newRow("limiter with a queue inside") << QList { hedge, queued } << false << "rate_limiter with a queue inside the hedging";
    QTest::newRow("waiting half-open inside") << QList { hedge, waiting } << false << "half-open callers wait";
    QTest::newRow("connections per host") << QList { hedge } << true << "limit of connections per host";
    QTest::newRow("limiter with a queue outside runs") << QList { queued, hedge } << false << "";
}

void TestEngineHedging::refusesWhatItDoesNotRun()
{
    QFETCH(QList<ResilienceStrategy>, pipeline);
    QFETCH(bool, connectionLimit);
    QFETCH(QString, refusal);
    RetryPolicy policy = hedgedPolicy(pipeline);
    if (connectionLimit)
        policy.limits.connectionsPerHost = 2;
    const QString said = engineRefusal(policy);
    if (refusal.isEmpty())
        QCOMPARE(said, QString());
    else
        QVERIFY2(said.contains(refusal), qPrintable(said));
}

QTEST_GUILESS_MAIN(TestEngineHedging)
#include "tst_enginehedging.moc"
