// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineLayout: time ↔ pixel and lane ↔ pixel mapping, zoom, pan and tick steps, the breaker bands' strip
// under the lanes; and that the mapping agrees with QChart::mapToPosition for the axes the timeline configures.
#include "live/timelinelayout.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QTest>

Q_DECLARE_METATYPE(TimelineLayout)

class TestTimelineLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mapping_data();
    void mapping();
    void zoomKeepsAnchor_data();
    void zoomKeepsAnchor();
    void panAndClamp();
    void follow();
    void tickStep_data();
    void tickStep();
    void agreesWithChart();
    void breakerBands();
    void copyRows_data();
    void copyRows();
};

static TimelineLayout layout(QRectF plot, double t0, double t1, double laneTop, double laneHeight)
{
    TimelineLayout l;
    l.plot = plot;
    l.t0 = t0;
    l.t1 = t1;
    l.laneTop = laneTop;
    l.laneHeight = laneHeight;
    return l;
}

void TestTimelineLayout::mapping_data()
{
    QTest::addColumn<TimelineLayout>("l");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("lane");
    QTest::addColumn<double>("y");
    const TimelineLayout base = layout(QRectF(100, 50, 800, 400), 0, 10, 0, 20);
    QTest::addRow("origin: t0 at the left edge, lane 0 at the top") << base << 0.0 << 100.0 << 0.0 << 50.0;
    QTest::addRow("end of range at the right edge") << base << 10.0 << 900.0 << 20.0 << 450.0;
    QTest::addRow("middle") << base << 5.0 << 500.0 << 10.0 << 250.0;
    QTest::addRow("before the range maps left of the plot") << base << -1.0 << 20.0 << -1.0 << 30.0;
    const TimelineLayout shifted = layout(QRectF(0, 0, 1000, 300), 2.5, 3.0, 4.5, 30);
    QTest::addRow("zoomed to half a second, scrolled 4.5 lanes") << shifted << 2.75 << 500.0 << 4.5 << 0.0;
    QTest::addRow("lane 6 is 1.5 lanes below the top") << shifted << 3.0 << 1000.0 << 6.0 << 45.0;
}

void TestTimelineLayout::mapping()
{
    QFETCH(TimelineLayout, l);
    QFETCH(double, seconds);
    QFETCH(double, x);
    QFETCH(double, lane);
    QFETCH(double, y);
    QCOMPARE(l.xForTime(seconds), x);
    QCOMPARE(l.timeForX(x), seconds);
    QCOMPARE(l.yForLane(lane), y);
    QCOMPARE(l.laneForY(y), lane);
}

void TestTimelineLayout::zoomKeepsAnchor_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("anchorX");
    QTest::addColumn<double>("t0");
    QTest::addColumn<double>("t1");
    QTest::addRow("zoom in 2× at the centre") << 2.0 << 500.0 << 2.5 << 7.5;
    QTest::addRow("zoom in 2× at the left edge") << 2.0 << 100.0 << 0.0 << 5.0;
    QTest::addRow("zoom out 2× at the right edge") << 0.5 << 900.0 << -10.0 << 10.0;
    QTest::addRow("zoom in 1e9× stops at the minimum span") << 1e9 << 500.0 << 4.9995 << 5.0005;
}

void TestTimelineLayout::zoomKeepsAnchor()
{
    QFETCH(double, factor);
    QFETCH(double, anchorX);
    QFETCH(double, t0);
    QFETCH(double, t1);
    const TimelineLayout l = layout(QRectF(100, 50, 800, 400), 0, 10, 0, 20);
    const TimelineLayout z = l.zoomedX(factor, anchorX);
    QCOMPARE(z.t0, t0);
    QCOMPARE(z.t1, t1);
    QCOMPARE(z.timeForX(anchorX), l.timeForX(anchorX));
}

void TestTimelineLayout::panAndClamp()
{
    const TimelineLayout l = layout(QRectF(0, 0, 1000, 200), 0, 10, 5, 20); // 10 lanes visible
    const TimelineLayout p = l.panned(100, 40); // drag right by 1 s and down by 2 lanes
    QCOMPARE(p.t0, -1.0);
    QCOMPARE(p.t1, 9.0);
    QCOMPARE(p.laneTop, 3.0);
    QCOMPARE(l.firstVisibleLane(), 5);
    QCOMPARE(l.lastVisibleLane(), 14);
    QCOMPARE(l.clampedLanes(12).laneTop, 2.0); // 12 lanes, 10 visible: the top is at most lane 2
    QCOMPARE(l.clampedLanes(4).laneTop, 0.0); // everything fits
    QCOMPARE(l.panned(0, 200).clampedLanes(100).laneTop, 0.0); // never above lane 0
}

void TestTimelineLayout::follow()
{
    const TimelineLayout l = layout(QRectF(0, 0, 1000, 200), 0, 10, 0, 20);
    const TimelineLayout f = l.followingEnd(42);
    QCOMPARE(f.t0, 32.0);
    QCOMPARE(f.t1, 42.0);
    // Never before the session's start: a window reaching below 0 s is shifted, its span kept.
    const TimelineLayout early = layout(QRectF(0, 0, 1000, 200), -3, 7, 0, 20).clampedTime(0);
    QCOMPARE(early.t0, 0.0);
    QCOMPARE(early.t1, 10.0);
    const TimelineLayout late = layout(QRectF(0, 0, 1000, 200), 2, 7, 0, 20).clampedTime(0);
    QCOMPARE(late.t0, 2.0);
}

