// SPDX-License-Identifier: GPL-3.0-or-later
// The herd simulator's mechanics (issue 29 §1): determinism for a seed, decide() without words deciding as
// with them, the server model's answers, duplicates, budgets and breakers across a herd, the event queue,
// the latency histogram, the recovery judgement, cancelling.
#include "policy/answerfacts.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "sim/herdeventqueue.h"
#include "sim/herdjudgement.h"
#include "sim/herdlatency.h"
#include "sim/herdsimulator.h"

#include <QTest>

#include <algorithm>
#include <random>

namespace {

RetryRule retryOn(QList<StatusRange> statuses, QList<ErrorClass> errors = {})
{
    RetryRule rule;
    rule.name = QStringLiteral("transient");
    rule.when.outcome = errors.isEmpty() ? OutcomeKind::Status : OutcomeKind::Error;
    rule.when.statuses = std::move(statuses);
    rule.when.errors = std::move(errors);
    return rule;
}

RetryPolicy retrying(int attempts, Millis base)
{
    RetryPolicy p;
    p.name = QStringLiteral("test");
    p.limits.maxAttempts = attempts;
    p.backoff.kind = BackoffKind::Exponential;
    p.backoff.base = base;
    p.jitter.kind = JitterKind::Full;
    p.rules = { retryOn({ StatusRange { 500, 599 } }), retryOn({}, { ErrorClass::ResponseTimeout, ErrorClass::ConnectionLost, ErrorClass::Refused }) };
    return p;
}

// One client process per request: an open loop of REQUESTS arrivals at RATE per second for DURATION.
HerdExperiment openLoop(int requests, double rate, Millis duration)
{
    HerdExperiment e;
    e.name = QStringLiteral("test");
    e.server.concurrency = 4;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Exponential, 10, 0 };
    e.clients.loop = HerdClientModel::Loop::Open;
    e.clients.clients = requests;
    e.clients.rate = rate;
    e.clients.processes = 10;
    e.duration = duration;
    e.resolution = Millis(1000);
    e.policies.append(HerdPolicy { QStringLiteral("p"), retrying(4, Millis(100)) });
    return e;
}

double sum(const HerdSeries& series, double HerdSample::*field)
{
    double total = 0;
    for (const HerdSample& s : series.samples)
        total += s.*field;
    return total * double(series.resolution.count()) / 1000.0;
}

} // namespace

class TestHerdSimulator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aSeedFixesTheRun();
    void explainFalseDecidesTheSame_data();
    void explainFalseDecidesTheSame();
    void attemptsAndServerCountAgree();
    void outageAnswers_data();
    void outageAnswers();
    void fullQueueAnswersOverload();
    void duplicatesNeedANonIdempotentRequestWithoutKey();
    void retryThrottlingBoundsAmplification();
    void breakerOpensAcrossTheHerd();
    void latencyHistogramIsWithinOnePercent();
    void eventQueuePopsInTimeOrder();
    void recoveryJudgement();
    void cancelEndsTheRun();
    void validateRefusesWhatItDoesNotRun();
};

void TestHerdSimulator::aSeedFixesTheRun()
{
    HerdExperiment e = openLoop(5000, 500, Millis(12000));
    e.server.outage = HerdWindow { Millis(3000), Millis(2000) };
    const HerdRun a = HerdSimulator::run(e, e.policies.first().policy, 7);
    const HerdRun b = HerdSimulator::run(e, e.policies.first().policy, 7);
    const HerdRun c = HerdSimulator::run(e, e.policies.first().policy, 8);
    QCOMPARE(a.totals.attempts, b.totals.attempts);
    QCOMPARE(a.totals.completionMs, b.totals.completionMs);
    QCOMPARE(a.series.samples.size(), b.series.samples.size());
    for (qsizetype i = 0; i < a.series.samples.size(); ++i)
        QCOMPARE(a.series.samples.at(i).attempts, b.series.samples.at(i).attempts);
    QVERIFY(a.totals.attempts != c.totals.attempts || a.totals.completionMs != c.totals.completionMs);
    QCOMPARE(a.series.samples.size(), 12);
}

