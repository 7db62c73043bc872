// SPDX-License-Identifier: GPL-3.0-or-later
// What the views show of a pipeline circuit breaker (issue 28 §4), on a session fed as a batch feeds it:
// the breaker's band under the lanes (closed, open, half-open, closed again) drawn in its colours at the
// right times, with tooltips; a refused call as a mark where it was refused and no bar on the wire; a wait
// for the half-open verdict as its own phase; the attempts table and detail pane saying "not sent"; the
// summary's calls refused and time open, only for a session with a breaker; and a recording played back
// shows the breaker as it was at the playhead, then whole as the live one showed it.
//
//   run 1  attempt 1 0–50 ms, connection reset: the breaker opens at 50 (1 failure in 1 call, break 1 s);
//          retry after 300 ms: attempt 2 refused at 350 (700 ms left); retry after 800 ms: the breaker went
//          half-open at 1050, attempt 3 (1150–1450, 200) is its probe, and it closes at 1450
//   run 2  attempt 1 refused at 400 (650 ms left): final circuit-open
//   run 3  attempt 1 waits for the half-open verdict 1410–1450, then 1450–1500, 200
#include "live/phasespans.h"
#include "livefeed.h"
#include "run/answerwords.h"
#include "run/attemptdetailpane.h"
#include "run/attemptspage.h"
#include "run/attemptstablemodel.h"
#include "sessions/sessionfeeder.h"
#include "summaryview.h"
#include "timelineview.h"
#include "viewsdata.h"

#include "session/sessionplayback.h"

#include <QtCharts/QChartView>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using State = CircuitBreaker::State;
const QString kPolicy = u"cockatiel-3"_s;

MonoTime at(double ms)
{
    return MonoTime(qint64(ms * 1e6));
}

RunRecord run(int id, double startedMs)
{
    RunRecord r;
    r.runId = id;
    r.policy.name = kPolicy;
    r.startedAt = at(startedMs);
    return r;
}

AttemptRecord sent(int runId, int index, double started, double finished)
{
    AttemptRecord a;
    a.runId = runId;
    a.index = index;
    a.method = u"GET"_s;
    a.url = QUrl(u"http://127.0.0.1:8080/x"_s);
    a.at.scheduled = a.at.started = at(started);
    a.at.connecting = at(started + 1);
    a.at.requestSent = at(started + 2);
    a.at.finished = at(finished);
    a.phaseReached = AttemptPhase::Finished;
    return a;
}

AttemptRecord refused(int runId, int index, double atMs, Millis left)
{
    AttemptRecord a;
    a.runId = runId;
    a.index = index;
    a.method = u"GET"_s;
    a.url = QUrl(u"http://127.0.0.1:8080/x"_s);
    a.at.scheduled = a.at.finished = at(atMs);
    a.phaseReached = AttemptPhase::Scheduled;
    a.refused = StrategyRefusal { StrategyRefusal::By::CircuitBreaker, u"client"_s, State::Open, left };
    return a;
}

RetryDecision retry(Millis delay)
{
    RetryDecision d;
    d.verdict = Verdict::Retry;
    d.delay = delay;
    d.source = DelaySource::Backoff;
    d.reason = u"retried by the fixture"_s;
    return d;
}

RetryDecision final(Verdict verdict, FinalKind kind)
{
    RetryDecision d;
    d.verdict = verdict;
    d.finalKind = kind;
    d.reason = u"final by the fixture"_s;
    return d;
}

BreakerChange change(double ms, State from, State to, CircuitBreaker::Counts window, Millis breakFor = Millis(0))
{
    return BreakerChange { kPolicy, u"client"_s, at(ms), from, to, window, breakFor };
}

void finish(LiveFeed& feed, RunRecord r, double ms, FinalKind kind)
{
    r.finishedAt = at(ms);
    r.outcome = kind;
    r.reason = u"final by the fixture"_s;
    feed.onRunFinished(r);
}

