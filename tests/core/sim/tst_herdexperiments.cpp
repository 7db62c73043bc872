// SPDX-License-Identifier: GPL-3.0-or-later
// Each built-in herd experiment reproduces the claims of its source (issue 29 §2, resilience-fleets.md §2),
// over a few seeds: orderings and ratios, never exact values.
#include "sim/herdcatalog.h"
#include "sim/herdsimulator.h"

#include <QTest>

namespace {

const HerdPolicyResult& resultOf(const HerdResult& result, const QString& label)
{
    for (const HerdPolicyResult& r : result.results)
        if (r.label == label)
            return r;
    qFatal("no result for %s", qPrintable(label));
}

// Means of a series field over the buckets from FROM_MS on.
double tailMean(const HerdSeries& series, double HerdSample::*field, qint64 fromMs)
{
    double total = 0;
    int n = 0;
    for (qsizetype i = fromMs / series.resolution.count(); i < series.samples.size(); ++i, ++n)
        total += series.samples.at(i).*field;
    return n ? total / n : 0;
}

} // namespace

class TestHerdExperiments : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void catalogIsComplete();
    void aws2015_data();
    void aws2015();
    void retryCollapse_data();
    void retryCollapse();
    void metastableBoundary();
};

void TestHerdExperiments::catalogIsComplete()
{
    QCOMPARE(HerdCatalog::names(), (QStringList { QStringLiteral("aws-2015"), QStringLiteral("retry-collapse"), QStringLiteral("metastable-osdi22") }));
    for (const QString& name : HerdCatalog::names()) {
        const std::optional<HerdExperiment> e = HerdCatalog::experiment(name);
        QVERIFY(e);
        QCOMPARE(e->name, name);
        QVERIFY(!e->source.isEmpty() && !e->claims.isEmpty() && !e->title.isEmpty());
        QVERIFY2(validate(*e).isEmpty(), qPrintable(name));
    }
    QVERIFY(!HerdCatalog::experiment(QStringLiteral("nope")));
    QStringList labels;
    const HerdExperiment aws = *HerdCatalog::experiment(QStringLiteral("aws-2015"));
    for (const HerdPolicy& p : aws.policies)
        labels << p.label;
    QCOMPARE(labels, (QStringList { QStringLiteral("none"), QStringLiteral("exponential"), QStringLiteral("equal-jitter"), QStringLiteral("full-jitter"), QStringLiteral("decorrelated") }));
}

void TestHerdExperiments::aws2015_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::newRow("seed 1") << quint64(1);
    QTest::newRow("seed 2") << quint64(2);
    QTest::newRow("seed 3") << quint64(3);
}

// "Exponential Backoff And Jitter" (Brooker, 2015), at N = 100, 40 runs a seed.
void TestHerdExperiments::aws2015()
{
    QFETCH(quint64, seed);
    HerdExperiment e = *HerdCatalog::experiment(QStringLiteral("aws-2015"));
    e.runs = 40;
    e.seed = seed;
    const HerdResult result = runHerdExperiment(e);
    const HerdTotals& none = resultOf(result, QStringLiteral("none")).totals;
    const HerdTotals& expo = resultOf(result, QStringLiteral("exponential")).totals;
    const HerdTotals& equal = resultOf(result, QStringLiteral("equal-jitter")).totals;
    const HerdTotals& full = resultOf(result, QStringLiteral("full-jitter")).totals;
    const HerdTotals& decorrelated = resultOf(result, QStringLiteral("decorrelated")).totals;
    for (const HerdTotals* t : { &none, &expo, &equal, &full, &decorrelated })
        QCOMPARE(t->succeeded, 100.0); // every client's write lands in the end
    // Jitter cuts the calls by more than half against plain exponential backoff.
    QVERIFY2(full.serverCalls < 0.5 * expo.serverCalls, qPrintable(QStringLiteral("%1 vs %2").arg(full.serverCalls).arg(expo.serverCalls)));
    QVERIFY(equal.serverCalls < 0.5 * expo.serverCalls);
    // Full and equal jitter do about the same work; equal slightly more.
    QVERIFY(std::abs(equal.serverCalls - full.serverCalls) < 0.08 * full.serverCalls);
    QVERIFY2(equal.serverCalls > 0.99 * full.serverCalls, qPrintable(QStringLiteral("%1 vs %2").arg(equal.serverCalls).arg(full.serverCalls)));
    // Decorrelated jitter does more work than full jitter.
    QVERIFY(decorrelated.serverCalls > 1.1 * full.serverCalls);
    // Plain exponential backoff is far slower; equal jitter takes much longer than full jitter.
    QVERIFY(expo.completionMs > 5 * full.completionMs);
    QVERIFY2(equal.completionMs > 1.15 * full.completionMs, qPrintable(QStringLiteral("%1 vs %2").arg(equal.completionMs).arg(full.completionMs)));
    // No backoff at all does the most work.
    QVERIFY(none.serverCalls > expo.serverCalls);
}