void TestTimelineLayout::tickStep_data()
{
    QTest::addColumn<double>("span");
    QTest::addColumn<int>("ticks");
    QTest::addColumn<double>("step");
    QTest::addColumn<int>("decimals");
    QTest::addRow("7 s in 8 ticks: 1 s") << 7.0 << 8 << 1.0 << 0;
    QTest::addRow("60 s in 10 ticks: 10 s") << 60.0 << 10 << 10.0 << 0;
    QTest::addRow("1.2 s in 8 ticks: 0.2 s") << 1.2 << 8 << 0.2 << 1;
    QTest::addRow("0.3 s in 10 ticks: 0.05 s") << 0.3 << 10 << 0.05 << 2;
    QTest::addRow("exactly 1 per tick stays 1") << 10.0 << 10 << 1.0 << 0;
    QTest::addRow("degenerate span gives 1") << 0.0 << 10 << 1.0 << 0;
}

void TestTimelineLayout::tickStep()
{
    QFETCH(double, span);
    QFETCH(int, ticks);
    QFETCH(double, step);
    QFETCH(int, decimals);
    QCOMPARE(niceTickStep(span, ticks), step);
    QCOMPARE(decimalsForStep(step), decimals);
}

void TestTimelineLayout::agreesWithChart()
{
    QGraphicsScene scene;
    auto* chart = new QChart;
    scene.addItem(chart);
    auto* series = new QLineSeries;
    chart->addSeries(series);
    auto* x = new QValueAxis;
    auto* y = new QCategoryAxis;
    y->setReverse(true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->resize(900, 500);
    TimelineLayout l;
    l.t0 = 2;
    l.t1 = 12;
    l.laneTop = 3;
    l.laneHeight = 25;
    chart->layout()->activate();
    QTRY_VERIFY(chart->plotArea().height() > 100);
    l.plot = chart->plotArea();
    x->setRange(l.t0, l.t1);
    y->setRange(l.laneTop, l.laneTop + l.visibleLanes());
    for (const QPointF p : { QPointF(2, 3), QPointF(7.5, 4.5), QPointF(12, 6), QPointF(3.25, 8) }) {
        const QPointF mapped = chart->mapToPosition(p, series);
        QVERIFY2(qAbs(mapped.x() - l.xForTime(p.x())) < 0.01, qPrintable(QString::number(mapped.x())));
        QVERIFY2(qAbs(mapped.y() - l.yForLane(p.y())) < 0.01, qPrintable(QString::number(mapped.y())));
    }
}

// The breaker bands take the bottom of the plot area: the lanes end above them (fewer fit) and a y there is
// a band's, not a lane's.
void TestTimelineLayout::breakerBands()
{
    TimelineLayout l = layout(QRectF(0, 0, 800, 400), 0, 10, 0, 20);
    QCOMPARE(l.bandsHeight(), 0.0);
    QCOMPARE(l.lanesArea(), l.plot);
    QCOMPARE(l.bandForY(399), -1);
    l.bands = 2;
    l.bandHeight = 18;
    QCOMPARE(l.bandsHeight(), 2 * 18 + 4.0); // and a gap above them
    QCOMPARE(l.lanesArea(), QRectF(0, 0, 800, 400 - 40));
    QCOMPARE(l.visibleLanes(), 360 / 20.0);
    QCOMPARE(l.yForBand(0), 364.0);
    QCOMPARE(l.yForBand(1), 382.0);
    QCOMPARE(l.bandForY(363), -1); // the gap
    QCOMPARE(l.bandForY(364), 0);
    QCOMPARE(l.bandForY(381.9), 0);
    QCOMPARE(l.bandForY(390), 1);
    QCOMPARE(l.bandForY(401), -1);
    QCOMPARE(l.clampedLanes(30).laneTop, 0.0);
    l.laneTop = 100;
    QCOMPARE(l.clampedLanes(30).laneTop, 30 - 18.0); // the last lane ends at the bands, not at the plot's bottom
}
// A hedged request's copies: one row each, inside the lane, in order, apart; a plain attempt in the middle.
void TestTimelineLayout::copyRows_data()
{
    QTest::addColumn<int>("rows");
    QTest::addRow("plain attempt: the lane's middle") << 0;
    QTest::addRow("one copy: as a plain attempt") << 1;
    QTest::addRow("two copies (one hedge)") << 2;
    QTest::addRow("three copies") << 3;
    QTest::addRow("six copies (the most rows drawn)") << 6;
}

void TestTimelineLayout::copyRows()
{
    QFETCH(int, rows);
    if (rows <= 1) {
        QCOMPARE(copyRowInLane(0, rows), (std::pair<double, double> { 0.22, 0.78 }));
        QCOMPARE(copyRowInLane(5, rows), copyRowInLane(0, rows));
        return;
    }
    double above = 0;
    for (int row = 0; row < rows; ++row) {
        const auto [top, bottom] = copyRowInLane(row, rows);
        QVERIFY(top > above); // below the previous row, with a gap
        QVERIFY(bottom > top);
        QVERIFY(bottom < 1.0);
        above = bottom;
    }
    QCOMPARE(copyRowInLane(-1, rows), copyRowInLane(0, rows)); // clamped, never outside the lane
    QCOMPARE(copyRowInLane(rows, rows), copyRowInLane(rows - 1, rows));
}

QTEST_MAIN(TestTimelineLayout)
#include "tst_timelinelayout.moc"