// Into FEED, in the order a batch reports it.
void fill(LiveFeed& feed)
{
    const RunRecord r1 = run(1, 0);
    const RunRecord r2 = run(2, 400);
    const RunRecord r3 = run(3, 1410);
    feed.onRunStarted(r1);
    AttemptRecord a11 = sent(1, 1, 0, 50);
    a11.error = ErrorClass::ConnectionLost;
    a11.decision = retry(Millis(300));
    feed.onAttemptStarted(a11);
    feed.onAttemptFinished(a11);
    feed.onBreakerChanged(change(50, State::Closed, State::Open, { 1, 1 }, Millis(1000)));

    AttemptRecord a12 = refused(1, 2, 350, Millis(700));
    a12.decision = retry(Millis(800));
    feed.onAttemptStarted(a12);
    feed.onAttemptFinished(a12);

    feed.onRunStarted(r2);
    AttemptRecord a21 = refused(2, 1, 400, Millis(650));
    a21.decision = final(Verdict::Stop, FinalKind::CircuitOpen);
    feed.onAttemptStarted(a21);
    feed.onAttemptFinished(a21);
    finish(feed, r2, 400, FinalKind::CircuitOpen);

    feed.onBreakerChanged(change(1050, State::Open, State::HalfOpen, { 1, 1 }));
    AttemptRecord a13 = sent(1, 3, 1150, 1450);
    a13.at.headersReceived = at(1440);
    a13.status = 200;
    a13.decision = final(Verdict::Success, FinalKind::Success);
    feed.onAttemptStarted(a13);
    feed.onRunStarted(r3);
    feed.onAttemptFinished(a13);
    feed.onBreakerChanged(change(1450, State::HalfOpen, State::Closed, { 1, 0 }));
    finish(feed, r1, 1450, FinalKind::Success);

    AttemptRecord a31 = sent(3, 1, 1450, 1500);
    a31.at.verdictWait = at(1410);
    a31.at.headersReceived = at(1490);
    a31.status = 200;
    a31.decision = final(Verdict::Success, FinalKind::Success);
    feed.onAttemptStarted(a31);
    feed.onAttemptFinished(a31);
    finish(feed, r3, 1500, FinalKind::Success);
    feed.flush();
}

QList<TimelineMark> marksOf(const TimelineModel& model, int lane)
{
    QList<TimelineMark> marks;
    for (const TimelineMark& m : model.lane(lane))
        marks << m;
    return marks;
}

// Whether a pixel of IMAGE within RADIUS of P is within TOLERANCE of COLOR (per channel).
bool colourNear(const QImage& image, QPoint p, int radius, const QColor& color, int tolerance = 24)
{
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const QColor c = image.pixelColor(p + QPoint(dx, dy));
            if (std::abs(c.red() - color.red()) <= tolerance && std::abs(c.green() - color.green()) <= tolerance
                && std::abs(c.blue() - color.blue()) <= tolerance)
                return true;
        }
    }
    return false;
}

} // namespace

class TestBreakerViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void phaseSpans();
    void model();
    void timelineDrawsThem();
    void tableAndDetail();
    void attemptsPageFitsRefusals();
    void summary();
    void playback();
};

// A wait for the verdict is a phase before the wire; a refused call has no span on the wire at all.
void TestBreakerViews::phaseSpans()
{
    AttemptTimestamps waited;
    waited.verdictWait = at(100);
    waited.started = at(140);
    waited.finished = at(180);
    const QList<PhaseSpan> spans = attemptPhaseSpans(waited);
    QVERIFY(!spans.isEmpty());
    QCOMPARE(spans.first(), (PhaseSpan { TimelinePhase::VerdictWait, 100, 140 }));
    QVERIFY(isWirePhase(spans.at(1).phase));

    AttemptTimestamps queuedToo = waited;
    queuedToo.queued = at(120);
    QCOMPARE(attemptPhaseSpans(queuedToo).first(), (PhaseSpan { TimelinePhase::VerdictWait, 100, 120 }));
    QCOMPARE(attemptPhaseSpans(queuedToo).at(1), (PhaseSpan { TimelinePhase::Queued, 120, 140 }));

    AttemptTimestamps refusedAfterWaiting;
    refusedAfterWaiting.scheduled = refusedAfterWaiting.verdictWait = at(100);
    refusedAfterWaiting.finished = at(130);
    QCOMPARE(attemptPhaseSpans(refusedAfterWaiting), (QList<PhaseSpan> { { TimelinePhase::VerdictWait, 100, 130 } }));

    AttemptTimestamps refusedAtOnce;
    refusedAtOnce.scheduled = refusedAtOnce.finished = at(100);
    QVERIFY(attemptPhaseSpans(refusedAtOnce).isEmpty());
}