void TestHerdExperiments::retryCollapse_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::newRow("seed 1") << quint64(1);
    QTest::newRow("seed 2") << quint64(2);
    QTest::newRow("seed 3") << quint64(3);
}

// Brooker's collapse model: after the 40 → 80 rps spike (20–25 s), the last 30 s of 80.
void TestHerdExperiments::retryCollapse()
{
    QFETCH(quint64, seed);
    HerdExperiment e = *HerdCatalog::experiment(QStringLiteral("retry-collapse"));
    e.seed = seed;
    const HerdResult result = runHerdExperiment(e);
    const HerdPolicyResult& immediate = resultOf(result, QStringLiteral("immediate"));
    const HerdPolicyResult& backoff = resultOf(result, QStringLiteral("backoff-jitter"));
    const HerdPolicyResult& budget = resultOf(result, QStringLiteral("retry-budget"));
    // Immediate retries stay down: goodput near 0 while attempts stay high (about three per request).
    QCOMPARE(immediate.recovered, std::optional<bool>(false));
    QVERIFY(immediate.collapsedAt && *immediate.collapsedAt >= Millis(20000) && *immediate.collapsedAt <= Millis(40000));
    QVERIFY(tailMean(immediate.series, &HerdSample::goodput, 50000) < 4.0);
    QVERIFY(tailMean(immediate.series, &HerdSample::attempts, 50000) > 2.5 * 40);
    // Backoff with jitter recovers to about the offered 40 rps.
    QCOMPARE(backoff.recovered, std::optional<bool>(true));
    const double backoffGoodput = tailMean(backoff.series, &HerdSample::goodput, 50000);
    QVERIFY2(backoffGoodput > 34 && backoffGoodput < 46, qPrintable(QString::number(backoffGoodput)));
    // A retry budget bounds the amplification (gRPC throttling: retries stop once half the tokens are gone).
    QVERIFY(budget.totals.amplification() < 1.5);
    QVERIFY(budget.totals.amplification() < 0.7 * immediate.totals.amplification());
    QCOMPARE(budget.recovered, std::optional<bool>(true));
}

// "Metastable Failures in the Wild", the retry case: a sharp boundary in the trigger's size and length and in
// the offered load. Outcomes are stochastic (the artifact's README says so too): the collapse must happen in
// at least four of five seeds, every recovery in all five.
void TestHerdExperiments::metastableBoundary()
{
    HerdExperiment base = *HerdCatalog::experiment(QStringLiteral("metastable-osdi22"));
    base.policies = { base.policies.first() }; // the paper's client: 4 immediate resends, 3 s timeout
    QCOMPARE(base.policies.first().label, QStringLiteral("immediate-4"));
    struct Case
    {
        const char* name;
        double fraction;
        int seconds;
        double rateScale;
        bool collapses;
    };
    const Case cases[] = {
        { "45 % for 10 s", 0.45, 10, 1.0, false },
        { "40 % for 9 s", 0.40, 9, 1.0, false },
        { "40 % for 10 s", 0.40, 10, 1.0, true },
        { "40 % for 10 s at 75 % of the load", 0.40, 10, 0.75, false },
    };
    for (const Case& c : cases) {
        int collapsed = 0;
        for (quint64 seed = 1; seed <= 5; ++seed) {
            HerdExperiment e = base;
            e.server.cutFraction = c.fraction;
            e.server.cut = HerdWindow { Millis(60000), Millis(c.seconds * 1000) };
            e.clients.rate = base.clients.rate * c.rateScale;
            e.seed = seed;
            const HerdPolicyResult r = runHerdExperiment(e).results.first();
            QVERIFY(r.recovered);
            if (!*r.recovered) {
                ++collapsed;
                // After the trigger: goodput near 0 while the attempts stay high.
                QVERIFY(tailMean(r.series, &HerdSample::goodput, 110000) < 0.05 * e.clients.rate);
                QVERIFY(tailMean(r.series, &HerdSample::attempts, 110000) > 2.0 * e.clients.rate);
            }
        }
        if (c.collapses)
            QVERIFY2(collapsed >= 4, qPrintable(QStringLiteral("%1: collapsed in %2 of 5").arg(QLatin1StringView(c.name)).arg(collapsed)));
        else
            QVERIFY2(collapsed == 0, qPrintable(QStringLiteral("%1: collapsed in %2 of 5").arg(QLatin1StringView(c.name)).arg(collapsed)));
    }
}

QTEST_GUILESS_MAIN(TestHerdExperiments)
#include "tst_herdexperiments.moc"
