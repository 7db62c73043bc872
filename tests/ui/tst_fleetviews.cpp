// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 32 in the window: the timeline's aggregate bands above a threshold of runs (counted from the known
// fixture session: attempts/s, goodput/s, runs waiting per bucket) and the Herd tab's fleet comparison
// (measured against simulated, from what `retrylab fleet --compare-herd --json` prints).
#include "herd/fleetcomparisonresult.h"
#include "herd/fleetcomparisonview.h"
#include "herd/herdview.h"
#include "live/legendstrip.h"
#include "live/timelineaggregate.h"
#include "live/timelinebandschart.h"
#include "livefixture.h"
#include "timelineview.h"

#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

using namespace Qt::StringLiterals;

namespace {

// The shape FleetComparison::json writes, inside the fleet report as "compare_herd".
const char* const kFleetReport = R"({
  "policy": "openai-node", "runs": 4185,
  "compare_herd": {
    "apart": { "amplification": 0.0425, "attempts_per_s": -0.3612, "goodput_per_s": -0.4093,
               "worst_second": 7, "worst_second_attempts_per_s": 1167 },
    "measured": { "amplification": 1.06, "attempts_per_s": 552.0, "goodput_per_s": 508.5,
      "series": { "attempts_per_s": [554, 146, 120, 116, 401, 652, 761, 1686, 0, 0],
                  "goodput_per_s": [504, 96, 0, 0, 338, 651, 761, 1686, 50, 0] } },
    "simulated": { "amplification": 1.105, "attempts_per_s": 352.6, "goodput_per_s": 300.4,
      "series": { "attempts_per_s": [559, 136, 146, 105, 324, 509, 523, 519],
                  "goodput_per_s": [509, 86, 0, 0, 260, 506, 523, 519] } }
  }
})";

} // namespace

class TestFleetViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bucketWidths_data();
    void bucketWidths();
    void aggregateCountsTheRecordedSession();
    void aggregateOfNothingIsEmpty();
    void timelineSwitchesToBandsAboveThreshold();
    void bandsZoomPanAndTellTheirValues();
    void fleetResultReadsTheReport();
    void fleetResultWithoutComparisonIsAProblem();
    void herdViewShowsFleetComparison();
};

void TestFleetViews::bucketWidths_data()
{
    QTest::addColumn<double>("span");
    QTest::addColumn<double>("bucket");
    QTest::addRow("8 s session: 0.1 s buckets") << 8.0 << 0.1;
    QTest::addRow("60 s: 0.5 s") << 60.0 << 0.5;
    QTest::addRow("100 s: 1 s") << 100.0 << 1.0;
    QTest::addRow("an hour: 50 s") << 3600.0 << 50.0;
    QTest::addRow("nothing: the least, 0.1 s") << 0.0 << 0.1;
}

void TestFleetViews::bucketWidths()
{
    QFETCH(double, span);
    QFETCH(double, bucket);
    QCOMPARE(TimelineAggregate::bucketFor(span), bucket);
    QVERIFY(span / TimelineAggregate::bucketFor(span) <= 120);
}

// The fixture: attempts start at 0, 10, 290 and 1060 ms (run 3's is still in flight: not counted); run 1
// succeeds at 1120 ms; run 1 waits 60–1060 ms, run 2 90–290 ms.
void TestFleetViews::aggregateCountsTheRecordedSession()
{
    LiveSession live;
    live.setRefreshInterval(0);
    livefixture::fill(live);
    const TimelineAggregate a = TimelineAggregate::of(live, 1.0);
    QCOMPARE(a.startS, 0.0);
    QCOMPARE(a.bucketCount(), 2);
    QCOMPARE(a.attempts, 4);
    QCOMPARE(a.attemptsPerS, (QList<double> { 3, 1 }));
    QCOMPARE(a.succeeded, 1);
    QCOMPARE(a.goodputPerS, (QList<double> { 0, 1 }));
    QCOMPARE(a.waits, 2);
    QCOMPARE_LT(std::abs(a.runsWaiting.at(0) - 1.14), 1e-9);
    QCOMPARE_LT(std::abs(a.runsWaiting.at(1) - 0.06), 1e-9);
    // Half-second buckets: a rate a second is the count over the width.
    const TimelineAggregate half = TimelineAggregate::of(live, 0.5);
    QCOMPARE(half.bucketCount(), 3);
    QCOMPARE(half.attemptsPerS, (QList<double> { 6, 0, 2 }));
    QCOMPARE(half.goodputPerS, (QList<double> { 0, 0, 2 }));
}