void TestBreakerViews::model()
{
    LiveSession live;
    live.setRefreshInterval(0);
    ViewsData views(&live);
    LiveFeed feed(live);
    fill(feed);
    const TimelineModel& model = views.timeline();

    // The band: closed until it opened at 50, open until 1050, half-open until 1450, closed since.
    QCOMPARE(model.breakers().count(), 1);
    const BreakerBand& band = model.breakers().band(0);
    QCOMPARE(band.policy, kPolicy);
    QCOMPARE(band.scope, u"client"_s);
    QCOMPARE(band.segments.size(), 4);
    const auto stateAt = [&](double ms) {
        const int i = model.breakers().segmentAt(0, ms);
        return i < 0 ? -1 : int(band.segments.at(i).state);
    };
    QCOMPARE(stateAt(20), int(State::Closed));
    QCOMPARE(stateAt(50), int(State::Open));
    QCOMPARE(stateAt(700), int(State::Open));
    QCOMPARE(stateAt(1049.9), int(State::Open));
    QCOMPARE(stateAt(1200), int(State::HalfOpen));
    QCOMPARE(stateAt(1460), int(State::Closed));
    QCOMPARE(band.segments.first().change, -1); // the state before the first change
    QCOMPARE(band.segments.last().endMs, BreakerSegment::kNoEnd);
    QCOMPARE(model.breakers().firstEndingAfter(0, 1100), 2);

    // Refused calls: a mark at the moment each was refused, and no span of theirs at all (no wire bar).
    QCOMPARE(model.refusedCount(), 2);
    bool refusedMark = false;
    for (const TimelineMark& m : marksOf(model, 0)) {
        if (m.kind == TimelineMark::Kind::Refused) {
            QCOMPARE(m.attempt, 2);
            QCOMPARE(m.startMs, 350.0);
            refusedMark = true;
        }
        QVERIFY2(!(m.kind == TimelineMark::Kind::Phase && m.attempt == 2), "a refused call has no bar");
    }
    QVERIFY(refusedMark);
    const QList<TimelineMark> run2 = marksOf(model, 1);
    QVERIFY(std::none_of(run2.cbegin(), run2.cend(), [](const TimelineMark& m) { return m.kind == TimelineMark::Kind::Phase; }));
    QVERIFY(std::any_of(run2.cbegin(), run2.cend(),
        [](const TimelineMark& m) { return m.kind == TimelineMark::Kind::Refused && m.startMs == 400.0; }));
    // The wait for the verdict: its own phase, before the wire.
    QCOMPARE(model.verdictWaitCount(), 1);
    const QList<TimelineMark> run3 = marksOf(model, 2);
    QVERIFY(std::any_of(run3.cbegin(), run3.cend(), [](const TimelineMark& m) {
        return m.kind == TimelineMark::Kind::Phase && TimelinePhase(m.detail) == TimelinePhase::VerdictWait
            && m.startMs == 1410.0 && m.endMs == 1450.0;
    }));
    QVERIFY(model.hasBreakerMarks());

    // Hovering the refused mark finds it (not the run's outcome drawn beside it).
    const std::optional<TimelineHit> hit = model.hitTest(1, 400, 20);
    QVERIFY(hit);
    QCOMPARE(hit->mark.kind, TimelineMark::Kind::Refused);
    QVERIFY2(model.describe(*hit, live).contains(u"not sent — circuit open (650 ms left)"_s), qPrintable(model.describe(*hit, live)));
    const std::optional<TimelineHit> outcome = model.hitTest(1, 428, 20); // drawn past the mark
    QVERIFY(outcome);
    QCOMPARE(outcome->mark.kind, TimelineMark::Kind::Outcome);
    const QString tip = model.describeBreaker(0, 1, live);
    QVERIFY2(tip.contains(u"Open from 0.050 s to 1.050 s"_s) && tip.contains(u"1 failure(s) in 1 call(s)"_s)
            && tip.contains(u"Break: 1 s"_s),
        qPrintable(tip));
}

