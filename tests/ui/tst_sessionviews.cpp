// SPDX-License-Identifier: GPL-3.0-or-later
// Saved sessions in the views: the feeder shows a session all at once or event by event (playback), the
// compare model ranks B against A measure by measure, the compare view keeps both timelines on one time
// axis, and views export as PNG and SVG.
#include "live/timelinemodel.h"
#include "live/wholesessiondelta.h"
#include "livesession.h"
#include "live/ratelimitseries.h"
#include "ratelimitchartview.h"
#include "run/attemptstablemodel.h"
#include "sessions/chartexport.h"
#include "sessions/comparemodel.h"
#include "sessions/compareview.h"
#include "sessions/playbackbar.h"
#include "sessions/requestdifference.h"
#include "sessions/sessionfeeder.h"
#include "timelineview.h"

#include "../core/session/sessiontestdata.h"

#include "session/sessionplayback.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QTableView>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

std::shared_ptr<const Session> makeSession(int runs, int attemptsPerRun)
{
    return std::make_shared<const Session>(SessionTestData::session(runs, attemptsPerRun));
}

ReplayTotals totals(int runs, int succeeded, int attempts, qint64 totalMs, qint64 waitingMs, int applied)
{
    ReplayTotals t;
    t.runs = runs;
    t.succeeded = succeeded;
    t.attempts = attempts;
    t.amplification = runs ? double(attempts) / runs : 0;
    t.totalMs = totalMs;
    t.waitingMs = waitingMs;
    t.operationsApplied = applied;
    return t;
}

int rowOf(const CompareModel& model, const QString& measure)
{
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, CompareModel::Measure).data().toString() == measure)
            return r;
    }
    return -1;
}

} // namespace

class TestSessionViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The rate-limit chart reads only what it plots from the packed rows: the same samples and tracks as the
    // whole records give.
    void rateLimitChartReadsTheStoreAsTheRecordsSay()
    {
        const auto session = makeSession(20, 4);
        LiveSession live;
        live.setRefreshInterval(0);
        RateLimitChartView view(&live);
        SessionFeeder feeder(session, &live);
        feeder.showAll();
        live.flush();
        RateLimitSeries expected;
        for (qsizetype i = 0; i < live.finishedAttempts(); ++i)
            expected.add(live.attemptRecord(i), live.wallOriginUtc());
        QVERIFY(expected.sampleCount() > 0);
        QCOMPARE(view.sampleCount(), int(expected.sampleCount()));
        QTRY_COMPARE(view.trackCount(), int(expected.tracks().size()));
        const QString host = expected.tracks().first().host; // the URL, read once per distinct URL id
        QCOMPARE(host, u"127.0.0.1:8080"_s);
        QVERIFY2(view.legendNames().join(u'\n').contains(u"Remaining — "_s + host), qPrintable(view.legendNames().join(u", "_s)));
    }

    // Views once stopped at 200 000 attempts, each copied as a full record. Now a session of any size is
    // shown whole, read from the session's own store: rows, not copies.
    void everyAttemptOfABigSessionIsShown()
    {
        const int runs = 52000; // 208 000 attempts
        const auto session = makeSession(runs, 4);
        LiveSession live;
        live.setRefreshInterval(0);
        AttemptsTableModel table(&live);
        QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SessionFeeder feeder(session, &live);
        feeder.showAll();
        live.flush();
        QCOMPARE(live.finishedAttempts(), session->attemptCount());
        QCOMPARE(live.finishedAttempts(), qsizetype(208000));
        QCOMPARE(live.session(), session.get());
        QVERIFY2(live.attemptBytes() <= qsizetype(sizeof(quint32)) * 2 * live.finishedAttempts(),
            qPrintable(QString::number(live.attemptBytes()))); // the row numbers alone
        QCOMPARE(table.rowCount(), 208000);
        const int last = table.rowCount() - 1;
        QCOMPARE(table.index(last, AttemptsTableModel::Run).data().toInt(), live.attempt(last).runId());
        QCOMPARE(table.index(last, AttemptsTableModel::Attempt).data().toInt(), live.attempt(last).index());
        QCOMPARE(table.rowOf(runs, 4), last);
        TimelineModel timeline;
        timeline.update(live, wholeSessionDelta(live));
        QCOMPARE(timeline.laneCount(), runs);
        QVERIFY(timeline.segmentCount() >= 208000);
        QCOMPARE(timeline.waitCount(), runs * 3);
        QCOMPARE(timeline.outcomeCount(), runs);
    }

    void feederShowsEveryAttemptRunAndWait()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        const auto session = makeSession(3, 4);
        SessionFeeder feeder(session, &live);
        QCOMPARE(live.finishedAttempts(), qsizetype(0));
        feeder.showAll();
        QCOMPARE(live.finishedAttempts(), qsizetype(12));
        QCOMPARE(live.runs().size(), 3);
        QCOMPARE(live.waits().size(), 9); // three retries per run
        QVERIFY(live.inFlight().isEmpty());
        for (const RunProgress& r : live.runs()) {
            QCOMPARE(r.attemptCount, 4); // the facts say how many; the attempts are held once, in the store
            QCOMPARE(live.attemptCount(live.runIndex(r.runId)), 4);
            QCOMPARE(live.lastAttemptFinished(live.runIndex(r.runId)), session->runRecord(live.runIndex(r.runId)).attempts.last().at.finished);
            QCOMPARE(r.outcome, session->runs.at(live.runIndex(r.runId)).outcome);
        }
        // The attempts are the recorded ones, field for field where the views look.
        const AttemptRecord shown = live.attemptRecord(0);
        const AttemptRecord recorded = session->attempt(0, 0);
        QCOMPARE(shown.at.finished, recorded.at.finished);
        QCOMPARE(shown.status, recorded.status);
        QCOMPARE(shown.decision->delay, recorded.decision->delay);
        QCOMPARE(shown.attemptId, recorded.attemptId);
        QCOMPARE(live.attempt(0).row(), qsizetype(session->runs.at(0).rows.at(0))); // the session's own row, not a copy
        QCOMPARE(live.session(), session.get());
    }

    void playbackStepsForwardAndBackward()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        SessionFeeder feeder(makeSession(1, 2), &live);
        feeder.showNone();
        SessionPlayback* p = feeder.playback();
        p->stepForward(); // attempt 1 started
        QCOMPARE(live.inFlight().size(), 1);
        QCOMPARE(live.finishedAttempts(), qsizetype(0));
        p->stepForward(); // attempt 1 finished
        QCOMPARE(live.finishedAttempts(), qsizetype(1));
        QCOMPARE(live.inFlight().size(), 0);
        p->stepBackward(); // undo: rebuilt up to the cursor
        QCOMPARE(live.finishedAttempts(), qsizetype(0));
        QCOMPARE(live.inFlight().size(), 1);
        feeder.showAll();
        QCOMPARE(live.finishedAttempts(), qsizetype(2));
        feeder.showNone();
        QCOMPARE(live.finishedAttempts(), qsizetype(0));
        QCOMPARE(live.runs().size(), 0);
    }

    // A seek draws in flight only the attempts still running at its target: one that finishes within the
    // same move is shown finished, without ever being in flight (opening a file shows every attempt so).
    void seekDrawsInFlightOnlyWhatStillRuns()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        SessionFeeder feeder(makeSession(1, 2), &live);
        SessionPlayback* p = feeder.playback();
        feeder.showNone();
        // Attempt 1 runs 11.000–11.042 s, attempt 2 from 12.000 s.
        p->seek(qint64(11020) * 1000000);
        QCOMPARE(live.inFlight().size(), 1);
        QCOMPARE(live.inFlight().first().index, 1);
        QCOMPARE(live.finishedAttempts(), qsizetype(0));
        p->seek(qint64(12020) * 1000000); // attempt 1 finishes, attempt 2 starts: both within this move
        QCOMPARE(live.finishedAttempts(), qsizetype(1));
        QCOMPARE(live.inFlight().size(), 1);
        QCOMPARE(live.inFlight().first().index, 2);
        QCOMPARE(live.inFlight().first().at.started, feeder.session().attempts.timestamps(1).started);
        feeder.showNone();
        p->seek(qint64(11500) * 1000000); // from the start past attempt 1's end: it never was in flight here
        QCOMPARE(live.finishedAttempts(), qsizetype(1));
        QVERIFY(live.inFlight().isEmpty());
        QCOMPARE(live.runs().size(), 1); // its run started all the same
        QCOMPARE(live.waits().size(), 1);
    }

    // Issue 15 item 4: at 3.1 s of a recording the success at 9.5 s was drawn, and the "now" line was not
    // where the slider was. Playback shows what had happened by the playhead, on the playhead's clock.
    void playbackShowsOnlyThePast()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        TimelineView view(&live);
        view.resize(900, 400);
        SessionFeeder feeder(makeSession(1, 2), &live);
        SessionPlayback* p = feeder.playback();
        feeder.showNone();
        // Attempt 1 ran 11.000–11.042 s, then a 901 ms wait; attempt 2 at 12.000 s ends the run at 12.042 s.
        p->seek(qint64(11500) * 1000000);
        QCOMPARE(live.nowMs(), 11500.0);
        QCOMPARE(live.runs().size(), 1);
        QCOMPARE(live.runs().first().outcome, FinalKind::None);
        QVERIFY(!live.runs().first().finishedAt);
        QCOMPARE(view.outcomeCount(), 0);
        QCOMPARE(view.waitCount(), 1);
        QVERIFY2(view.contentEndSeconds() <= 11.5, qPrintable(QString::number(view.contentEndSeconds())));
        QCOMPARE(view.nowSeconds(), 11.5); // the line is where the slider is
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTimeRange(10.9, 12.5);
        QVERIFY2(view.toolTipAt(view.viewportPosFor(11.3, 0)).contains(u"wait"_s), "the wait so far is drawn");
        QVERIFY2(view.toolTipAt(view.viewportPosFor(11.9, 0)).isEmpty(), "nothing is drawn after the playhead");
        p->seek(qint64(12100) * 1000000);
        QCOMPARE(view.outcomeCount(), 1);
        QCOMPARE(live.runs().first().outcome, FinalKind::Success);
        QCOMPARE(view.nowSeconds(), 0.0); // nothing runs any more
    }

    void playbackAtSpeedReachesTheEnd()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        SessionFeeder feeder(makeSession(2, 2), &live);
        feeder.showNone();
        SessionPlayback* p = feeder.playback();
        // The synthetic session spans about 12 s; 1000× plays it in milliseconds.
        p->play(1000);
        QTRY_VERIFY_WITH_TIMEOUT(!p->isPlaying(), 5000);
        QCOMPARE(live.finishedAttempts(), qsizetype(4));
    }

    void alreadyShownFeederDoesNotFeedTwice()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        const auto session = makeSession(2, 3);
        {
            SessionFeeder first(session, &live);
            first.showAll();
        }
        QCOMPARE(live.finishedAttempts(), qsizetype(6));
        SessionFeeder again(session, &live, true);
        QCOMPARE(live.finishedAttempts(), qsizetype(6));
        QCOMPARE(again.playback()->cursor(), again.playback()->eventCount());
        again.playback()->stepBackward(); // the last run's end: open again, its attempts all shown
        QCOMPARE(live.finishedAttempts(), qsizetype(6));
        QCOMPARE(live.runs().outcome(1), FinalKind::None);
        QCOMPARE(live.runs().outcome(0), session->runs.at(0).outcome);
        again.playback()->stepBackward(); // its last attempt
        QCOMPARE(live.finishedAttempts(), qsizetype(5));
    }

    void playbackBarDrivesTheFeeder()
    {
        LiveSession live;
        live.setRefreshInterval(0);
        PlaybackBar bar;
        QVERIFY(!bar.findChild<QSlider*>()->isEnabled());
        SessionFeeder feeder(makeSession(2, 2), &live);
        bar.setFeeder(&feeder);
        QVERIFY(bar.findChild<QSlider*>()->isEnabled());
        bar.toStart();
        QCOMPARE(live.finishedAttempts(), qsizetype(0));
        bar.setSpeedIndex(3); // max
        bar.playPause();
        QCOMPARE(live.finishedAttempts(), qsizetype(4));
        bar.stepBackward(); // the last run's end
        QCOMPARE(live.finishedAttempts(), qsizetype(4));
        bar.stepBackward(); // its last attempt
        QCOMPARE(live.finishedAttempts(), qsizetype(3));
        bar.toStart();
        bar.stepForward();
        QCOMPARE(live.inFlight().size(), 1);
    }

    void compareModelRanksBAgainstA_data()
    {
        QTest::addColumn<QString>("measure");
        QTest::addColumn<int>("direction");
        QTest::addColumn<QString>("change");
        // A: 10 runs, 7 succeeded, 30 attempts, 20 s, 12 s waiting, 9 applied.
        // B: 10 runs, 9 succeeded, 24 attempts, 26 s, 18 s waiting, 9 applied.
        QTest::newRow("succeeded: more is better") << u"Succeeded"_s << +1 << u"+2 (+29 %)"_s;
        QTest::newRow("success rate in points") << u"Success rate"_s << +1 << u"+20.0 points"_s;
        QTest::newRow("attempts: fewer is better") << u"Attempts"_s << +1 << u"−6 (−20 %)"_s;
        QTest::newRow("amplification: lower is better") << u"Amplification"_s << +1 << u"−0.60 (−20 %)"_s;
        QTest::newRow("total time: longer is worse") << u"Total time"_s << -1 << u"+6 s (+30 %)"_s;
        QTest::newRow("waiting: longer is worse") << u"Time waiting"_s << -1 << u"+6 s (+50 %)"_s;
        QTest::newRow("applied: the same") << u"Operations applied"_s << 0 << u"same"_s;
        QTest::newRow("applied without success: fewer is better") << u"Applied, success not seen"_s << +1 << u"−2 (−100 %)"_s;
        QTest::newRow("runs: neither") << u"Runs compared"_s << 0 << u"same"_s;
    }

    void compareModelRanksBAgainstA()
    {
        QFETCH(QString, measure);
        QFETCH(int, direction);
        QFETCH(QString, change);
        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTotals(totals(10, 7, 30, 20000, 12000, 9), totals(10, 9, 24, 26000, 18000, 9));
        const int row = rowOf(model, measure);
        QVERIFY2(row >= 0, qPrintable(measure));
        QCOMPARE(model.direction(row), direction);
        QCOMPARE(model.index(row, CompareModel::Change).data(CompareModel::directionRole).toInt(), direction);
        QCOMPARE(model.index(row, CompareModel::Change).data().toString(), change);
    }

    // Issue 15 item 6: "+3 ms (+0 %)" was coloured red; small differences are not differences.
    void compareModelIgnoresNoise()
    {
        CompareModel model;
        model.setTotals(totals(100, 90, 1000, 745, 400, -1), totals(100, 90, 1005, 748, 401, -1));
        const int time = rowOf(model, u"Total time"_s);
        QCOMPARE(model.direction(time), 0);
        QCOMPARE(model.index(time, CompareModel::Change).data().toString(), u"+3 ms (+0.4 %)"_s);
        QCOMPARE(model.direction(rowOf(model, u"Attempts"_s)), 0); // 0.5 %
        model.setTotals(totals(100, 90, 1000, 745, 400, -1), totals(100, 90, 1100, 900, 401, -1));
        QCOMPARE(model.direction(rowOf(model, u"Total time"_s)), -1);
        QCOMPARE(model.direction(rowOf(model, u"Attempts"_s)), -1);
    }

    // Issue 15 item 6: "the first 3 of each" were compared, but A's total time was its whole session's.
    void comparisonTimesThePairedRunsOnly()
    {
        const auto a = makeSession(5, 2);
        const auto b = makeSession(2, 2);
        const ReplayComparison c = ReplayComparison::compare(*a, *b);
        QCOMPARE(c.runs.size(), 2);
        QCOMPARE(c.recorded.totalMs, c.replayed.totalMs); // the same first two runs
        QVERIFY(c.recorded.totalMs < 12000);
    }

    void compareWarnsOfDifferentRequests()
    {
        const auto a = makeSession(2, 2);
        Session other = SessionTestData::session(2, 2);
        QVERIFY(RequestDifference::describe(*a, other, 2).isEmpty());
        Session replay = other; // what an offline what-if replay records: run N sent to /replay/run-N
        for (qsizetype i = 0; i < replay.runs.size(); ++i) {
            replay.requests.append(replay.requests.at(replay.runs.at(i).request));
            replay.requests.last().url = QUrl(u"http://127.0.0.1:40000/replay/run-%1"_s.arg(a->runs.at(i).runId));
            replay.runs[i].request = replay.requests.size() - 1;
        }
        QVERIFY2(RequestDifference::describe(*a, replay, 2).isEmpty(), qPrintable(RequestDifference::describe(*a, replay, 2)));
        other.requests[0].method = u"GET"_s;
        other.requests[0].url = QUrl(u"http://127.0.0.1:9999/v1/items"_s);
        const QString text = RequestDifference::describe(*a, other, 2);
        QVERIFY2(text.contains(u"POST /v1/runs?token=abc&page=2"_s) && text.contains(u"GET /v1/items"_s), qPrintable(text));
        CompareView view;
        view.setSessions(a, u"recording"_s, std::make_shared<const Session>(other), u"other"_s);
        QVERIFY(view.warnsOfDifferentRequests());
        QVERIFY(view.title()->text().contains(u"different requests"_s));
        QCOMPARE(view.model()->headerData(CompareModel::SideB, Qt::Horizontal).toString(), u"B"_s);
        view.setSessions(a, u"recording"_s, makeSession(2, 2), u"again"_s);
        QVERIFY(!view.warnsOfDifferentRequests());
    }

    // Figures are never cut: the value columns are as wide as their (bold) contents.
    void compareFiguresFit()
    {
        CompareView view;
        view.resize(520, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSessions(makeSession(3, 2), u"a"_s, makeSession(3, 4), u"b"_s);
        QCoreApplication::processEvents();
        const QAbstractItemModel* m = view.table()->model();
        for (int c : { int(CompareModel::SideA), int(CompareModel::SideB), int(CompareModel::Change) }) {
            for (int r = 0; r < m->rowCount(); ++r) {
                QFont f = view.table()->font();
                if (m->index(r, c).data(Qt::FontRole).isValid())
                    f = m->index(r, c).data(Qt::FontRole).value<QFont>().resolve(f);
                const int need = QFontMetrics(f).horizontalAdvance(m->index(r, c).data().toString());
                QVERIFY2(view.table()->columnWidth(c) >= need, qPrintable(m->index(r, c).data().toString()));
            }
        }
    }

    void compareModelUnknownOperations()
    {
        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTotals(totals(2, 2, 4, 1000, 500, -1), totals(2, 2, 2, 900, 0, 3));
        const int row = rowOf(model, u"Operations applied"_s);
        QCOMPARE(model.index(row, CompareModel::SideA).data().toString(), u"unknown"_s);
        QCOMPARE(model.direction(row), 0);
        model.setSideNames(u"A: recorded"_s, u"B: replay"_s);
        QCOMPARE(model.headerData(CompareModel::SideB, Qt::Horizontal).toString(), u"B: replay"_s);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void compareViewKeepsOneTimeAxis()
    {
        CompareView view;
        view.resize(1000, 800);
        view.show();
        QVERIFY(view.isEmpty());
        view.setSessions(makeSession(3, 3), u"recorded"_s, makeSession(2, 2), u"replay"_s);
        QVERIFY(!view.isEmpty());
        QCOMPARE(view.timelineA()->laneCount(), 3);
        QCOMPARE(view.timelineB()->laneCount(), 2);
        QCOMPARE(view.model()->index(0, CompareModel::SideA).data().toString(), u"2"_s); // runs paired
        // Both show the same seconds, wide enough for the longer one.
        QCOMPARE(view.timelineA()->layoutState().t0, view.timelineB()->layoutState().t0);
        QCOMPARE(view.timelineA()->layoutState().t1, view.timelineB()->layoutState().t1);
        QVERIFY(view.timelineA()->layoutState().t1 >= view.timelineA()->contentEndSeconds());
        // Moving one moves the other.
        view.timelineA()->setTimeRange(1.0, 3.0);
        view.timelineA()->resetZoom();
        QCOMPARE(view.timelineB()->layoutState().t0, view.timelineA()->layoutState().t0);
        QCOMPARE(view.timelineB()->layoutState().t1, view.timelineA()->layoutState().t1);
        view.clear();
        QVERIFY(view.isEmpty());
        QCOMPARE(view.timelineA()->laneCount(), 0);
    }

    void viewsExportAsPngAndSvg()
    {
        QTemporaryDir dir;
        CompareView view;
        view.resize(900, 600);
        view.setSessions(makeSession(2, 2), u"a"_s, makeSession(2, 3), u"b"_s);
        QString error;
        const QString png = dir.filePath(u"compare.png"_s);
        QVERIFY2(ChartExport::save(&view, png, u"Compare"_s, u"two sessions"_s, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.width(), 1800); // twice the widget, for print
        QVERIFY(image.height() > 1200); // and a title band above it
        const QString svg = dir.filePath(u"compare.svg"_s);
        QVERIFY2(ChartExport::save(&view, svg, u"Compare"_s, u"two sessions"_s, &error), qPrintable(error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("<title>Compare</title>"));
        QVERIFY(text.size() > 2000);
        QVERIFY(!ChartExport::save(&view, dir.filePath(u"compare.gif"_s), u"x"_s, QString(), &error));
        QVERIFY(error.contains(u".png"_s));
        QVERIFY(!ChartExport::save(&view, u"/nonexistent-dir/x.png"_s, u"x"_s, QString(), &error));
        QVERIFY(error.contains(u"could not be written"_s));
    }

    // Issue 15 item 7: an exported timeline showed "Reset zoom", "Follow live" and the mouse hint.
    void exportsLeaveControlsOut()
    {
        QWidget view;
        view.setAutoFillBackground(true);
        QPalette white = view.palette();
        white.setColor(QPalette::Window, Qt::white);
        view.setPalette(white);
        auto* control = new QWidget(&view);
        control->setAutoFillBackground(true);
        QPalette red = control->palette();
        red.setColor(QPalette::Window, Qt::red);
        control->setPalette(red);
        control->setGeometry(10, 10, 50, 20);
        ChartExport::markControl(control);
        view.resize(200, 100);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = ChartExport::render(&view, u"Timeline"_s, u"run-1.json · policy slen"_s, 1.0)
                                 .convertToFormat(QImage::Format_RGB32);
        QVERIFY(image.height() > 100);
        int reds = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                reds += image.pixel(x, y) == qRgb(255, 0, 0);
        }
        QCOMPARE(reds, 0);
        QVERIFY(control->isVisible()); // back on screen after the export

        LiveSession live;
        TimelineView timeline(&live);
        int controls = 0;
        for (const QWidget* w : timeline.findChildren<QWidget*>())
            controls += ChartExport::isControl(w);
        QCOMPARE(controls, 5); // Reset zoom, Follow live, the Bands button, the hint, the lane scroll bar
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestSessionViews test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_sessionviews.moc"