void TestFleetViews::aggregateOfNothingIsEmpty()
{
    LiveSession live;
    QVERIFY(TimelineAggregate::of(live).isEmpty());
}

void TestFleetViews::timelineSwitchesToBandsAboveThreshold()
{
    LiveSession live;
    live.setRefreshInterval(0);
    TimelineView timeline(&live);
    timeline.resize(900, 500);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QCOMPARE(timeline.bandThreshold(), TimelineView::kDefaultBandThreshold);
    QVERIFY(timeline.isShowingPlaceholder());
    livefixture::fill(live);
    QCOMPARE(timeline.laneCount(), 3);
    QVERIFY(!timeline.isShowingBands()); // 3 runs: lanes
    QVERIFY(!timeline.bandsChart()); // made when first needed

    timeline.bandThresholdBox()->setValue(2); // as the user does
    QVERIFY(timeline.isShowingBands());
    const TimelineBandsChart* bands = timeline.bandsChart();
    QVERIFY(bands);
    QVERIFY(bands->isVisible());
    QVERIFY(timeline.legendLabels().contains(u"Goodput/s"_s));
    QVERIFY(!timeline.legendLabels().contains(u"Succeeded"_s));
    QCOMPARE(bands->aggregate().attempts, 4);
    QCOMPARE(bands->aggregate().succeeded, 1);
    // Two points a bucket (a step), for each of the three bands.
    const qsizetype buckets = bands->aggregate().bucketCount();
    QVERIFY(buckets > 0);
    QCOMPARE(bands->attemptsSeries()->count(), buckets * 2);
    QCOMPARE(bands->goodputSeries()->count(), buckets * 2);
    QCOMPARE(bands->waitingSeries()->count(), buckets * 2);
    // The same time axis as the lanes had; Reset zoom still fits the session.
    timeline.resetZoom();
    QCOMPARE(bands->timeAxis()->min(), timeline.layoutState().t0);
    QCOMPARE(bands->timeAxis()->max(), timeline.layoutState().t1);

    timeline.setBandThreshold(3); // not more than 3 runs: lanes again
    QVERIFY(!timeline.isShowingBands());
    QVERIFY(timeline.legendLabels().contains(u"Succeeded"_s));
    QVERIFY(!timeline.isShowingPlaceholder());
    live.clear();
    QVERIFY(timeline.isShowingPlaceholder());
}