void TestBreakerViews::timelineDrawsThem()
{
    LiveSession live;
    live.setRefreshInterval(0);
    TimelineView view(&live);
    view.resize(1400, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    LiveFeed feed(live);
    fill(feed);
    view.resetZoom();
    QTRY_VERIFY(view.layoutState().plot.width() > 600);
    QCOMPARE(view.breakerBandCount(), 1);
    QCOMPARE(view.refusedCount(), 2);
    // The bands sit under the lanes: the lanes' area ends above them.
    const TimelineLayout& l = view.layoutState();
    QVERIFY(l.lanesArea().bottom() <= l.yForBand(0));
    QVERIFY(l.yForBand(0) + l.bandHeight <= l.plot.bottom() + 0.5);

    auto* chartView = view.findChild<QChartView*>();
    QVERIFY(chartView);
    const QImage image = chartView->viewport()->grab().toImage();
    const ChartPalette palette = ChartPalette::fromPalette(view.palette());
    // The band's colour at given times (away from its label at the left and the state's name in the middle).
    const auto rgb = [&](QPoint p) { return image.pixel(p) & 0xffffffu; };
    QCOMPARE(rgb(view.viewportPosForBand(0.30, 0)), palette.breakerOpen.rgb() & 0xffffffu);
    QCOMPARE(rgb(view.viewportPosForBand(0.95, 0)), palette.breakerOpen.rgb() & 0xffffffu);
    QCOMPARE(rgb(view.viewportPosForBand(1.10, 0)), palette.breakerHalfOpen.rgb() & 0xffffffu);
    QCOMPARE(rgb(view.viewportPosForBand(1.49, 0)), palette.breakerClosed.rgb() & 0xffffffu);
    // The refused call: its mark where it was refused, and nothing in a wire phase's colour around it.
    const QPoint mark = view.viewportPosFor(0.350, 0);
    QVERIFY(colourNear(image, mark, 4, palette.refused));
    const double half = l.laneHeight / 2;
    for (int dy = int(-half) + 1; dy < int(half); ++dy) {
        for (int dx = -4; dx <= 4; ++dx) {
            const QRgb c = rgb(mark + QPoint(dx, dy));
            for (const QColor& wire : { palette.connect, palette.tls, palette.firstByte, palette.download })
                QVERIFY2(c != (wire.rgb() & 0xffffffu), qPrintable(u"a wire colour at %1, %2"_s.arg(dx).arg(dy)));
        }
    }
    QVERIFY(colourNear(image, view.viewportPosFor(0.400, 1), 4, palette.refused));
    // The wait for the verdict, in its own colour.
    QCOMPARE(rgb(view.viewportPosFor(1.430, 2)), palette.verdictWait.rgb() & 0xffffffu);
    QCOMPARE(rgb(view.viewportPosFor(1.475, 2)), palette.firstByte.rgb() & 0xffffffu); // then on the wire

    // Tooltips: the band's segment, the refused call.
    const QString bandTip = view.toolTipAt(view.viewportPosForBand(0.30, 0));
    QVERIFY2(bandTip.contains(u"Open from 0.050 s to 1.050 s"_s), qPrintable(bandTip));
    const QString closedTip = view.toolTipAt(view.viewportPosForBand(1.49, 0));
    QVERIFY2(closedTip.contains(u"Closed since 1.450 s"_s), qPrintable(closedTip));
    const QString markTip = view.toolTipAt(mark);
    QVERIFY2(markTip.contains(u"not sent — circuit open (700 ms left)"_s), qPrintable(markTip));
    // The legend names what is drawn.
    const QStringList legend = view.legendLabels();
    for (const QString& label : { u"Not sent: refused by the breaker"_s, u"Breaker: closed, open, half-open"_s,
             timelinePhaseName(TimelinePhase::VerdictWait) })
        QVERIFY2(legend.contains(label), qPrintable(label));

    // Clicking the refused mark selects its attempt.
    QSignalSpy selected(&view, &TimelineView::attemptSelected);
    QTest::mouseClick(chartView->viewport(), Qt::LeftButton, {}, mark);
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().at(0).toInt(), 1);
    QCOMPARE(selected.first().at(1).toInt(), 2);

    // Without a breaker, no band and no breaker entries in the legend.
    live.clear();
    QCOMPARE(view.breakerBandCount(), 0);
    QVERIFY(!view.legendLabels().contains(u"Breaker: closed, open, half-open"_s));
    QVERIFY(!view.legendLabels().contains(u"Not sent: refused by the breaker"_s));
}

