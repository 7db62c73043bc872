// SPDX-License-Identifier: GPL-3.0-or-later
// What the views show of hedging (issue 28 §4), from a real hedged batch: the engine under
// ms-http-hedging (its hedging delay 150 ms) sends a POST through the in-process fault lab, whose route
// answers in a loop: late (600 ms, 201), 201, 503, 201. One run at a time, so the runs alternate:
//   a "delay" run: copy 1 meets the late answer; after 150 ms copy 2 goes and wins at once; copy 1, still in
//                  flight, is lost (hedge-lost) — stored after copy 2, though it went first;
//   a "failure" run: copy 1 gets the 503, a failure to the hedging: copy 2 goes at once and wins.
// The timeline draws a delay run's copies overlapping, one row each in the run's lane, the winner and the
// loser told apart, with tooltips and clicks per copy; the attempts table and the detail pane say what each
// copy was; the summary counts hedges and the operation the lab applied twice; the session written and
// opened again shows the same; played back, copies in flight are drawn in their rows.
#include "livefeed.h"
#include "livesession.h"
#include "run/attemptdetailpane.h"
#include "run/attemptspage.h"
#include "run/attemptstablemodel.h"
#include "run/runcontroller.h"
#include "sessions/sessionfeeder.h"
#include "summaryview.h"
#include "timelineview.h"

#include "lab/scenarioloader.h"
#include "policy/presetcatalog.h"
#include "session/format/sessionfile.h"
#include "session/sessionplayback.h"

#include "testtime.h"
#include "viewsdata.h"

#include <QtCharts/QChartView>

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

FaultScenario slowPayment()
{
    const QByteArray json = R"({"format": 1, "name": "slow-payment", "routes": [{"name": "pay", "method": "POST",
        "path": "/pay", "operation": "charge", "idempotency": false, "mode": "loop", "steps": [
            {"kind": "late", "delay_ms": 600, "status": 201}, {"kind": "respond", "status": 201},
            {"kind": "respond", "status": 503}, {"kind": "respond", "status": 201}]}]})";
    const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(QJsonDocument::fromJson(json).object());
    if (!loaded.ok())
        qFatal("the test's scenario does not load: %s", qPrintable(loaded.problemText()));
    return *loaded.scenario;
}

// The runs of SESSION whose copy 2 went for TRIGGER, by id.
QList<int> runsWith(const Session& session, HedgeFacts::Trigger trigger)
{
    QList<int> ids;
    for (const SessionRun& run : session.runs) {
        for (const quint32 row : run.rows) {
            const StoredAttempt a(session.attempts, row);
            if (a.index() == 2 && a.hedge() && a.hedge()->trigger == trigger)
                ids << run.runId;
        }
    }
    return ids;
}

std::optional<StoredAttempt> copyOf(const Session& session, int runId, int index)
{
    const qsizetype run = session.runIndex(runId);
    if (run < 0)
        return std::nullopt;
    for (const quint32 row : session.runs.at(run).rows) {
        const StoredAttempt a(session.attempts, row);
        if (a.index() == index)
            return a;
    }
    return std::nullopt;
}

double ms(std::optional<MonoTime> t)
{
    return t ? toMs(*t) : -1.0;
}

QStringList reopenedLines(const QString& path)
{
    QString error;
    const std::shared_ptr<const Session> session = SessionFile::open(path, {}, &error);
    if (!session)
        qFatal("cannot open %s: %s", qPrintable(path), qPrintable(error));
    LiveSession live;
    live.setRefreshInterval(0);
    ViewsData views(&live);
    SessionFeeder feeder(session, &live);
    feeder.showAll();
    live.flush();
    return views.lines();
}

} // namespace

class TestHedgeViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void copiesOverlapInOneLane();
    void timelineDrawsAndPicksCopies();
    void tableWords_data();
    void tableWords();
    void tableSortsAndSelects();
    void summaryFigures();
    void reopenedShowsTheSame();
    void playbackDrawsCopiesInFlight();
    void plainRunsUnchanged();

private:
    LiveSession* live() const { return m_controller->session(); }
    const Session& session() const { return *live()->session(); }

    QTemporaryDir m_dir;
    std::unique_ptr<RunController> m_controller;
    std::unique_ptr<ViewsData> m_views;
    QString m_path;
    int m_delayRun = 0;
    int m_failureRun = 0;
};