// The simulator asks decide() for no reason; the verdict, delay and effects must be the very ones the engine
// gets with its reason. Every preset, a handful of answers, the same draws.
void TestHerdSimulator::explainFalseDecidesTheSame_data()
{
    QTest::addColumn<QString>("preset");
    for (const QString& name : PresetCatalog::names())
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestHerdSimulator::explainFalseDecidesTheSame()
{
    QFETCH(QString, preset);
    const RetryPolicy policy = *PresetCatalog::load(preset).policy;
    const QList<AttemptOutcome> outcomes {
        AttemptOutcome::answered(200),
        AttemptOutcome::answered(503),
        AttemptOutcome::answered(503, { { QByteArrayLiteral("Retry-After"), QByteArrayLiteral("3") } }),
        AttemptOutcome::answered(429, { { QByteArrayLiteral("Retry-After"), QByteArrayLiteral("120") } }),
        AttemptOutcome::answered(500),
        AttemptOutcome::answered(404),
        AttemptOutcome::failed(ErrorClass::ResponseTimeout),
        AttemptOutcome::failed(ErrorClass::ConnectionLost),
        AttemptOutcome::refusedByBreaker(Millis(5000)),
    };
    for (const QString& method : { QStringLiteral("GET"), QStringLiteral("POST") }) {
        for (const AttemptOutcome& outcome : outcomes) {
            for (int attempt = 1; attempt <= 3; ++attempt) {
                RequestFacts request;
                request.method = method;
                const AnswerFacts facts = readAnswer(policy, request, outcome, QDateTime::fromSecsSinceEpoch(0, Qt::UTC));
                DecisionContext context;
                context.attempt = attempt;
                context.elapsed = Millis(1000 * attempt);
                BackoffState told;
                BackoffState silent;
                told.retriesSinceReset = silent.retriesSinceReset = attempt - 1;
                FixedRandomSource toldDraws({ 0.31, 0.77, 0.05 });
                FixedRandomSource silentDraws({ 0.31, 0.77, 0.05 });
                const RetryDecision withWords = decide(policy, facts, context, told, toldDraws);
                context.explain = false;
                const RetryDecision without = decide(policy, facts, context, silent, silentDraws);
                QCOMPARE(without.verdict, withWords.verdict);
                QCOMPARE(without.finalKind, withWords.finalKind);
                QCOMPARE(without.delay, withWords.delay);
                QCOMPARE(without.delayLow, withWords.delayLow);
                QCOMPARE(without.delayHigh, withWords.delayHigh);
                QCOMPARE(without.source, withWords.source);
                QCOMPARE(without.serverAskedFor, withWords.serverAskedFor);
                QCOMPARE(without.effects, withWords.effects);
                QCOMPARE(silent, told);
                QCOMPARE(silentDraws.draws(), toldDraws.draws());
                QVERIFY(without.reason.isEmpty());
                QVERIFY(!withWords.reason.isEmpty());
            }
        }
    }
}

// The clients' attempts that reached the server are the server's count (no outage refused any here).
void TestHerdSimulator::attemptsAndServerCountAgree()
{
    HerdExperiment e = openLoop(3000, 300, Millis(15000));
    e.server.errorRate = 0.3;
    const HerdRun run = HerdSimulator::run(e, e.policies.first().policy, 3);
    QCOMPARE(run.totals.requests, 3000.0);
    QCOMPARE(run.totals.serverCalls, run.totals.attempts);
    QCOMPARE(sum(run.series, &HerdSample::attempts), run.totals.attempts);
    QCOMPARE(sum(run.series, &HerdSample::offered), run.totals.requests);
    QCOMPARE(sum(run.series, &HerdSample::retries), run.totals.attempts - run.totals.requests);
    QCOMPARE(sum(run.series, &HerdSample::goodput), run.totals.succeeded);
    QVERIFY(run.totals.attempts > 3000 * 1.2); // 30 % errors are retried
    QCOMPARE(run.totals.succeeded + run.totals.failed + run.totals.unfinished, run.totals.requests);
}

void TestHerdSimulator::outageAnswers_data()
{
    QTest::addColumn<int>("answer");
    QTest::addColumn<QString>("firstError");
    QTest::addColumn<int>("firstStatus");
    QTest::addColumn<bool>("serverSawIt");
    QTest::newRow("status 503") << int(HerdOutageAnswer::Status) << QString() << 503 << true;
    QTest::newRow("reset") << int(HerdOutageAnswer::Reset) << QStringLiteral("connection-lost") << 0 << true;
    QTest::newRow("refuse") << int(HerdOutageAnswer::Refuse) << QStringLiteral("refused") << 0 << false;
    QTest::newRow("hang") << int(HerdOutageAnswer::Hang) << QStringLiteral("response-timeout") << 0 << true;
}

void TestHerdSimulator::outageAnswers()
{
    QFETCH(int, answer);
    QFETCH(QString, firstError);
    QFETCH(int, firstStatus);
    QFETCH(bool, serverSawIt);
    HerdExperiment e = openLoop(20, 10, Millis(30000));
    e.server.outage = HerdWindow { Millis(0), Millis(2000) };
    e.server.outageAnswer = HerdOutageAnswer(answer);
    RetryPolicy policy = retrying(3, Millis(1000));
    policy.jitter.kind = JitterKind::None;
    policy.limits.attemptTimeout = Millis(700);
    QList<QList<HerdTraceAttempt>> trace;
    const HerdRun run = HerdSimulator::run(e, policy, 1, nullptr, {}, &trace);
    QCOMPARE(trace.size(), 20);
    // The first request arrives at 0, inside the outage: its first attempt meets it, its retry 1 s later
    // (1.7 s for a hang: 0.7 s timeout, 1 s wait) still does, the third (after 2 s more) is served.
    const QList<HerdTraceAttempt>& first = trace.first();
    QCOMPARE(first.size(), 3);
    QCOMPARE(first.at(0).error, firstError);
    QCOMPARE(first.at(0).status, firstStatus);
    QCOMPARE(first.at(0).verdict, QStringLiteral("retry"));
    QCOMPARE(first.at(0).delay, Millis(1000));
    QCOMPARE(first.at(2).status, 200);
    QCOMPARE(first.at(2).verdict, QStringLiteral("success"));
    const double arrived = sum(run.series, &HerdSample::attempts);
    if (serverSawIt)
        QCOMPARE(arrived, run.totals.attempts);
    else
        QVERIFY(arrived < run.totals.attempts);
    QCOMPARE(run.totals.succeeded, 20.0);
}

void TestHerdSimulator::fullQueueAnswersOverload()
{
    HerdExperiment e;
    e.server.concurrency = 1;
    e.server.queueLimit = 0;
    e.server.overloadStatus = 429;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Fixed, 100, 0 };
    e.clients.clients = 5; // closed loop: all five at 0 ms
    RetryPolicy policy = retrying(1, Millis(10));
    policy.rules.append(retryOn({ StatusRange { 429, 429 } }));
    QList<QList<HerdTraceAttempt>> trace;
    const HerdRun run = HerdSimulator::run(e, policy, 1, nullptr, {}, &trace);
    QCOMPARE(run.totals.succeeded, 1.0);
    QCOMPARE(run.totals.failed, 4.0);
    int overloaded = 0;
    for (const QList<HerdTraceAttempt>& client : trace)
        overloaded += client.first().status == 429 ? 1 : 0;
    QCOMPARE(overloaded, 4);
    QCOMPARE(run.totals.serverCalls, 1.0);
}

