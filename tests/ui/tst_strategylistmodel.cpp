// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline's list model (issue 28 §4) under QAbstractItemModelTester: adding by kind (the first
// strategy of a policy without a pipeline brings the retry along, outside or inside it as the standard
// handler orders them), removing and reordering change RetryPolicy::pipeline as expected, and the result
// round-trips through the policy JSON writer and reader to the same policy; one-line summaries per kind.
#include "editors/policylists/strategylistmodel.h"

#include "policy/policyjson.h"
#include "policy/presetcatalog.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QTest>

using namespace Qt::StringLiterals;
using Kind = ResilienceStrategy::Kind;


namespace {

QList<Kind> kinds(const QList<ResilienceStrategy>& pipeline)
{
    QList<Kind> out;
    for (const ResilienceStrategy& s : pipeline)
        out << s.kind;
    return out;
}

// POLICY with PIPELINE, written as JSON and read back.
RetryPolicy roundTrip(const RetryPolicy& policy)
{
    const PolicyParseResult back = policyFromJsonBytes(policyToJsonBytes(policy));
    if (!back.ok()) {
        qWarning() << "not read back:" << back.problems.value(0).path << back.problems.value(0).message;
        return {};
    }
    return *back.policy;
}

} // namespace

class TestStrategyListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // policy-format.md: "a policy without a pipeline is one retry"; the first strategy brings it along.
    void firstStrategyBringsTheRetry_data()
    {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QList<Kind>>("pipeline");
        QTest::addColumn<int>("selected");
        QTest::addRow("retry alone: just the retry") << Kind::Retry << QList<Kind> { Kind::Retry } << 0;
        QTest::addRow("total timeout outside the retry (MEHR standard)")
            << Kind::TotalTimeout << QList<Kind> { Kind::TotalTimeout, Kind::Retry } << 0;
        QTest::addRow("breaker inside the retry (MEHR standard)")
            << Kind::CircuitBreaker << QList<Kind> { Kind::Retry, Kind::CircuitBreaker } << 1;
        QTest::addRow("attempt timeout inside the retry (MEHR standard)")
            << Kind::AttemptTimeout << QList<Kind> { Kind::Retry, Kind::AttemptTimeout } << 1;
        QTest::addRow("rate limiter outside (MEHR standard; the engine runs limiters there)")
            << Kind::RateLimiter << QList<Kind> { Kind::RateLimiter, Kind::Retry } << 0;
        QTest::addRow("bulkhead outside") << Kind::Bulkhead << QList<Kind> { Kind::Bulkhead, Kind::Retry } << 0;
        QTest::addRow("hedging outside (Polly's hedging handler)") << Kind::Hedging << QList<Kind> { Kind::Hedging, Kind::Retry } << 0;
    }
    void firstStrategyBringsTheRetry()
    {
        QFETCH(Kind, kind);
        QFETCH(QList<Kind>, pipeline);
        QFETCH(int, selected);
        StrategyListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.addStrategy(kind, -1), selected);
        QCOMPARE(kinds(model.items()), pipeline);
        QCOMPARE(model.item(selected), StrategyListModel::newStrategy(kind));
    }

    void addRemoveReorderRoundTrip()
    {
        // A format-1 policy: no pipeline until a strategy is added.
        RetryPolicy policy = *PresetCatalog::load(u"curl-7.88"_s).policy;
        QVERIFY(policy.pipeline.isEmpty());
        QCOMPARE(policy.formatVersion(), 1);
        StrategyListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReference(policy.pipeline);
        model.setItems(policy.pipeline);
        QCOMPARE(model.rowCount(), 0);

        QCOMPARE(model.addStrategy(Kind::CircuitBreaker, -1), 1); // [retry, breaker]
        QCOMPARE(model.addStrategy(Kind::AttemptTimeout, 1), 2); // after the breaker
        QCOMPARE(model.addStrategy(Kind::TotalTimeout, -1), 3); // at the end: moved out below
        QCOMPARE(kinds(model.items()), (QList<Kind> { Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout, Kind::TotalTimeout }));
        QVERIFY(model.data(model.index(3), PolicyListModel::ChangedRole).toBool());
        // Outermost: the total timeout to the top (in front of row 0).
        QVERIFY(model.moveRows({}, 3, 1, {}, 0));
        QCOMPARE(kinds(model.items()), (QList<Kind> { Kind::TotalTimeout, Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout }));
        // The breaker one down, inside the attempt timeout, and back.
        QVERIFY(model.moveRows({}, 2, 1, {}, 4));
        QCOMPARE(kinds(model.items()), (QList<Kind> { Kind::TotalTimeout, Kind::Retry, Kind::AttemptTimeout, Kind::CircuitBreaker }));
        QVERIFY(model.moveRows({}, 3, 1, {}, 2));
        QCOMPARE(kinds(model.items()), (QList<Kind> { Kind::TotalTimeout, Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout }));
        QVERIFY(model.addStrategy(Kind::RateLimiter, -1) == 4);
        QVERIFY(model.removeRows(4, 1));
        QVERIFY(!model.removeRows(4, 1));
        QVERIFY(!model.moveRows({}, 0, 1, {}, 0));

        policy.pipeline = model.items();
        policy.limits.attemptTimeout.reset(); // a pipeline's timeouts are its strategies
        policy.limits.deadline.reset();
        QCOMPARE(validate(policy), QList<PolicyProblem> {});
        QCOMPARE(policy.formatVersion(), 2);
        const RetryPolicy back = roundTrip(policy);
        QCOMPARE(kinds(back.pipeline), kinds(policy.pipeline));
        QVERIFY(back == policy);

        // Everything removed: the format-1 policy again, read back the same.
        QVERIFY(model.removeRows(0, model.rowCount()));
        policy.pipeline = model.items();
        QCOMPARE(policy.formatVersion(), 1);
        QVERIFY(roundTrip(policy) == policy);
    }

    void everyPipelinePresetRoundTrips_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString& name : PresetCatalog::names()) {
            if (!PresetCatalog::load(name).policy->pipeline.isEmpty())
                QTest::addRow("%s", qPrintable(name)) << name;
        }
    }
    void everyPipelinePresetRoundTrips()
    {
        QFETCH(QString, name);
        const RetryPolicy preset = *PresetCatalog::load(name).policy;
        StrategyListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReference(preset.pipeline);
        model.setItems(preset.pipeline);
        QCOMPARE(model.rowCount(), preset.pipeline.size());
        for (int row = 0; row < model.rowCount(); ++row) {
            QVERIFY(!model.data(model.index(row), PolicyListModel::ChangedRole).toBool());
            QVERIFY(!model.data(model.index(row)).toString().isEmpty());
            QVERIFY(!model.data(model.index(row), Qt::ToolTipRole).toString().isEmpty());
        }
        // Last to first and back: the same pipeline, unchanged.
        const int n = model.rowCount();
        QVERIFY(model.moveRows({}, n - 1, 1, {}, 0) || n == 1);
        QVERIFY(model.moveRows({}, 0, 1, {}, n) || n == 1);
        RetryPolicy edited = preset;
        edited.pipeline = model.items();
        QVERIFY(edited == preset);
        QVERIFY(roundTrip(edited) == preset);
    }

    void summaries_data()
    {
        QTest::addColumn<ResilienceStrategy>("strategy");
        QTest::addColumn<QString>("summary");
        QTest::addRow("total timeout") << StrategyListModel::newStrategy(Kind::TotalTimeout) << u"total timeout 30 s"_s;
        QTest::addRow("attempt timeout") << StrategyListModel::newStrategy(Kind::AttemptTimeout) << u"attempt timeout 10 s"_s;
        QTest::addRow("Polly's breaker defaults")
            << StrategyListModel::newStrategy(Kind::CircuitBreaker) << u"circuit breaker · ≥ 10 % of ≥ 100 calls in 30 s · break 5 s"_s;
        ResilienceStrategy consecutive = StrategyListModel::newStrategy(Kind::CircuitBreaker);
        consecutive.breaker.window = CircuitBreakerOptions::Window::Consecutive;
        QTest::addRow("cockatiel's consecutive breaker") << consecutive << u"circuit breaker · 5 failures in a row · break 5 s"_s;
        ResilienceStrategy hedging = StrategyListModel::newStrategy(Kind::Hedging);
        QTest::addRow("hedging, latency mode") << hedging << u"hedging · up to 1 more copy · each after 2 s"_s;
        hedging.hedging.maxHedges = 3;
        hedging.hedging.delay = Millis { 0 };
        QTest::addRow("hedging, all at once (0)") << hedging << u"hedging · up to 3 more copies · all at once"_s;
        hedging.hedging.delay = HedgingOptions::kFallback;
        QTest::addRow("hedging, fallback (−1)") << hedging << u"hedging · up to 3 more copies · each after a failure"_s;
        ResilienceStrategy limiter = StrategyListModel::newStrategy(Kind::RateLimiter);
        QTest::addRow("rate limiter") << limiter << u"rate limiter · 1000 at once · no queue"_s;
        limiter.kind = Kind::Bulkhead;
        limiter.permits = 10;
        limiter.queue = 5;
        QTest::addRow("bulkhead with a queue") << limiter << u"bulkhead · 10 at once · 5 queued"_s;
    }
    void summaries()
    {
        QFETCH(ResilienceStrategy, strategy);
        QFETCH(QString, summary);
        QCOMPARE(StrategyListModel::summaryOf(strategy), summary);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestStrategyListModel test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_strategylistmodel.moc"