void TestHedgeViews::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    m_controller = std::make_unique<RunController>(TestTime::instance().clock, TestTime::instance().scheduler);
    m_controller->setRecordingDirectory(m_dir.filePath(u"hedged"_s));
    live()->setRefreshInterval(0);
    m_views = std::make_unique<ViewsData>(live());
    QVERIFY(m_controller->startLab(u"flaky-api"_s));
    m_controller->applyScenario(slowPayment());
    QSignalSpy recorded(m_controller.get(), &RunController::batchRecorded);
    RunPlan plan;
    plan.request.method = u"POST"_s;
    plan.request.body = R"({"amount":5})";
    plan.request.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    plan.labPath = u"/pay"_s;
    const PolicyParseResult preset = PresetCatalog::load(u"ms-http-hedging"_s);
    QVERIFY(preset.ok());
    plan.policy = *preset.policy;
    bool hedging = false;
    for (ResilienceStrategy& s : plan.policy.pipeline) {
        if (s.kind == ResilienceStrategy::Kind::Hedging) {
            s.hedging.delay = Millis(150);
            hedging = true;
        }
    }
    QVERIFY(hedging);
    QVERIFY2(validate(plan.policy).isEmpty(), qPrintable(validate(plan.policy).value(0).message));
    plan.repeat = 4;
    plan.concurrency = 1;
    QVERIFY2(m_controller->run(plan), qPrintable(m_controller->lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->isRunning(), 30000);
    QCOMPARE(recorded.count(), 1);
    m_path = recorded.first().at(1).toString();
    QVERIFY(m_controller->waitForRecordings(30000));
    live()->flush();

    const QList<int> delayRuns = runsWith(session(), HedgeFacts::Trigger::Delay);
    const QList<int> failureRuns = runsWith(session(), HedgeFacts::Trigger::Failure);
    QVERIFY2(!delayRuns.isEmpty() && !failureRuns.isEmpty(), qPrintable(m_views->lines().join(u'\n')));
    m_delayRun = delayRuns.first();
    m_failureRun = failureRuns.first();
}

// A delay run: two copies overlapping in time in the run's one lane, two rows, the winner and the lost copy.
void TestHedgeViews::copiesOverlapInOneLane()
{
    const TimelineModel& model = m_views->timeline();
    const int lane = live()->runIndex(m_delayRun);
    QVERIFY(lane >= 0);
    QCOMPARE(model.copyRows(lane), 2);
    QCOMPARE(model.laneCount(), 4); // one lane a logical request, copies included
    QVERIFY(model.hedgedCopyCount() >= 6);

    const std::optional<StoredAttempt> first = copyOf(session(), m_delayRun, 1);
    const std::optional<StoredAttempt> second = copyOf(session(), m_delayRun, 2);
    QVERIFY(first && second);
    QVERIFY2(second->row() < first->row(), "the winner is stored first: copies are stored as they end");
    QCOMPARE(first->abortReason(), AbortReason::HedgeLost);
    // They overlap: copy 2 went while copy 1 was in flight, and ended before copy 1 was cut off.
    QVERIFY(ms(first->started()) < ms(second->started()));
    QVERIFY(ms(second->started()) < ms(first->finished()));
    QVERIFY(ms(second->finished()) <= ms(first->finished()));

    int lostSpans = 0;
    int wonSpans = 0;
    for (const TimelineMark& m : model.lane(lane)) {
        if (m.kind != TimelineMark::Kind::Phase)
            continue;
        QVERIFY(m.hedge != 0);
        if (m.attempt == 1) {
            QCOMPARE(m.hedge, quint8(HedgeFacts::Trigger::First));
            QVERIFY(m.flags & TimelineMark::Lost);
            QVERIFY(!(m.flags & TimelineMark::Won));
            ++lostSpans;
        } else {
            QCOMPARE(m.attempt, 2);
            QCOMPARE(m.hedge, quint8(HedgeFacts::Trigger::Delay));
            QVERIFY(m.flags & TimelineMark::Won);
            ++wonSpans;
        }
    }
    QVERIFY(lostSpans > 0 && wonSpans > 0);
    QVERIFY(model.isHedgedCopy(lane, 1) && model.isHedgedCopy(lane, 2));

    // Where both are in flight, the row picks the copy; the tooltip says which copy it is, why it went, how it ended.
    const double mid = (ms(second->started()) + ms(second->finished())) / 2;
    const auto [top0, bottom0] = copyRowInLane(0, 2);
    const auto [top1, bottom1] = copyRowInLane(1, 2);
    QVERIFY(bottom0 < top1);
    const std::optional<TimelineHit> one = model.hitTest(lane, mid, 1, (top0 + bottom0) / 2);
    const std::optional<TimelineHit> two = model.hitTest(lane, mid, 1, (top1 + bottom1) / 2);
    QVERIFY(one && two);
    QCOMPARE(one->mark.attempt, 1);
    QCOMPARE(two->mark.attempt, 2);
    const QString tipTwo = model.describe(*two, *live());
    QVERIFY2(tipTwo.contains(u"copy 2: sent after the 150 ms hedging delay — won"_s), qPrintable(tipTwo));
    const QString tipOne = model.describe(*one, *live());
    QVERIFY2(tipOne.contains(u"copy 1: the request's first copy — lost to copy 2, cancelled in flight"_s), qPrintable(tipOne));
    QVERIFY2(!tipOne.contains(u"Answer:"_s), qPrintable(tipOne));

    // A failure run: copy 2 went at once after copy 1's 503.
    const int failureLane = live()->runIndex(m_failureRun);
    QCOMPARE(model.copyRows(failureLane), 2);
    const std::optional<StoredAttempt> failed = copyOf(session(), m_failureRun, 1);
    QVERIFY(failed);
    QCOMPARE(failed->status(), std::optional<int>(503));
    const std::optional<TimelineHit> failedHit
        = model.hitTest(failureLane, (ms(failed->started()) + ms(failed->finished())) / 2, 0.01, (top0 + bottom0) / 2);
    QVERIFY(failedHit);
    QVERIFY2(model.describe(*failedHit, *live()).contains(u"copy 1: the request's first copy — failed"_s),
        qPrintable(model.describe(*failedHit, *live())));
}