// A POST the server is slower to apply than the client waits: each resend is applied again unless it
// carries an idempotency key; a GET has no effect to apply twice.
void TestHerdSimulator::duplicatesNeedANonIdempotentRequestWithoutKey()
{
    HerdExperiment e = openLoop(200, 50, Millis(20000));
    e.server.concurrency = 0;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Fixed, 300, 0 };
    RetryPolicy policy = retrying(3, Millis(50));
    policy.limits.attemptTimeout = Millis(200);
    e.clients.method = QStringLiteral("POST");
    const HerdRun post = HerdSimulator::run(e, policy, 1);
    QCOMPARE(post.totals.duplicates, 200.0); // three attempts each, every one applied
    QCOMPARE(post.totals.succeeded, 0.0);
    policy.idempotency.autoAdd = true;
    const HerdRun keyed = HerdSimulator::run(e, policy, 1);
    QCOMPARE(keyed.totals.duplicates, 0.0);
    policy.idempotency.autoAdd = false;
    e.clients.method = QStringLiteral("GET");
    const HerdRun get = HerdSimulator::run(e, policy, 1);
    QCOMPARE(get.totals.duplicates, 0.0);
}

// gRFC A6 throttling per process: with the server failing everything, retries stop once half the tokens
// are gone, so amplification stays near 1 where the bare policy makes every attempt.
void TestHerdSimulator::retryThrottlingBoundsAmplification()
{
    HerdExperiment e = openLoop(4000, 200, Millis(25000));
    e.server.outage = HerdWindow { Millis(0), Millis(25000) };
    RetryPolicy bare = retrying(4, Millis(10));
    RetryPolicy throttled = bare;
    throttled.throttling.enabled = true;
    const HerdRun a = HerdSimulator::run(e, bare, 1);
    const HerdRun b = HerdSimulator::run(e, throttled, 1);
    QCOMPARE(a.totals.amplification(), 4.0);
    QVERIFY2(b.totals.amplification() < 1.01, qPrintable(QString::number(b.totals.amplification())));
    // The budget series: each process's tokens fall to half of 10 (and below, a failure still takes one).
    QVERIFY(!std::isnan(b.series.samples.last().budgetTokens));
    QVERIFY(b.series.samples.last().budgetTokens <= 5.0);
    QVERIFY(std::isnan(a.series.samples.last().budgetTokens));
}

