// SPDX-License-Identifier: GPL-3.0-or-later
// The engine against the real fault lab: for every built-in scenario the lab received exactly one
// transmission per recorded attempt; the seed rules hold end to end.
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "runcollector.h"
#include "engine/timerscheduler.h"
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "policy/presetcatalog.h"

#include <QSignalSpy>
#include <QTest>

namespace {

struct Outcome
{
    QList<RunRecord> runs;
    int attempts = 0;
};

} // namespace

class TestEngineLab : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oneTransmissionPerAttempt_data();
    void oneTransmissionPerAttempt();
    void paymongoWaitsRetryAfter();
    void pixLeavesThreeSettlements();

private:
    Outcome runAll(FaultServer& lab, const RetryPolicy& policy, QList<RequestSpec> specs, int timeoutMs = 60000);
};

Outcome TestEngineLab::runAll(FaultServer& lab, const RetryPolicy& policy, QList<RequestSpec> specs, int timeoutMs)
{
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    engine.setConcurrencyLimit(1);
    lab.setClockOrigin(clock.origin());
    Outcome out;
    const RunCollector collected(&engine, [&out](const RunRecord& r) {
        out.runs.append(r);
        out.attempts += int(r.attempts.size());
    });
    for (RequestSpec& s : specs) {
        s.url.setPort(lab.port());
        engine.submit(s, policy);
    }
    const qsizetype n = specs.size();
    [&] { QTRY_COMPARE_WITH_TIMEOUT(out.runs.size(), n, timeoutMs); }();
    return out;
}

void TestEngineLab::oneTransmissionPerAttempt_data()
{
    QTest::addColumn<QString>("scenario");
    for (const ScenarioCatalog::Entry& e : ScenarioCatalog::builtIn())
        QTest::addRow("%s", qPrintable(e.name)) << e.name;
}

void TestEngineLab::oneTransmissionPerAttempt()
{
    QFETCH(QString, scenario);
    const auto loaded = ScenarioCatalog::load(scenario);
    QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
    FaultServer lab;
    QVERIFY(lab.start());
    lab.loadScenario(*loaded.scenario);
    // One request per route (wildcards filled in), each method the route names, under a policy that
    // retries network errors and 5xx: the transport must never add a transmission of its own.
    QList<RequestSpec> specs;
    for (const FaultRoute& route : loaded.scenario->routes) {
        QString path = route.path;
        path.replace(QStringLiteral("/**"), QStringLiteral("/x")).replace(QStringLiteral("/*"), QStringLiteral("/x"));
        QList<QByteArray> methods = route.methods;
        if (methods.isEmpty() || methods.contains("*"))
            methods = { "GET" };
        for (const QByteArray& m : methods) {
            RequestSpec s;
            s.method = QString::fromLatin1(m);
            s.url = QUrl(QStringLiteral("http://127.0.0.1") + path);
            if (s.method != QLatin1String("GET") && s.method != QLatin1String("DELETE"))
                s.body = "{\"amount\":100}";
            s.keyMode = IdempotencyKeyMode::Value;
            s.idempotencyKey = QStringLiteral("key-") + QString::number(specs.size());
            s.attemptTimeout = Millis(1500);
            specs << s;
        }
    }
    const auto policy = PresetCatalog::load(QStringLiteral("rfc9110-standard"));
    QVERIFY(policy.ok());
    RetryPolicy p = *policy.policy;
    p.limits.maxAttempts = std::min(p.limits.maxAttempts, 3);
    p.backoff.cap = Millis(200);
    p.hints.clear(); // do not wait out long Retry-After values in this test
    const Outcome out = runAll(lab, p, specs, 120000);
    QTest::qWait(200); // a hidden re-send would arrive now
    QCOMPARE(lab.ledger().requestsReceived(), out.attempts);
    for (const RunRecord& r : out.runs) {
        for (const AttemptRecord& a : r.attempts)
            QCOMPARE(lab.ledger().receiptsForAttempt(a.attemptId), 1);
    }
}

void TestEngineLab::paymongoWaitsRetryAfter()
{
    const auto loaded = ScenarioCatalog::load(QStringLiteral("seed-000-rate-limited"));
    QVERIFY(loaded.ok());
    FaultServer lab;
    QVERIFY(lab.start());
    lab.loadScenario(*loaded.scenario);
    const auto policy = PresetCatalog::load(QStringLiteral("paymongo"));
    QVERIFY(policy.ok());
    RequestSpec s;
    s.url = QUrl(QStringLiteral("http://127.0.0.1/v1/payments/x"));
    const Outcome out = runAll(lab, *policy.policy, { s });
    const RunRecord& r = out.runs.first();
    QCOMPARE(r.outcome, FinalKind::Success);
    QCOMPARE(r.attempts.size(), 2);
    QCOMPARE(r.attempts.at(0).status.value_or(0), 429);
    QCOMPARE(r.attempts.at(0).decision->source, DelaySource::RetryAfter);
    QCOMPARE(r.attempts.at(0).decision->delay, Millis(2000));
    const double waited = toMs(*r.attempts.at(1).at.started - *r.attempts.at(0).at.finished);
    QVERIFY2(waited >= 1995 && waited < 2100, qPrintable(QString::number(waited)));
    QCOMPARE(lab.ledger().requestsReceived(), 2);
}

void TestEngineLab::pixLeavesThreeSettlements()
{
    const auto loaded = ScenarioCatalog::load(QStringLiteral("seed-004-pix"));
    QVERIFY(loaded.ok());
    FaultServer lab;
    QVERIFY(lab.start());
    lab.loadScenario(*loaded.scenario);
    const auto policy = PresetCatalog::load(QStringLiteral("pix"));
    QVERIFY(policy.ok());
    QList<RequestSpec> specs;
    for (int i = 0; i < 5; ++i) {
        RequestSpec s;
        s.method = QStringLiteral("POST");
        s.url = QUrl(QStringLiteral("http://127.0.0.1/pix/payments"));
        s.body = "{\"amount\":" + QByteArray::number(100 + i) + "}";
        s.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        s.keyMode = IdempotencyKeyMode::Value;
        s.idempotencyKey = QStringLiteral("pix-%1").arg(i + 1);
        if (!policy.policy->limits.attemptTimeout)
            s.attemptTimeout = Millis(3000);
        specs << s;
    }
    const Outcome out = runAll(lab, *policy.policy, specs, 120000);
    QTest::qWait(4500); // the late answer of payment 3 is settled before it is answered
    int succeeded = 0;
    for (const RunRecord& r : out.runs)
        succeeded += r.succeeded();
    QCOMPARE(succeeded, 3);
    QCOMPARE(lab.ledger().operationsApplied(), 3);
    QCOMPARE(lab.ledger().requestsReceived(), out.attempts);
}

QTEST_GUILESS_MAIN(TestEngineLab)
#include "tst_enginelab.moc"