void TestHedgeViews::timelineDrawsAndPicksCopies()
{
    TimelineView view(live());
    view.resize(1400, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const std::optional<StoredAttempt> first = copyOf(session(), m_delayRun, 1);
    const std::optional<StoredAttempt> second = copyOf(session(), m_delayRun, 2);
    QVERIFY(first && second);
    // Around copy 2: copy 1 runs through the whole view in its row, copy 2 in the middle of its own.
    const double s2 = ms(second->started()) / 1000.0;
    const double f2 = ms(second->finished()) / 1000.0;
    const double pad = std::max(0.004, (f2 - s2));
    view.setTimeRange(s2 - pad, f2 + pad);
    QTRY_VERIFY(view.layoutState().plot.width() > 600);
    const int lane = live()->runIndex(m_delayRun);
    QVERIFY(view.legendLabels().contains(u"Hedged copy: won"_s));
    QVERIFY(view.legendLabels().contains(u"Hedged copy: lost (cancelled)"_s));

    auto* chartView = view.findChild<QChartView*>();
    QVERIFY(chartView);
    const QImage image = chartView->viewport()->grab().toImage();
    const ChartPalette palette = ChartPalette::fromPalette(view.palette());
    const double mid = (s2 + f2) / 2;
    const QPoint rowTwo = view.viewportPosForCopy(mid, lane, 2);
    const QPoint rowOne = view.viewportPosForCopy(mid, lane, 1);
    QVERIFY(rowOne.y() < rowTwo.y());
    // Both rows are drawn at the same moment: copy 2 in a wire phase's colour, copy 1 (lost) faded, not blank.
    const QRgb two = image.pixel(rowTwo) & 0xffffffu;
    bool wire = false;
    for (const QColor& c : { palette.connect, palette.tls, palette.firstByte, palette.download })
        wire = wire || two == (c.rgb() & 0xffffffu);
    QVERIFY2(wire, qPrintable(QColor(two).name()));
    int drawn = 0;
    for (int dx = -3; dx <= 3; ++dx) {
        const QRgb c = image.pixel(rowOne + QPoint(dx, 0)) & 0xffffffu;
        drawn += c != (palette.plotBackground.rgb() & 0xffffffu) && c != (palette.laneStripe.rgb() & 0xffffffu);
    }
    QVERIFY2(drawn >= 3, "the lost copy is drawn under the winner, not hidden by it");

    // Tooltips and clicks per row.
    QVERIFY2(view.toolTipAt(rowTwo).contains(u"— won"_s), qPrintable(view.toolTipAt(rowTwo)));
    QVERIFY2(view.toolTipAt(rowOne).contains(u"— lost to copy 2"_s), qPrintable(view.toolTipAt(rowOne)));
    QSignalSpy selected(&view, &TimelineView::attemptSelected);
    QTest::mouseClick(chartView->viewport(), Qt::LeftButton, {}, rowOne);
    QTest::mouseClick(chartView->viewport(), Qt::LeftButton, {}, rowTwo);
    QCOMPARE(selected.size(), 2);
    QCOMPARE(selected.at(0).at(0).toInt(), m_delayRun);
    QCOMPARE(selected.at(0).at(1).toInt(), 1);
    QCOMPARE(selected.at(1).at(1).toInt(), 2);
}

// The attempts table's words for each copy, against the run they are in.
void TestHedgeViews::tableWords_data()
{
    QTest::addColumn<bool>("delayRun");
    QTest::addColumn<int>("copy");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    using C = AttemptsTableModel;
    QTest::addRow("delay run, copy 1: lost, not cancelled") << true << 1 << int(C::Decision) << u"copy 1 — lost to copy 2"_s;
    QTest::addRow("delay run, copy 2: sent after the delay, won") << true << 2 << int(C::Decision)
                                                                   << u"copy 2 (after the delay) — won"_s;
    QTest::addRow("delay run, copy 1: no answer came") << true << 1 << int(C::Result) << u"no answer"_s;
    QTest::addRow("delay run, copy 1: why it has no decision")
        << true << 1 << int(C::Reason) << u"cancelled in flight when copy 2's answer won: nothing was decided on it"_s;
    QTest::addRow("delay run, copy 2: its answer") << true << 2 << int(C::Result) << u"201 Created"_s;
    QTest::addRow("failure run, copy 1: its 503, a failure to the hedging") << false << 1 << int(C::Decision)
                                                                            << u"copy 1 — failed"_s;
    QTest::addRow("failure run, copy 2: sent at once after it, won") << false << 2 << int(C::Decision)
                                                                     << u"copy 2 (after a failure) — won"_s;
    QTest::addRow("failure run, copy 1: the 503") << false << 1 << int(C::Result) << u"503 Service Unavailable"_s;
}

void TestHedgeViews::tableWords()
{
    QFETCH(bool, delayRun);
    QFETCH(int, copy);
    QFETCH(int, column);
    QFETCH(QString, expected);
    AttemptsTableModel table(live());
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int row = table.rowOf(delayRun ? m_delayRun : m_failureRun, copy);
    QVERIFY(row >= 0);
    QCOMPARE(table.index(row, column).data().toString(), expected);
}

// Rows out of index order (the winner first): sorting by attempt and picking one still finds the right copy.
void TestHedgeViews::tableSortsAndSelects()
{
    AttemptsPage page(live());
    page.resize(1280, 720);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    AttemptsTableModel* table = page.model();
    QVERIFY(table->rowOf(m_delayRun, 2) < table->rowOf(m_delayRun, 1));
    // The Decision column was widened once for the copies' words.
    const QString won = table->index(table->rowOf(m_delayRun, 2), AttemptsTableModel::Decision).data().toString();
    QVERIFY(page.table()->columnWidth(AttemptsTableModel::Decision) >= page.table()->fontMetrics().horizontalAdvance(won));

    page.table()->sortByColumn(AttemptsTableModel::Attempt, Qt::AscendingOrder);
    page.table()->sortByColumn(AttemptsTableModel::Run, Qt::AscendingOrder);
    QSignalSpy selected(&page, &AttemptsPage::attemptSelected);
    for (const int copy : { 1, 2 }) {
        page.selectAttempt(m_delayRun, copy);
        const QModelIndex current = page.table()->currentIndex();
        QCOMPARE(current.siblingAtColumn(AttemptsTableModel::Run).data().toInt(), m_delayRun);
        QCOMPARE(current.siblingAtColumn(AttemptsTableModel::Attempt).data().toInt(), copy);
        QCOMPARE(selected.last().at(1).toInt(), copy);
    }
    // Sorted by run, then attempt: copy 1 above copy 2, whatever order they ended in.
    const QAbstractItemModel* shown = page.table()->model();
    int above = -1;
    for (int r = 0; r < shown->rowCount(); ++r) {
        if (shown->index(r, AttemptsTableModel::Run).data().toInt() != m_delayRun)
            continue;
        const int attempt = shown->index(r, AttemptsTableModel::Attempt).data().toInt();
        QVERIFY(attempt > above);
        above = attempt;
    }
    // The detail pane of the lost copy says what it was and why nothing was decided.
    page.selectAttempt(m_delayRun, 1);
    const QString text = page.findChild<AttemptDetailPane*>()->toPlainText();
    QVERIFY2(text.contains(u"Hedged copy"_s) && text.contains(u"copy 1 — lost to copy 2"_s), qPrintable(text));
    QVERIFY2(text.contains(u"Lost: cancelled in flight when copy 2's answer won"_s), qPrintable(text));
    QVERIFY2(!text.contains(u"The run was cancelled"_s), qPrintable(text));
    page.selectAttempt(m_delayRun, 2);
    const QString winner = page.findChild<AttemptDetailPane*>()->toPlainText();
    QVERIFY2(winner.contains(u"copy 2: sent after the 150 ms hedging delay — won. Its answer became the request's result."_s),
        qPrintable(winner));
}

void TestHedgeViews::summaryFigures()
{
    SummaryView view(live());
    view.resize(1280, 720);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.refreshNow();
    QVERIFY(view.isShowingHedges());
    const SessionSummary s = view.summary();
    const HedgeSummary core = summarizeHedges(session(), MonoTime(qint64(live()->nowMs() * 1e6)));
    QCOMPARE(s.hedges.hedgedRequests, 4);
    QCOMPARE(s.hedges.hedgesSent, core.hedgesSent);
    QCOMPARE(s.hedges.hedgesSent, 4); // each run sent copy 2
    QCOMPARE(s.hedges.hedgesWon, 4);
    QCOMPARE(s.hedges.hedgesWasted, 0);
    // The delay runs' late copy 1 was applied by the lab as well as copy 2: no idempotency key.
    QCOMPARE(s.hedges.appliedTwice, int(runsWith(session(), HedgeFacts::Trigger::Delay).size()));
    QCOMPARE(view.tileText(u"hedges"_s), u"4\ncopies beyond the first, for 4 hedged request(s)"_s);
    QVERIFY2(view.tileText(u"hedgeswon"_s).startsWith(u"4 / 0\n"_s), qPrintable(view.tileText(u"hedgeswon"_s)));
    QVERIFY2(view.tileText(u"twice"_s).startsWith(u"%1\nrequests whose operation"_s.arg(s.hedges.appliedTwice)),
        qPrintable(view.tileText(u"twice"_s)));
}

// The session written at the end of the batch, opened again as the window opens it, shows the same views.
void TestHedgeViews::reopenedShowsTheSame()
{
    const QStringList shown = m_views->lines();
    const QString all = shown.join(u'\n');
    QVERIFY2(all.contains(u"(copy rows 2)"_s), qPrintable(all));
    QVERIFY2(all.contains(u"summary hedging: 4 requests hedged, 4 hedges sent, 4 won, 0 wasted"_s), qPrintable(all));
    QVERIFY2(all.contains(u"copy 1 — lost to copy 2"_s), qPrintable(all));
    const QStringList opened = reopenedLines(m_path);
    // The lab's late answers may reach the live session after the batch was written: compared without them.
    const auto withoutLateLab = [](QStringList lines) {
        lines.removeIf([](const QString& l) { return l.startsWith(u"lab "_s) || l.startsWith(u"timeline lane "_s) || l.startsWith(u"timeline in flight"_s); });
        return lines;
    };
    QCOMPARE(withoutLateLab(opened), withoutLateLab(shown));
    // The lanes compared on their attempts, rows and copies (every mark but the lab's ticks).
    const auto lanes = [](const QStringList& lines) {
        QStringList out;
        for (const QString& l : lines) {
            if (!l.startsWith(u"timeline lane "_s))
                continue;
            QStringList marks = l.mid(l.indexOf(u": "_s) + 2).split(u", "_s);
            marks.removeIf([](const QString& m) {
                return m.startsWith(u"%1/"_s.arg(int(TimelineMark::Kind::LabReceived)))
                    || m.startsWith(u"%1/"_s.arg(int(TimelineMark::Kind::LabApplied)));
            });
            out << l.left(l.indexOf(u": "_s)) + u": "_s + marks.join(u", "_s);
        }
        return out;
    };
    QCOMPARE(lanes(opened), lanes(shown));
}

// Played back to a moment when both copies of a delay run are in flight: both drawn, each in its row.
void TestHedgeViews::playbackDrawsCopiesInFlight()
{
    QString error;
    const std::shared_ptr<const Session> opened = SessionFile::open(m_path, {}, &error);
    QVERIFY2(opened, qPrintable(error));
    const std::optional<StoredAttempt> second = copyOf(*opened, m_delayRun, 2);
    QVERIFY(second && second->started() && second->finished());
    LiveSession reopened;
    reopened.setRefreshInterval(0);
    ViewsData views(&reopened);
    SessionFeeder feeder(opened, &reopened);
    feeder.playback()->seek((second->started()->count() + second->finished()->count()) / 2);
    reopened.flush();
    const TimelineModel& model = views.timeline();
    const int lane = reopened.runIndex(m_delayRun);
    QVERIFY(lane >= 0);
    QCOMPARE(model.copyRows(lane), 2);
    QSet<int> inFlight;
    for (const auto& [l, m] : model.live()) {
        if (l != lane)
            continue;
        QVERIFY2(m.hedge != 0, "a copy in flight is drawn as a copy");
        QVERIFY(!(m.flags & (TimelineMark::Won | TimelineMark::Lost))); // not known yet
        inFlight.insert(m.attempt);
    }
    QCOMPARE(inFlight, (QSet<int> { 1, 2 }));
    // Not yet summed up as won: the playhead has not reached its answer.
    SessionSummaryBuilder summary;
    summary.update(reopened, LiveSessionDelta {});
    QVERIFY(summary.summary().hedges.hedgesWon < 4);
}

// A run without hedging is drawn and worded as before: no copy rows, its verdicts in the Decision column.
void TestHedgeViews::plainRunsUnchanged()
{
    QString error;
    const std::shared_ptr<const Session> opened = SessionFile::open(m_path, {}, &error);
    QVERIFY2(opened, qPrintable(error));
    LiveSession plain;
    plain.setRefreshInterval(0);
    ViewsData views(&plain);
    // The same batch's first attempts with their hedge facts taken away, fed as a batch feeds them.
    LiveFeed feed(plain);
    for (qsizetype run = 0; run < opened->runs.size(); ++run) {
        RunRecord r = opened->runRecord(run, false);
        r.policy = RetryPolicy();
        feed.onRunStarted(r);
        for (const quint32 row : opened->runs.at(run).rows) {
            AttemptRecord a = opened->attempts.record(row);
            if (a.index != 1)
                continue;
            a.hedge.reset();
            feed.onAttemptFinished(a);
        }
        feed.onRunFinished(r);
    }
    feed.flush();
    const TimelineModel& model = views.timeline();
    QCOMPARE(model.laneCount(), 4);
    QCOMPARE(model.hedgedCopyCount(), 0);
    QVERIFY(!model.hasHedgedCopies());
    for (int lane = 0; lane < model.laneCount(); ++lane) {
        QCOMPARE(model.copyRows(lane), 0);
        for (const TimelineMark& m : model.lane(lane))
            QCOMPARE(m.hedge, quint8(0));
    }
    QCOMPARE(copyRowInLane(0, 0), (std::pair<double, double> { 0.22, 0.78 }));
    AttemptsTableModel table(&plain);
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(table.index(table.rowOf(m_failureRun, 1), AttemptsTableModel::Decision).data().toString(), u"stop"_s);
    QCOMPARE(table.index(table.rowOf(m_delayRun, 1), AttemptsTableModel::Decision).data().toString(), u"cancelled"_s);
    SessionSummaryBuilder summary;
    summary.update(plain, LiveSessionDelta {});
    QVERIFY(!summary.summary().hasHedges);
}

QTEST_MAIN(TestHedgeViews)
#include "tst_hedgeviews.moc"