// A consecutive-failure breaker inside the retry (cockatiel's shape): in an outage every process's breaker
// opens, its refusals never reach the server, and the share shows in the series.
void TestHerdSimulator::breakerOpensAcrossTheHerd()
{
    HerdExperiment e = openLoop(6000, 200, Millis(30000));
    e.server.outage = HerdWindow { Millis(5000), Millis(10000) };
    RetryPolicy policy = retrying(3, Millis(100));
    ResilienceStrategy retry;
    retry.kind = ResilienceStrategy::Kind::Retry;
    ResilienceStrategy breaker;
    breaker.kind = ResilienceStrategy::Kind::CircuitBreaker;
    breaker.breaker.window = CircuitBreakerOptions::Window::Consecutive;
    breaker.breaker.consecutiveFailures = 3;
    breaker.breaker.breakDuration = Millis(5000);
    breaker.failures = { RuleCondition { OutcomeKind::Status, {}, {}, { StatusRange { 500, 599 } }, {}, {}, {}, {}, {} } };
    policy.pipeline = { retry, breaker };
    const HerdRun without = HerdSimulator::run(e, retrying(3, Millis(100)), 1);
    const HerdRun with = HerdSimulator::run(e, policy, 1);
    QVERIFY(std::isnan(without.series.samples.at(8).breakerOpen));
    QCOMPARE(with.series.samples.at(8).breakerOpen, 1.0); // in the outage: every process's breaker is open
    QCOMPARE(with.series.samples.at(2).breakerOpen, 0.0); // before it: none
    QVERIFY(with.series.samples.last().breakerOpen < 0.5); // closed again after it
    QVERIFY(sum(with.series, &HerdSample::attempts) < 0.8 * sum(without.series, &HerdSample::attempts));
    QVERIFY(with.totals.attempts < with.totals.requests * 3);
}

void TestHerdSimulator::latencyHistogramIsWithinOnePercent()
{
    HerdLatency latency;
    QCOMPARE(latency.quantile(0.5), 0.0);
    for (int i = 1; i <= 10000; ++i)
        latency.add(double(i) / 10.0); // 0.1 … 1000 ms
    QCOMPARE(latency.count(), std::uint64_t(10000));
    for (const auto& [q, exact] : { std::pair { 0.5, 500.0 }, { 0.9, 900.0 }, { 0.99, 990.0 }, { 0.01, 10.0 } }) {
        const double got = latency.quantile(q);
        QVERIFY2(std::abs(got - exact) <= 0.01 * exact, qPrintable(QStringLiteral("q%1: %2 vs %3").arg(q).arg(got).arg(exact)));
    }
}

