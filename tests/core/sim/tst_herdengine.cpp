// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator's decisions equal the engine's (issue 29 §5): a herd of simulated clients runs a policy
// against a server that answers 503 often; clients whose request took three attempts or more (among them
// clients that ran out of attempts) are replayed one by one through a real Batch against the fault lab on
// loopback, the lab scripted to answer that client's statuses (and Retry-After) in order, the engine drawing
// the jitter the simulator drew. Attempt for attempt: the same status, the same verdict, the same wait in
// milliseconds; the lab saw exactly that many requests. One row per backoff family.
#include "../engine/runcollector.h"
#include "engine/virtualtime.h"
#include "lab/faultserver.h"
#include "lab/scenarioloader.h"
#include "policy/errorclass.h"
#include "policy/randomsource.h"
#include "session/batch.h"
#include "sim/herdsimulator.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(RetryPolicy)

namespace {

constexpr int kClients = 30;
constexpr int kMaxSeeds = 32; // seeds tried until the herd holds clients worth replaying

RetryPolicy retrying503(BackoffKind backoff, JitterKind jitter, Millis base, int maxAttempts = 4)
{
    RetryPolicy p;
    p.name = u"herd-engine"_s;
    p.limits.maxAttempts = maxAttempts;
    p.backoff.kind = backoff;
    p.backoff.base = base;
    p.jitter.kind = jitter;
    RuleCondition on503;
    on503.outcome = OutcomeKind::Status;
    on503.statuses = { StatusRange { 503, 503 } };
    p.rules = { RetryRule { u"unavailable"_s, on503, RuleAction::Retry, false, {} } };
    return p;
}

DelayHint retryAfterHint(HintCombine combine)
{
    DelayHint hint;
    hint.header = u"Retry-After"_s;
    hint.format = HintFormat::RetryAfter;
    hint.statuses = { StatusRange { 503, 503 } };
    hint.combine = combine;
    hint.max = Millis(10000);
    hint.overMax = HintOverMax::Clamp;
    return hint;
}

// A queue-model server without a concurrency limit that answers 503 (with Retry-After when RETRYAFTERMS > 0)
// to 60 % of the requests, and KCLIENTS closed-loop clients sending one GET each.
HerdExperiment flakyServer(const RetryPolicy& policy, int retryAfterMs)
{
    HerdExperiment e;
    e.name = u"herd-engine"_s;
    e.title = u"clients replayed through the engine"_s;
    e.server.kind = HerdServerModel::Kind::Queue;
    e.server.concurrency = 0;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Fixed, 10, 0 };
    e.server.hop = HerdDistribution { HerdDistribution::Kind::Fixed, 1, 0 };
    e.server.errorRate = 0.6;
    e.server.errorStatus = 503;
    if (retryAfterMs > 0)
        e.server.retryAfter = Millis(retryAfterMs);
    e.clients.loop = HerdClientModel::Loop::Closed;
    e.clients.clients = kClients;
    e.clients.requestsPerClient = 1;
    e.duration = Millis(0);
    e.resolution = Millis(100);
    e.policies = { HerdPolicy { u"row"_s, policy } };
    return e;
}

QString traceText(const QList<HerdTraceAttempt>& client)
{
    QStringList lines;
    for (qsizetype i = 0; i < client.size(); ++i) {
        const HerdTraceAttempt& a = client.at(i);
        QStringList draws;
        for (double d : a.draws)
            draws << QString::number(d, 'g', 17);
        lines << u"  sim %1: status %2%3, %4, delay %5 ms, draws [%6]"_s.arg(i + 1).arg(a.status)
                     .arg(a.error.isEmpty() ? QString() : u" ("_s + a.error + u')')
                     .arg(a.verdict)
                     .arg(a.delay.count())
                     .arg(draws.join(u", "_s));
    }
    return lines.join(u'\n');
}

QString engineText(const QList<AttemptRecord>& attempts)
{
    QStringList lines;
    for (const AttemptRecord& a : attempts) {
        const QString verdict = a.decision ? verdictName(a.decision->verdict) : u"(none)"_s;
        const qint64 delay = a.decision && a.decision->verdict == Verdict::Retry ? a.decision->delay.count() : 0;
        lines << u"  engine %1: status %2%3, %4, delay %5 ms"_s.arg(a.index).arg(a.status.value_or(0))
                     .arg(a.error ? u" ("_s + errorClassName(*a.error) + u')' : QString())
                     .arg(verdict)
                     .arg(delay);
    }
    return lines.join(u'\n');
}

// A scenario whose one route answers CLIENT's statuses in order, with the Retry-After the simulated server
// sent on 429 and 503 (delta-seconds, rounded up as the simulator rounds it).
QJsonObject scenarioFor(const QList<HerdTraceAttempt>& client, int retryAfterMs, int index)
{
    QJsonArray steps;
    for (const HerdTraceAttempt& a : client) {
        QJsonObject step { { u"kind"_s, u"respond"_s }, { u"status"_s, a.status } };
        if (retryAfterMs > 0 && (a.status == 429 || a.status == 503))
            step.insert(u"retry_after"_s, (retryAfterMs + 999) / 1000);
        steps.append(step);
    }
    const QJsonObject route { { u"path"_s, u"/herd"_s }, { u"steps"_s, steps } };
    return QJsonObject { { u"format"_s, 1 }, { u"name"_s, u"herd-client-%1"_s.arg(index) },
        { u"routes"_s, QJsonArray { route } } };
}

} // namespace

class TestHerdEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void simulatorDecidesAsEngine_data();
    void simulatorDecidesAsEngine();

private:
    // Replays simulated client INDEX through a Batch on virtual time against a lab on loopback and compares.
    void replay(const RetryPolicy& policy, const QList<HerdTraceAttempt>& client, int retryAfterMs, int index);
    int m_compared = 0; // attempts compared in the current row
};

void TestHerdEngine::initTestCase()
{
    RetryEngine::registerMetaTypes();
}

void TestHerdEngine::simulatorDecidesAsEngine_data()
{
    QTest::addColumn<RetryPolicy>("policy");
    QTest::addColumn<int>("retryAfterMs"); // the simulated server's Retry-After on 503; 0 = none

    using B = BackoffKind;
    using J = JitterKind;
    QTest::addRow("constant 50 ms") << retrying503(B::Constant, J::None, Millis(50)) << 0;
    RetryPolicy linear = retrying503(B::Linear, J::None, Millis(20));
    linear.backoff.increment = Millis(30);
    QTest::addRow("linear 20 ms + 30 ms per retry") << linear << 0;
    QTest::addRow("exponential 20 ms x2, no jitter") << retrying503(B::Exponential, J::None, Millis(20)) << 0;
    QTest::addRow("exponential + full jitter (AWS 2015)") << retrying503(B::Exponential, J::Full, Millis(40), 5) << 0;
    QTest::addRow("exponential + equal jitter (AWS 2015)") << retrying503(B::Exponential, J::Equal, Millis(40), 5) << 0;
    RetryPolicy proportional = retrying503(B::Exponential, J::Proportional, Millis(40), 5);
    proportional.jitter.factor = 0.5; // cenkalti ±50 %
    QTest::addRow("exponential + proportional jitter +-50%% (cenkalti)") << proportional << 0;
    RetryPolicy multiplicative = retrying503(B::Exponential, J::Multiplicative, Millis(40), 5);
    multiplicative.jitter.low = 0.8; // gRPC 0.8–1.2
    multiplicative.jitter.high = 1.2;
    QTest::addRow("exponential + multiplicative jitter 0.8-1.2 (gRPC)") << multiplicative << 0;
    RetryPolicy additive = retrying503(B::Exponential, J::Additive, Millis(20), 5);
    additive.jitter.additive = Millis(30); // urllib3 backoff_jitter
    QTest::addRow("exponential + additive jitter 30 ms (urllib3)") << additive << 0;
    RetryPolicy decorrelated = retrying503(B::Decorrelated, J::None, Millis(20), 5);
    decorrelated.backoff.cap = Millis(1000);
    QTest::addRow("decorrelated jitter (AWS 2015)") << decorrelated << 0;
    RetryPolicy polly = retrying503(B::DecorrelatedV2, J::None, Millis(50), 5);
    polly.backoff.cap = Millis(2000);
    QTest::addRow("decorrelated jitter v2 (Polly)") << polly << 0;
    RetryPolicy replace = retrying503(B::Exponential, J::Full, Millis(20));
    replace.hints = { retryAfterHint(HintCombine::Replace) };
    QTest::addRow("Retry-After 1 s honoured, replacing full jitter") << replace << 1000;
    RetryPolicy atLeast = retrying503(B::Exponential, J::Full, Millis(400), 5);
    atLeast.hints = { retryAfterHint(HintCombine::AtLeastBackoff) };
    QTest::addRow("Retry-After 1 s, at least the full-jitter backoff") << atLeast << 1000;
}

void TestHerdEngine::simulatorDecidesAsEngine()
{
    QFETCH(RetryPolicy, policy);
    QFETCH(int, retryAfterMs);
    QVERIFY2(validate(policy).isEmpty(), "the row's policy is valid");
    const HerdExperiment experiment = flakyServer(policy, retryAfterMs);
    QVERIFY(validate(experiment).isEmpty());

    // The first seed whose herd has a client that ran out of attempts and a few more with three or more.
    QList<QList<HerdTraceAttempt>> trace;
    QList<int> stopped;
    QList<int> succeeded;
    std::uint64_t seed = 1;
    for (; seed <= kMaxSeeds; ++seed) {
        const HerdRun run = HerdSimulator::run(experiment, policy, seed, nullptr, {}, &trace);
        QCOMPARE(run.totals.requests, double(kClients));
        QCOMPARE(trace.size(), kClients);
        stopped.clear();
        succeeded.clear();
        for (int c = 0; c < trace.size(); ++c) {
            const QList<HerdTraceAttempt>& client = trace.at(c);
            if (client.size() < 3)
                continue;
            (client.last().verdict == u"stop"_s ? stopped : succeeded) << c;
        }
        if (!stopped.isEmpty() && stopped.size() + succeeded.size() >= 4)
            break;
    }
    QVERIFY2(seed <= kMaxSeeds, "a herd with a client out of attempts and four with three attempts or more");

    // Up to three that ran out of attempts, the rest of six that succeeded late.
    QList<int> picked = stopped.mid(0, 3);
    picked << succeeded.mid(0, 6 - picked.size());
    m_compared = 0;
    for (int c : std::as_const(picked)) {
        replay(policy, trace.at(c), retryAfterMs, c);
        if (QTest::currentTestFailed())
            return;
    }
    qInfo("seed %llu: %lld clients replayed (%lld out of attempts), %d attempts compared", quint64(seed),
        qlonglong(picked.size()), qlonglong(std::min<qsizetype>(stopped.size(), 3)), m_compared);
}