void TestBreakerViews::tableAndDetail()
{
    LiveSession live;
    live.setRefreshInterval(0);
    AttemptsTableModel table(&live);
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    LiveFeed feed(live);
    fill(feed);
    QCOMPARE(table.rowCount(), 5);
    const int row = table.rowOf(1, 2);
    QVERIFY(row >= 0);
    QCOMPARE(table.index(row, AttemptsTableModel::Result).data().toString(), u"not sent — circuit open (700 ms left)"_s);
    QCOMPARE(table.index(row, AttemptsTableModel::Start).data().toString(), u"0.350 s"_s);
    QVERIFY(table.index(row, AttemptsTableModel::Duration).data().toString().isEmpty());
    QVERIFY(table.index(row, AttemptsTableModel::Result).data(Qt::FontRole).value<QFont>().italic());
    const int waited = table.rowOf(3, 1);
    const QString tip = table.index(waited, AttemptsTableModel::Result).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"waited 40 ms for the half-open circuit's verdict"_s), qPrintable(tip));
    QCOMPARE(table.index(waited, AttemptsTableModel::Result).data().toString(), u"200"_s);

    AttemptDetailPane pane;
    pane.showAttempt(*table.attemptAt(row));
    const QString text = pane.toPlainText();
    QVERIFY2(text.contains(u"Not sent"_s) && text.contains(u"never reached the wire"_s), qPrintable(text));
    QVERIFY2(text.contains(u"The client's circuit breaker was open at 0.350 s"_s), qPrintable(text));
    QVERIFY2(!text.contains(u"new connection"_s), qPrintable(text)); // no answer, no connection
    pane.showAttempt(*table.attemptAt(waited));
    QVERIFY2(pane.toPlainText().contains(u"waited 40 ms for the half-open circuit's verdict"_s), qPrintable(pane.toPlainText()));
}

// The Attempts tab widens its Result column once for a refused call's words, rather than cutting them.
void TestBreakerViews::attemptsPageFitsRefusals()
{
    LiveSession live;
    live.setRefreshInterval(0);
    AttemptsPage page(&live);
    const int before = page.table()->columnWidth(AttemptsTableModel::Result);
    LiveFeed feed(live);
    feed.onRunStarted([] {
        RunRecord r = run(1, 0);
        ResilienceStrategy breaker;
        breaker.kind = ResilienceStrategy::Kind::CircuitBreaker;
        r.policy.pipeline = { breaker };
        return r;
    }());
    AttemptRecord a = refused(1, 1, 10, Millis(4200));
    a.decision = final(Verdict::Stop, FinalKind::CircuitOpen);
    feed.onAttemptFinished(a);
    feed.flush();
    const QString text = page.model()->index(0, AttemptsTableModel::Result).data().toString();
    QCOMPARE(text, u"not sent — circuit open (4.2 s left)"_s);
    const int width = page.table()->columnWidth(AttemptsTableModel::Result);
    QVERIFY2(width > before && width >= page.table()->fontMetrics().horizontalAdvance(text),
        qPrintable(u"%1 → %2"_s.arg(before).arg(width)));
}

