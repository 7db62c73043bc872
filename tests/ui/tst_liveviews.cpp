// SPDX-License-Identifier: GPL-3.0-or-later
// The four live views on a LiveSession fed with known records: the items and points each holds, the
// placeholder on an empty session, clear(), the timeline's selection both ways and its tooltips.
#include "delaychartview.h"
#include "livefixture.h"
#include "ratelimitchartview.h"
#include "summaryview.h"
#include "timelineview.h"

#include <QtCharts/QChartView>

#include <QApplication>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QTabWidget>
#include <QTest>

using namespace livefixture;

class TestLiveViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptySession();
    void timeline();
    void timelineSelection();
    void timelineFitsShortSessions();
    void delays();
    void rateLimits();
    void summary();
    void clearResets();
    void createdAfterData();
};

void TestLiveViews::emptySession()
{
    LiveSession session;
    TimelineView timeline(&session);
    DelayChartView delays(&session);
    RateLimitChartView limits(&session);
    SummaryView summary(&session);
    for (QWidget* w : std::initializer_list<QWidget*> { &timeline, &delays, &limits, &summary }) {
        w->resize(1400, 800);
        w->show();
    }
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QVERIFY(timeline.isShowingPlaceholder());
    QVERIFY(delays.isShowingPlaceholder());
    QVERIFY(limits.isShowingPlaceholder());
    QVERIFY(summary.isShowingPlaceholder());
    QCOMPARE(timeline.segmentCount(), 0);
    QCOMPARE(delays.pointCount(), 0);
    QCOMPARE(limits.trackCount(), 0);
    timeline.resetZoom();
    timeline.selectAttempt(1, 1); // unknown run: ignored
    session.flush();
    session.clear();
    QVERIFY(timeline.isShowingPlaceholder());
}