void TestHerdEngine::replay(const RetryPolicy& policy, const QList<HerdTraceAttempt>& client, int retryAfterMs, int index)
{
    QList<double> draws;
    for (const HerdTraceAttempt& a : client) {
        QVERIFY2(a.status != 0, "this server model answers every attempt with a status");
        draws << a.draws;
    }
    const ScenarioLoader::Result scenario = ScenarioLoader::fromObject(scenarioFor(client, retryAfterMs, index));
    QVERIFY2(scenario.ok(), qPrintable(scenario.problemText()));

    FixedRandomSource random(draws); // these two outlive the batch
    QList<WaitInfo> waits;
    VirtualClock clock;
    VirtualScheduler scheduler(clock);
    FaultServer lab; // before the batch, which points to it
    Batch batch(clock, scheduler);
    batch.skipWaits(scheduler);
    QVERIFY(lab.start());
    lab.loadScenario(*scenario.scenario);
    batch.useLab(&lab, scenario.scenario->source);
    batch.engine().setRandomSource(&random);
    const RunCollector runs(&batch.engine());
    connect(&batch.engine(), &RetryEngine::waitScheduled, this, [&waits](const WaitInfo& w) { waits << w; });
    QSignalSpy idle(&batch, &Batch::idle);

    RequestSpec spec;
    spec.url = QUrl(lab.url().toString() + u"/herd"_s);
    batch.submit(spec, policy);
    QVERIFY(idle.wait(30000));
    QCOMPARE(runs.size(), 1);

    const QList<AttemptRecord>& attempts = runs.first().attempts;
    const QString both = u"client %1\n"_s.arg(index) + traceText(client) + u'\n' + engineText(attempts);
    QVERIFY2(attempts.size() == client.size(), qPrintable(u"attempts differ\n"_s + both));
    QVERIFY2(lab.ledger().requestsReceived() == int(attempts.size()), qPrintable(u"the lab saw %1 requests\n"_s.arg(lab.ledger().requestsReceived()) + both));
    for (qsizetype i = 0; i < client.size(); ++i) {
        const HerdTraceAttempt& sim = client.at(i);
        const AttemptRecord& a = attempts.at(i);
        const QString where = u"attempt %1 of "_s.arg(i + 1) + both;
        QVERIFY2(a.decision.has_value(), qPrintable(where));
        QVERIFY2(a.status.value_or(0) == sim.status, qPrintable(u"status: "_s + where));
        QVERIFY2((a.error ? errorClassName(*a.error) : QString()) == sim.error, qPrintable(u"error: "_s + where));
        QVERIFY2(verdictName(a.decision->verdict) == sim.verdict, qPrintable(u"verdict: "_s + where));
        const Millis delay = a.decision->verdict == Verdict::Retry ? a.decision->delay : Millis(0);
        QVERIFY2(delay == sim.delay, qPrintable(u"delay: "_s + where));
        if (retryAfterMs > 0 && sim.status == 503)
            QVERIFY2(a.retryAfter.has_value(), qPrintable(u"Retry-After not read: "_s + where));
    }
    // Every wait the engine scheduled is the decision's delay, and the next attempt was due when it ended.
    QVERIFY2(waits.size() == client.size() - 1, qPrintable(u"%1 waits scheduled\n"_s.arg(waits.size()) + both));
    for (qsizetype i = 0; i < waits.size(); ++i) {
        const WaitInfo& w = waits.at(i);
        QCOMPARE(w.nextIndex, int(i) + 2);
        QCOMPARE(w.decision.delay, client.at(i).delay);
        QCOMPARE(w.dueAt - w.scheduledAt, MonoTime(client.at(i).delay));
        QCOMPARE(attempts.at(i + 1).at.scheduled, std::optional<MonoTime>(w.dueAt));
    }
    // The engine took exactly the draws the simulator's decide() took (FixedRandomSource would cycle).
    QCOMPARE(random.draws(), int(draws.size()));
    m_compared += int(attempts.size());
}

QTEST_GUILESS_MAIN(TestHerdEngine)
#include "tst_herdengine.moc"