void TestHerdSimulator::eventQueuePopsInTimeOrder()
{
    struct E
    {
        std::int64_t at = 0;
        int id = 0;
    };
    HerdEventQueue<E> queue;
    std::mt19937 random(5);
    std::vector<std::int64_t> pushed;
    std::vector<std::int64_t> popped;
    for (int round = 0; round < 50; ++round) {
        for (int i = 0; i < 37; ++i) {
            const std::int64_t at = std::int64_t(random() % 1000) + (popped.empty() ? 0 : popped.back());
            queue.push(E { at, i });
            pushed.push_back(at);
        }
        for (int i = 0; i < 30 && !queue.empty(); ++i)
            popped.push_back(queue.pop().at);
    }
    while (!queue.empty())
        popped.push_back(queue.pop().at);
    QVERIFY(std::is_sorted(popped.begin(), popped.end()));
    std::sort(pushed.begin(), pushed.end());
    QCOMPARE(popped, pushed);
}

void TestHerdSimulator::recoveryJudgement()
{
    HerdExperiment e = openLoop(100, 10, Millis(10000));
    e.server.outage = HerdWindow { Millis(2000), Millis(2000) };
    HerdSeries series;
    series.resolution = Millis(1000);
    for (int i = 0; i < 10; ++i) {
        HerdSample s;
        s.offered = 10;
        s.goodput = i >= 2 && i < 4 ? 0 : 10;
        series.samples.append(s);
    }
    std::optional<bool> recovered;
    std::optional<Millis> collapsedAt;
    judgeRecovery(e, series, recovered, collapsedAt);
    QCOMPARE(recovered, std::optional<bool>(true));
    QVERIFY(!collapsedAt);
    for (int i = 3; i < 10; ++i)
        series.samples[i].goodput = 0.5;
    judgeRecovery(e, series, recovered, collapsedAt);
    QCOMPARE(recovered, std::optional<bool>(false));
    QCOMPARE(collapsedAt, std::optional<Millis>(Millis(2000)));
    e.clients.loop = HerdClientModel::Loop::Closed;
    judgeRecovery(e, series, recovered, collapsedAt);
    QVERIFY(!recovered && !collapsedAt);
    QCOMPARE(herdTriggerStart(e), std::optional<Millis>(Millis(2000)));
    QCOMPARE(herdTriggerEnd(e), std::optional<Millis>(Millis(4000)));
}

void TestHerdSimulator::cancelEndsTheRun()
{
    HerdExperiment e = openLoop(1000000, 20000, Millis(100000));
    std::atomic_bool cancel { false };
    int calls = 0;
    const HerdResult result = runHerdExperiment(e, &cancel, [&](double) {
        if (++calls == 2)
            cancel = true;
    });
    QVERIFY(result.cancelled);
    QVERIFY(result.results.isEmpty());
}

void TestHerdSimulator::validateRefusesWhatItDoesNotRun()
{
    HerdExperiment e = openLoop(10, 10, Millis(1000));
    QVERIFY(validate(e).isEmpty());
    HerdExperiment hedged = e;
    hedged.policies.first().policy = *PresetCatalog::load(QStringLiteral("ms-http-hedging")).policy;
    const QList<PolicyProblem> problems = validate(hedged);
    QVERIFY(std::any_of(problems.cbegin(), problems.cend(), [](const PolicyProblem& p) {
        return p.path.startsWith(QStringLiteral("policies[0].policy.pipeline")) && p.message.contains(QStringLiteral("hedging"));
    }));
    HerdExperiment bad = e;
    bad.clients.rate = 0;
    bad.duration = Millis(0);
    bad.server.cut = HerdWindow { Millis(0), Millis(10) };
    bad.server.cutFraction = 0;
    bad.policies.append(bad.policies.first());
    QStringList paths;
    for (const PolicyProblem& p : validate(bad))
        paths << p.path;
    QVERIFY2(paths.contains(QStringLiteral("clients.rate")), qPrintable(paths.join(u',')));
    QVERIFY(paths.contains(QStringLiteral("duration_ms")));
    QVERIFY(paths.contains(QStringLiteral("server.cut.fraction")));
    QVERIFY(paths.contains(QStringLiteral("policies[1].label")));
}

QTEST_GUILESS_MAIN(TestHerdSimulator)
#include "tst_herdsimulator.moc"