void TestLiveViews::timeline()
{
    LiveSession session;
    TimelineView view(&session);
    view.resize(1400, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    fill(session);
    QVERIFY(!view.isShowingPlaceholder());
    QCOMPARE(view.laneCount(), 3);
    QCOMPARE(view.segmentCount(), 13);
    QCOMPARE(view.waitCount(), 2);
    QCOMPARE(view.outcomeCount(), 2);
    QCOMPARE(view.labTickCount(), 5);
    QVERIFY(view.followLive());
    view.resetZoom();
    QTRY_VERIFY(view.layoutState().plot.width() > 600);
    QVERIFY(view.layoutState().t0 <= 0.0);
    QVERIFY(view.layoutState().t1 >= 1.12);
    const QString attemptTip = view.toolTipAt(view.viewportPosFor(0.030, 0));
    QVERIFY2(attemptTip.contains(QStringLiteral("Run 1 · attempt 1")), qPrintable(attemptTip));
    const QString waitTip = view.toolTipAt(view.viewportPosFor(0.5, 0));
    QVERIFY2(waitTip.contains(QStringLiteral("wait before attempt 2")), qPrintable(waitTip));
    const QString tlsTip = view.toolTipAt(view.viewportPosFor(0.020, 1));
    QVERIFY2(tlsTip.contains(QStringLiteral("TLS handshake")), qPrintable(tlsTip));
    QVERIFY(view.toolTipAt(QPoint(1, 1)).isEmpty());
}

// Issue 15 item 7: a 0.5 s session was a sliver of a 10 s axis, and zooming out showed negative time.
void TestLiveViews::timelineFitsShortSessions()
{
    LiveSession session;
    TimelineView view(&session);
    view.resize(1400, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    fill(session); // 0 – 1.12 s
    QVERIFY(view.followLive());
    const TimelineLayout& l = view.layoutState();
    QVERIFY2(l.t0 >= 0 && l.t1 >= 1.12 && l.t1 - l.t0 < 1.5, qPrintable(QStringLiteral("%1 – %2").arg(l.t0).arg(l.t1)));
    view.setTimeRange(-5, 5); // as far out as a zoom would go
    QCOMPARE(view.layoutState().t0, 0.0);
    QCOMPARE(view.layoutState().t1, 10.0);
    view.resetZoom();
    QVERIFY(view.layoutState().t0 >= 0.0);
    QVERIFY(view.layoutState().t1 - view.layoutState().t0 < 1.5);
}

void TestLiveViews::timelineSelection()
{
    LiveSession session;
    TimelineView view(&session);
    view.resize(1400, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    fill(session);
    view.resetZoom();
    QTRY_VERIFY(view.layoutState().plot.width() > 600);
    QSignalSpy selected(&view, &TimelineView::attemptSelected);
    auto* chartView = view.findChild<QChartView*>();
    QVERIFY(chartView);
    QWidget* viewport = chartView->viewport();
    QTest::mouseClick(viewport, Qt::LeftButton, {}, view.viewportPosFor(1.09, 0));
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().at(0).toInt(), 1);
    QCOMPARE(selected.first().at(1).toInt(), 2);
    // Selecting from outside (the attempts table) does not echo back, and turns following off.
    view.selectAttempt(2, 2);
    QCOMPARE(selected.size(), 1);
    QVERIFY(!view.followLive());
    const TimelineLayout& l = view.layoutState();
    QVERIFY(l.t0 <= 0.29 && l.t1 >= 0.32);
    // Dragging pans; the wheel zooms around the cursor.
    const double span = l.t1 - l.t0;
    QWheelEvent wheel(QPointF(700, 300), viewport->mapToGlobal(QPointF(700, 300)), {}, QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &wheel);
    QVERIFY(view.layoutState().t1 - view.layoutState().t0 < span);
}

void TestLiveViews::delays()
{
    LiveSession session;
    DelayChartView view(&session);
    view.resize(1400, 800);
    view.show();
    fill(session);
    QVERIFY(!view.isShowingPlaceholder());
    QCOMPARE(view.pointCount(), 2);
    QCOMPARE(view.backoffPointCount(), 1);
    QCOMPARE(view.serverPointCount(), 1);
    QCOMPARE(view.envelopePointCount(), 4); // default policy: 3 attempts → retries 1 and 2, two points each
    view.tabs()->setCurrentIndex(1);
    QCOMPARE(view.histogramBinCount(), 11);
    QCOMPARE(view.histogramTotal(), 2);
}

void TestLiveViews::rateLimits()
{
    LiveSession session;
    RateLimitChartView view(&session);
    view.resize(1400, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    fill(session);
    QVERIFY(!view.isShowingPlaceholder());
    QCOMPARE(view.trackCount(), 1);
    QCOMPARE(view.sampleCount(), 2);
    QCOMPARE(view.rejectionCount(), 1);
    QCOMPARE(view.remainingPointCount(0), 4); // two samples as steps, held to the last reset
    QTRY_COMPARE(view.resetMarkerCount(), 2);
    bool named = false;
    for (const QString& name : view.legendNames())
        named = named || name.contains(QStringLiteral("(ietf-draft-11)"));
    QVERIFY2(named, qPrintable(view.legendNames().join(u'|')));
}

void TestLiveViews::summary()
{
    LiveSession session;
    SummaryView view(&session);
    fill(session);
    view.refreshNow();
    QVERIFY(!view.isShowingPlaceholder());
    QVERIFY2(view.tileText(QStringLiteral("success")).startsWith(QStringLiteral("50.0 %")),
             qPrintable(view.tileText(QStringLiteral("success"))));
    QVERIFY(view.tileText(QStringLiteral("p50")).startsWith(QStringLiteral("310 ms")));
    QVERIFY(view.tileText(QStringLiteral("amplification")).startsWith(QStringLiteral("×1.33")));
    QVERIFY(view.tileText(QStringLiteral("server")).startsWith(QStringLiteral("1\n")));
    QCOMPARE(view.outcomeRowCount(), 2);
}

void TestLiveViews::clearResets()
{
    LiveSession session;
    TimelineView timeline(&session);
    DelayChartView delays(&session);
    RateLimitChartView limits(&session);
    SummaryView summary(&session);
    fill(session);
    session.clear();
    QCOMPARE(timeline.laneCount(), 0);
    QCOMPARE(timeline.segmentCount(), 0);
    QVERIFY(timeline.isShowingPlaceholder());
    QCOMPARE(delays.pointCount(), 0);
    QCOMPARE(delays.envelopePointCount(), 0);
    QVERIFY(delays.isShowingPlaceholder());
    QCOMPARE(limits.trackCount(), 0);
    QCOMPARE(limits.rejectionCount(), 0);
    QVERIFY(limits.isShowingPlaceholder());
    QCOMPARE(summary.summary().runs, 0);
    QVERIFY(summary.isShowingPlaceholder());
    fill(session); // and fills again
    QCOMPARE(timeline.segmentCount(), 13);
    QCOMPARE(delays.pointCount(), 2);
    QCOMPARE(limits.trackCount(), 1);
}

void TestLiveViews::createdAfterData()
{
    LiveSession session;
    fill(session);
    TimelineView timeline(&session);
    DelayChartView delays(&session);
    RateLimitChartView limits(&session);
    SummaryView summary(&session);
    QCOMPARE(timeline.segmentCount(), 13);
    QCOMPARE(delays.pointCount(), 2);
    QCOMPARE(limits.sampleCount(), 2);
    QCOMPARE(summary.summary().finishedRuns, 2);
}

QTEST_MAIN(TestLiveViews)
#include "tst_liveviews.moc"