void TestBreakerViews::summary()
{
    LiveSession live;
    live.setRefreshInterval(0);
    SummaryView view(&live);
    view.resize(1200, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.isShowingBreaker());
    LiveFeed feed(live);
    fill(feed);
    view.refreshNow();
    QVERIFY(view.isShowingBreaker());
    const SessionSummary s = view.summary();
    QCOMPARE(s.refusedByBreaker, 2);
    QCOMPARE(s.breakerOpenings, 1);
    QCOMPARE(s.breakerOpenMs, 1400.0); // open or half-open from 50 to 1450
    QVERIFY2(view.tileText(u"refused"_s).startsWith(u"2\n"_s), qPrintable(view.tileText(u"refused"_s)));
    QVERIFY2(view.tileText(u"open"_s).startsWith(u"1.40 s\n"_s), qPrintable(view.tileText(u"open"_s)));
    QCOMPARE(view.tileText(u"refused"_s), u"2\nnever sent, refused by cockatiel-3 · client"_s);
    QCOMPARE(view.tileText(u"open"_s), u"1.40 s\nopen or half-open; opened 1×, now closed"_s);

    // A session without a breaker has no breaker figures.
    live.clear();
    LiveFeed plain(live);
    plain.onRunStarted(run(1, 0));
    AttemptRecord a = sent(1, 1, 0, 30);
    a.status = 200;
    a.decision = final(Verdict::Success, FinalKind::Success);
    plain.onAttemptFinished(a);
    plain.flush();
    view.refreshNow();
    QVERIFY(!view.isShowingBreaker());
    QVERIFY(!view.summary().hasBreaker);
}

// A recording played back shows the breaker as it was at the playhead; shown whole, what the live one showed.
void TestBreakerViews::playback()
{
    LiveSession recorded;
    recorded.setRefreshInterval(0);
    ViewsData live(&recorded);
    LiveFeed feed(recorded);
    fill(feed);
    const QStringList shown = live.lines();
    QVERIFY2(shown.contains(u"timeline breaker cockatiel-3 · client: closed 0.000-50.000 #-1, open 50.000-1050.000 #0, "
                            "half-open 1050.000-1450.000 #1, closed 1450.000-now #2"_s),
        qPrintable(shown.join(u'\n')));

    LiveSession reopened;
    reopened.setRefreshInterval(0);
    ViewsData views(&reopened);
    SessionFeeder feeder(feed.sharedSession(), &reopened);
    feeder.playback()->seek(qint64(600e6));
    reopened.flush();
    QCOMPARE(reopened.breakerChangeCount(), 1);
    const BreakerBands& bands = views.timeline().breakers();
    QCOMPARE(bands.count(), 1);
    QCOMPARE(bands.band(0).segments.size(), 2); // closed, then open since 50 ms, nothing later yet
    QCOMPARE(bands.band(0).segments.last().state, State::Open);
    QCOMPARE(views.timeline().bandEndMs(), 600.0);
    SessionSummaryBuilder summary;
    summary.update(reopened, LiveSessionDelta {});
    QCOMPARE(summary.summary().breakerOpenMs, 550.0); // open from 50 ms to the playhead
    QCOMPARE(summary.summary().refusedByBreaker, 2); // at 350 and 400 ms

    feeder.showAll();
    reopened.flush();
    const QStringList opened = views.lines();
    QCOMPARE(opened, shown);
    // And back again: going back rebuilds the views up to the playhead.
    feeder.playback()->seek(qint64(200e6));
    reopened.flush();
    QCOMPARE(reopened.breakerChangeCount(), 1);
    QCOMPARE(views.timeline().refusedCount(), 0);
}

QTEST_MAIN(TestBreakerViews)
#include "tst_breakerviews.moc"