// The bands share the lanes' time axis: the wheel zooms it about the time under the pointer, a drag pans it, and
// hovering tells the bucket's values (0.1 s buckets for the fixture's 1.12 s: in the first, the attempts at 0
// and 10 ms make 20/s, and run 1's wait from 60 ms and run 2's from 90 ms overlap it by 40 + 10 ms: 0.5 runs).
void TestFleetViews::bandsZoomPanAndTellTheirValues()
{
    LiveSession live;
    live.setRefreshInterval(0);
    TimelineView timeline(&live);
    timeline.resize(900, 500);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    livefixture::fill(live);
    timeline.setBandThreshold(2);
    QVERIFY(timeline.isShowingBands());
    TimelineBandsChart* bands = timeline.bandsChart();
    timeline.resetZoom();
    QCoreApplication::processEvents();

    QCOMPARE(bands->aggregate().bucketS, 0.1);
    const QLocale locale;
    const QString first = bands->describeBucket(0);
    QVERIFY2(first.startsWith(locale.toString(0.0, 'f', 1) + u"–"_s + locale.toString(0.1, 'f', 1) + u" s"_s), qPrintable(first));
    QVERIFY2(first.contains(u"Attempts: %1/s"_s.arg(locale.toString(20.0, 'f', 1))), qPrintable(first));
    QVERIFY2(first.contains(u"Goodput: %1/s"_s.arg(locale.toString(0.0, 'f', 1))), qPrintable(first));
    QVERIFY2(first.contains(u"Runs waiting: %1"_s.arg(locale.toString(0.5, 'f', 1))), qPrintable(first));
    QVERIFY(bands->describeBucket(bands->aggregate().bucketCount()).isEmpty());

    const QRectF plot = bands->chart()->plotArea();
    const auto at = [&](double share) {
        return bands->mapFromScene(bands->chart()->mapToScene(QPointF(plot.left() + plot.width() * share, plot.center().y())));
    };
    // Hover: the bucket under the pointer, as a tooltip.
    const QPoint middle = at(0.5);
    const std::optional<double> under = bands->timeAt(middle);
    QVERIFY(under);
    QCOMPARE(bands->describeAt(middle),
        bands->describeBucket(qsizetype(std::floor((*under - bands->aggregate().startS) / bands->aggregate().bucketS))));
    QVERIFY(bands->describeAt(bands->mapFromScene(bands->chart()->mapToScene(plot.topLeft() - QPointF(20, 20)))).isEmpty());
    QHelpEvent help(QEvent::ToolTip, middle, bands->viewport()->mapToGlobal(middle));
    QCoreApplication::sendEvent(bands->viewport(), &help);
    QTRY_COMPARE(QToolTip::text(), bands->describeAt(middle));

    // Wheel up at a quarter of the way: the span shrinks, the time under the pointer stays there.
    const QPoint quarter = at(0.25);
    const double t0 = timeline.layoutState().t0, t1 = timeline.layoutState().t1;
    const double anchor = *bands->timeAt(quarter);
    QWheelEvent wheel(quarter, bands->viewport()->mapToGlobal(quarter), QPoint(), QPoint(0, 240), Qt::NoButton,
        Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(bands->viewport(), &wheel);
    const double span = timeline.layoutState().t1 - timeline.layoutState().t0;
    QCOMPARE_LT(span, (t1 - t0) * 0.8);
    QCOMPARE(bands->timeAxis()->min(), timeline.layoutState().t0);
    QCOMPARE_LT(std::abs(*bands->timeAt(quarter) - anchor), span / plot.width() * 2); // within two pixels

    // Drag right by 60 px: earlier times come into view, by 60 px' worth of seconds.
    const double before = timeline.layoutState().t0;
    const double perPixel = bands->secondsPerPixel();
    QTest::mousePress(bands->viewport(), Qt::LeftButton, Qt::NoModifier, middle);
    QTest::mouseMove(bands->viewport(), middle + QPoint(30, 0));
    QTest::mouseMove(bands->viewport(), middle + QPoint(60, 0));
    QTest::mouseRelease(bands->viewport(), Qt::LeftButton, Qt::NoModifier, middle + QPoint(60, 0));
    const double moved = before - timeline.layoutState().t0;
    QVERIFY2(std::abs(moved - 60 * perPixel) < perPixel * 2 || timeline.layoutState().t0 == 0,
        qPrintable(u"moved %1 s, 60 px are %2 s"_s.arg(moved).arg(60 * perPixel)));
    QCOMPARE_GT(moved, 0.0);

    // Double-click: the whole session again (run 3 is still in flight, so its end has moved on since).
    QTest::mouseDClick(bands->viewport(), Qt::LeftButton, Qt::NoModifier, middle);
    QCOMPARE(timeline.layoutState().t0, t0);
    QCOMPARE_GE(timeline.layoutState().t1, t1);
}

void TestFleetViews::fleetResultReadsTheReport()
{
    QString error;
    const auto whole = FleetComparisonResult::fromJson(QJsonDocument::fromJson(kFleetReport).object(), &error);
    QVERIFY2(whole, qPrintable(error));
    QCOMPARE(whole->policy, u"openai-node"_s);
    QCOMPARE(whole->measured.attemptsSeries.size(), 10);
    QCOMPARE(whole->simulated.attemptsSeries.size(), 8);
    QCOMPARE(whole->measured.goodputSeries.at(7), 1686.0);
    QCOMPARE(whole->simulated.goodputSeries.at(4), 260.0);
    QCOMPARE(whole->worstSecond, 7);
    QCOMPARE(whole->attemptsGap, -0.3612);
    const QString gap = whole->gapText();
    QVERIFY2(gap.contains(u"attempts/s -36 %"_s), qPrintable(gap));
    QVERIFY2(gap.contains(u"goodput/s -41 %"_s), qPrintable(gap));
    QVERIFY2(gap.contains(u"amplification +4 %"_s), qPrintable(gap));
    QVERIFY2(gap.contains(u"second 7, 1167 attempts/s apart"_s), qPrintable(gap));
    // The "compare_herd" object alone reads the same.
    const QJsonObject inner = QJsonDocument::fromJson(kFleetReport).object().value(u"compare_herd"_s).toObject();
    const auto alone = FleetComparisonResult::fromJson(inner, &error);
    QVERIFY(alone);
    QCOMPARE(alone->measured.attemptsSeries, whole->measured.attemptsSeries);
}

void TestFleetViews::fleetResultWithoutComparisonIsAProblem()
{
    QString error;
    QVERIFY(!FleetComparisonResult::fromJson(QJsonObject { { u"runs"_s, 10 } }, &error));
    QVERIFY2(error.contains(u"--compare-herd"_s), qPrintable(error));
    QTemporaryDir dir;
    QVERIFY(!FleetComparisonResult::read(dir.filePath(u"missing.json"_s), &error));
    QVERIFY(!error.isEmpty());
}

void TestFleetViews::herdViewShowsFleetComparison()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"fleet-result.json"_s);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kFleetReport);
    }
    HerdView herd;
    herd.resize(1200, 700);
    herd.show();
    QVERIFY(QTest::qWaitForWindowExposed(&herd));
    QVERIFY(!herd.isShowingFleet());
    QCOMPARE(herd.openFleetResult(path), QString());
    QVERIFY(herd.isShowingFleet());
    const FleetComparisonView* fleet = herd.fleetView();
    QVERIFY(fleet->isVisible());
    const QList<QLineSeries*> series = fleet->series();
    QCOMPARE(series.size(), 4);
    QCOMPARE(series.at(0)->count(), 10); // measured attempts/s, a point a second
    QCOMPARE(series.at(1)->count(), 8); // simulated
    QCOMPARE(series.at(0)->at(7), QPointF(7.5, 1686));
    QCOMPARE(series.at(3)->at(4), QPointF(4.5, 260));
    QVERIFY(fleet->gapLabel()->text().contains(u"-36 %"_s));
    QVERIFY(fleet->gapLabel()->isVisible());
    QCOMPARE(fleet->legend()->labels(), (QStringList { u"Attempts/s measured"_s, u"Attempts/s simulated"_s,
                                            u"Goodput/s measured"_s, u"Goodput/s simulated"_s }));
    QVERIFY(fleet->chartView()->height() > 200);

    // A file with no comparison: said in the status line, the comparison shown stays.
    const QString bad = dir.filePath(u"plain.json"_s);
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"runs": 3})");
    }
    QVERIFY(!herd.openFleetResult(bad).isEmpty());
    QVERIFY(herd.isShowingFleet());
    herd.setFleetVisible(false);
    QVERIFY(!herd.isShowingFleet());
    QVERIFY(!fleet->isVisible());
}

QTEST_MAIN(TestFleetViews)
#include "tst_fleetviews.moc"
