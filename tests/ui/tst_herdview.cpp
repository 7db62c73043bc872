// SPDX-License-Identifier: GPL-3.0-or-later
// The Herd tab (issue 29 §3) end to end, with the real simulator: a built-in experiment shrunk to run in
// about a second, its charts (one line per policy, a point per bucket, the trigger band, the collapse
// markers) and its table; cancel; the experiment file saved and opened again, and a bad one refused in a
// message box; the form's edits and its disabled fields; Send to Herd from the policy editor in the window.
#include "mainwindow.h"
#include "testtime.h"

#include "editors/policyeditor.h"
#include "herd/charts/herdchart.h"
#include "herd/charts/herdchartstack.h"
#include "herd/form/herdexperimentform.h"
#include "herd/form/herdpolicylist.h"
#include "herd/herdfiles.h"
#include "herd/herdrunner.h"
#include "herd/herdtotalsmodel.h"
#include "herd/herdview.h"
#include "live/legendstrip.h"
#include "live/placeholderlabel.h"

#include "policy/presetcatalog.h"
#include "sim/herdcatalog.h"
#include "sim/herdsimulator.h"

#include <QtCharts/QLineSeries>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace {

const QString kExperiment = u"metastable-osdi22"_s;

// The experiment on a shorter axis: every window scaled with the duration, the open loop's arrivals with
// it, one run. Its shape (the trigger, the policies) is the built-in one's.
HerdExperiment shrunk(HerdExperiment e, Millis duration, int maxClients)
{
    const double f = e.duration.count() > 0 ? double(duration.count()) / double(e.duration.count()) : 1.0;
    const auto scale = [f](std::optional<HerdWindow>& w) {
        if (w)
            w = HerdWindow { Millis(qint64(double(w->start.count()) * f)), Millis(std::max<qint64>(1, qint64(double(w->duration.count()) * f))) };
    };
    scale(e.server.outage);
    scale(e.server.cut);
    scale(e.server.latencySpike);
    scale(e.clients.spike);
    e.duration = duration;
    // Closed: fewer clients. Open: `clients` only caps the arrivals, which the shorter duration already cut.
    if (e.clients.loop == HerdClientModel::Loop::Closed)
        e.clients.clients = std::min(e.clients.clients, maxClients);
    e.runs = 1;
    return e;
}

// Which parts of A and B differ, by name: says more than "Compared values are not the same".
QString differences(const HerdExperiment& a, const HerdExperiment& b)
{
    QStringList out;
    const auto check = [&out](bool same, const char* name) {
        if (!same)
            out << QString::fromLatin1(name);
    };
    const HerdServerModel& s = a.server;
    const HerdServerModel& t = b.server;
    check(a.name == b.name && a.title == b.title && a.source == b.source && a.claims == b.claims, "texts");
    check(s.kind == t.kind && s.concurrency == t.concurrency, "server kind, concurrency");
    check(s.service == t.service, "server.service");
    check(s.loadLatencyMs == t.loadLatencyMs, "server.loadLatencyMs");
    check(s.queueLimit == t.queueLimit && s.queueTimeout == t.queueTimeout && s.overloadStatus == t.overloadStatus, "server queue");
    check(s.hop == t.hop, "server.hop");
    check(s.errorRate == t.errorRate && s.errorStatus == t.errorStatus, "server errors");
    check(s.retryAfter == t.retryAfter, "server.retryAfter");
    check(s.outage == t.outage && s.outageAnswer == t.outageAnswer && s.outageStatus == t.outageStatus, "server outage");
    check(s.cut == t.cut && s.cutFraction == t.cutFraction, "server cut");
    check(s.latencySpike == t.latencySpike && s.latencySpikeMs == t.latencySpikeMs, "server latency spike");
    check(a.clients == b.clients, "clients");
    check(a.duration == b.duration && a.runs == b.runs && a.seed == b.seed && a.resolution == b.resolution, "run");
    check(a.policies == b.policies, "policies");
    return out.join(u", "_s);
}

HerdExperiment small()
{
    const std::optional<HerdExperiment> e = HerdCatalog::experiment(kExperiment);
    return e ? shrunk(*e, Millis(20'000), 2000) : HerdExperiment();
}

} // namespace

class TstHerdView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(HerdCatalog::names().contains(kExperiment), "the built-in experiment the tests shrink");
    }

    void emptyStateSaysWhatToDo()
    {
        HerdView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.charts()->hasResult());
        QVERIFY(view.charts()->placeholder()->isVisible());
        QVERIFY2(view.charts()->placeholder()->text().contains(u"Run"_s), qPrintable(view.charts()->placeholder()->text()));
        QVERIFY(view.runButton()->isEnabled());
        QVERIFY(!view.cancelButton()->isEnabled());
        // The built-in experiments are all offered, the first loaded with its policies.
        QCOMPARE(view.form()->experimentBox()->count(), int(HerdCatalog::names().size()));
        QVERIFY(!view.form()->policies()->policies().isEmpty());
    }

    void runsAndShowsOneLinePerPolicy()
    {
        HerdView view;
        QAbstractItemModelTester tester(view.totals(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.form()->loadBuiltIn(kExperiment));
        const HerdExperiment experiment = small();
        view.form()->setExperiment(experiment);
        QVERIFY2(view.form()->experiment() == experiment, qPrintable(differences(view.form()->experiment(), experiment)));
        QVERIFY2(view.form()->problems().isEmpty(), "the shrunk experiment is valid");

        QSignalSpy finished(&view, &HerdView::runFinished);
        QSignalSpy progress(view.runner(), &HerdRunner::progressChanged);
        QVERIFY(view.run());
        QVERIFY(view.isRunning());
        QVERIFY(!view.runButton()->isEnabled());
        QVERIFY(view.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!view.isRunning());
        QCOMPARE(view.progressBar()->value(), view.progressBar()->maximum());
        QVERIFY(progress.count() >= 1);

        const HerdResult& result = view.shownResult();
        const qsizetype policies = experiment.policies.size();
        QCOMPARE(result.results.size(), policies);
        QCOMPARE(view.totals()->rowCount(), int(policies));
        QCOMPARE(view.table()->model()->rowCount(), int(policies));
        QCOMPARE(view.totals()->index(0, HerdTotalsModel::PolicyColumn).data().toString(), experiment.policies.first().label);
        QVERIFY(view.charts()->hasResult());
        QVERIFY(!view.charts()->placeholder()->isVisible());
        QCOMPARE(view.charts()->legend()->labels().mid(0, policies).size(), policies);
        QCOMPARE(view.charts()->legend()->labels().first(), experiment.policies.first().label);

        // A point per bucket of the duration, in every chart but the breaker's (no point where a policy has none).
        const qsizetype buckets = experiment.duration.count() / experiment.resolution.count();
        for (int m = 0; m < HerdChartStack::BreakerOpen; ++m) {
            HerdChart* chart = view.charts()->chart(HerdChartStack::Measure(m));
            QCOMPARE(chart->lineSeries().size(), policies);
            for (qsizetype i = 0; i < policies; ++i) {
                const QLineSeries* line = chart->lineSeries().at(i);
                QCOMPARE(line->count(), int(result.results.at(i).series.samples.size()));
                QVERIFY2(std::abs(line->count() - buckets) <= 1, qPrintable(u"%1 points for %2 buckets"_s.arg(line->count()).arg(buckets)));
                QCOMPARE(line->name(), experiment.policies.at(i).label);
            }
            // Every line drawn in its policy's colour, the same in every chart.
            QCOMPARE(chart->lineSeries().first()->pen().color(),
                view.charts()->chart(HerdChartStack::Offered)->lineSeries().first()->pen().color());
        }
        // Values: the goodput chart draws the series' goodput.
        const HerdSample& sample = result.results.first().series.samples.at(1);
        QCOMPARE(view.charts()->chart(HerdChartStack::Goodput)->lineSeries().first()->at(1).y(), sample.goodput);
        QCOMPARE(view.charts()->chart(HerdChartStack::Goodput)->lineSeries().first()->at(1).x(),
            double(experiment.resolution.count()) / 1000.0);
        // The trigger is a band in every chart, labelled in the first.
        const QList<HerdChartBand> bands = HerdChartStack::triggerBands(experiment);
        QVERIFY2(!bands.isEmpty(), "the experiment has a trigger");
        QCOMPARE(view.charts()->chart(HerdChartStack::Queue)->overlay()->bandCount(), int(bands.size()));
        QTRY_VERIFY(view.charts()->chart(HerdChartStack::Offered)->overlay()->drawnLabels().contains(bands.first().label));
        // Each collapse is a marker in every chart, labelled in the goodput chart.
        int collapsed = 0;
        for (const HerdPolicyResult& r : result.results)
            collapsed += r.collapsedAt ? 1 : 0;
        QCOMPARE(view.charts()->chart(HerdChartStack::Attempts)->overlay()->markerCount(), collapsed);
        for (const HerdPolicyResult& r : result.results) {
            if (!r.collapsedAt)
                continue;
            const QString label = u"collapsed at "_s + HerdTotalsModel::formatMoment(double(r.collapsedAt->count()));
            QTRY_VERIFY2(view.charts()->chart(HerdChartStack::Goodput)->overlay()->drawnLabels().contains(label), qPrintable(label));
            QVERIFY(view.statusLabel()->text().contains(r.label + u" collapsed at"_s));
        }
        // The plot areas are aligned: one moment is one x in every chart (within a pixel's rounding).
        QString misaligned;
        const auto aligned = [&view, &misaligned] {
            misaligned.clear();
            const QRectF first = view.charts()->chart(HerdChartStack::Offered)->chart()->plotArea();
            for (HerdChart* chart : view.charts()->charts()) {
                const QRectF area = chart->chart()->plotArea();
                if (chart->isVisible() && (std::abs(area.left() - first.left()) > 1 || std::abs(area.right() - first.right()) > 1))
                    misaligned += u"%1: %2–%3, not %4–%5; "_s.arg(chart->title()).arg(area.left()).arg(area.right()).arg(first.left()).arg(first.right());
            }
            return misaligned.isEmpty() && first.left() > 0 && first.width() > 100;
        };
        QTRY_VERIFY2(aligned(), qPrintable(misaligned));
        // The breaker's chart is shown only when some policy has a breaker.
        bool breaker = false;
        for (const HerdPolicyResult& r : result.results) {
            for (const HerdSample& s : r.series.samples)
                breaker = breaker || !std::isnan(s.breakerOpen);
        }
        QCOMPARE(view.charts()->chart(HerdChartStack::BreakerOpen)->isVisible(), breaker);
    }

    void progressIsThrottled()
    {
        // aws-2015 reports progress after each of its 500 runs (100 of each of five policies), far more often
        // than 20 times a second; the view takes at most 20 a second, and the last.
        const HerdExperiment e = *HerdCatalog::experiment(u"aws-2015"_s);
        int calls = 0;
        QElapsedTimer direct;
        direct.start();
        runHerdExperiment(e, nullptr, [&calls](double) { ++calls; });
        const double directSeconds = double(direct.elapsed()) / 1000.0;

        HerdView view;
        view.form()->setExperiment(e);
        QSignalSpy finished(&view, &HerdView::runFinished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(view.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120'000);
        const double seconds = double(clock.elapsed()) / 1000.0;
        const int ceiling = int(seconds * 1000.0 / HerdRunner::kProgressIntervalMs) + 2;
        QVERIFY2(view.runner()->progressReports() <= ceiling,
            qPrintable(u"%1 reports in %2 s"_s.arg(view.runner()->progressReports()).arg(seconds)));
        QVERIFY(view.runner()->progressReports() >= 1);
        // Else this test would prove nothing: unthrottled, the view would have taken more than the ceiling.
        const int unthrottledCeiling = int(directSeconds * 1000.0 / HerdRunner::kProgressIntervalMs) + 2;
        QVERIFY2(calls > 2 * unthrottledCeiling, qPrintable(u"%1 progress calls in %2 s"_s.arg(calls).arg(directSeconds)));
    }

    void cancelEndsALongRunPromptly()
    {
        HerdView view;
        view.show();
        // Long: the built-in experiment at full size, with more runs than anyone waits for.
        HerdExperiment big = *HerdCatalog::experiment(kExperiment);
        big.runs = 50;
        view.form()->setExperiment(big);
        QSignalSpy finished(&view, &HerdView::runFinished);
        QVERIFY(view.run());
        QTRY_VERIFY_WITH_TIMEOUT(view.progressBar()->value() > 0, 30'000);
        QElapsedTimer clock;
        clock.start();
        view.cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10'000);
        QVERIFY2(clock.elapsed() < 2000, qPrintable(u"cancelled after %1 ms"_s.arg(clock.elapsed())));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!view.isRunning());
        QVERIFY2(view.statusLabel()->text().startsWith(u"Cancelled"_s), qPrintable(view.statusLabel()->text()));
        QVERIFY(view.runButton()->isEnabled());
        QVERIFY(!view.charts()->hasResult()); // nothing finished: still the empty state
        QCOMPARE(view.totals()->rowCount(), 0);
    }

    void aNewerRunReplacesTheOneInProgress()
    {
        HerdView view;
        HerdExperiment big = *HerdCatalog::experiment(kExperiment);
        big.runs = 50;
        view.form()->setExperiment(big);
        QSignalSpy finished(&view, &HerdView::runFinished);
        QVERIFY(view.run());
        const HerdExperiment quick = small();
        view.form()->setExperiment(quick);
        view.runner()->start(quick); // the first is cancelled; only the second reports
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(view.shownExperiment(), quick);
        QTest::qWait(200);
        QCOMPARE(finished.count(), 1);
    }

    void experimentFileRoundTrip()
    {
        QTemporaryDir dir;
        HerdView view;
        HerdExperiment e = small();
        e.seed = 12345678901234ULL;
        e.policies.removeLast();
        e.policies.first().label = u"renamed, with a comma"_s;
        view.form()->setExperiment(e);
        const QString path = dir.filePath(u"experiment.json"_s);
        QCOMPARE(view.saveExperiment(path), QString());
        QVERIFY(QFile::exists(path));
        QVERIFY(view.form()->loadBuiltIn(kExperiment)); // something else in the form
        QVERIFY(view.form()->experiment() != e);
        QCOMPARE(view.openExperiment(path), QString());
        QVERIFY2(view.form()->experiment() == e, qPrintable(differences(view.form()->experiment(), e)));
        QCOMPARE(view.form()->policies()->list()->count(), 1);
        QCOMPARE(view.form()->policies()->list()->item(0)->text(), u"renamed, with a comma"_s);
    }

    void aBadFileIsRefusedInAMessageBox_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addRow("not JSON") << QByteArray("{ this is not json");
        QTest::addRow("JSON, not an experiment") << QByteArray(R"({"hello": "world"})");
        QTest::addRow("empty") << QByteArray();
    }

    void aBadFileIsRefusedInAMessageBox()
    {
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"bad.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        HerdView view;
        view.show();
        const HerdExperiment before = view.form()->experiment();
        const QString problem = view.openExperiment(path);
        QVERIFY(!problem.isEmpty());
        QVERIFY2(problem.contains(path), qPrintable(problem));
        QCOMPARE(view.form()->experiment(), before); // left as it was
        auto* box = view.findChild<QMessageBox*>();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QCOMPARE(box->text(), problem);
        box->close();
        // A file that is not there says so too.
        QVERIFY(view.openExperiment(dir.filePath(u"missing.json"_s)).contains(u"missing.json"_s));
    }

    void exportsChartsAndData()
    {
        QTemporaryDir dir;
        HerdView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(!view.exportCharts(dir.filePath(u"early.png"_s)).isEmpty()); // nothing to export yet
        view.form()->setExperiment(small());
        QSignalSpy finished(&view, &HerdView::runFinished);
        QVERIFY(view.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        const HerdResult& result = view.shownResult();
        QCOMPARE(view.exportCharts(dir.filePath(u"charts.png"_s)), QString());
        QCOMPARE(view.exportCharts(dir.filePath(u"charts.svg"_s)), QString());
        QImage png(dir.filePath(u"charts.png"_s));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() > 1000);
        QFile svg(dir.filePath(u"charts.svg"_s));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        QCOMPARE(view.exportJson(dir.filePath(u"result.json"_s)), QString());
        QFile json(dir.filePath(u"result.json"_s));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(json.readAll().contains(result.results.first().label.toUtf8()));
        QCOMPARE(view.exportCsv(dir.filePath(u"series.csv"_s)), QString());
        QFile csv(dir.filePath(u"series.csv"_s));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        qsizetype samples = 0;
        for (const HerdPolicyResult& r : result.results)
            samples += r.series.samples.size();
        QCOMPARE(lines.size(), samples + 1); // one header, a row per bucket per policy
        QVERIFY(lines.first().startsWith("policy,t_ms,"));
        QVERIFY(lines.at(1).startsWith(QByteArray(result.results.first().label.toUtf8() + ",0,")));
        const QString folder = dir.filePath(u"per-policy"_s);
        QCOMPARE(view.exportCsvFolder(folder), QString());
        for (const HerdPolicyResult& r : result.results)
            QVERIFY2(QFile::exists(folder + u'/' + HerdFiles::fileNameFor(r.label) + u".csv"_s), qPrintable(r.label));
    }

    void formDisablesWhatDoesNotApply()
    {
        HerdView view;
        HerdExperiment e = small();
        e.clients.loop = HerdClientModel::Loop::Closed;
        e.server.outage.reset();
        view.form()->setExperiment(e);
        HerdExperimentForm* form = view.form();
        QVERIFY(!form->editorFor(u"clients.rate"_s)->isEnabled());
        QVERIFY(form->editorFor(u"clients.requests_per_client"_s)->isEnabled());
        QVERIFY(!form->editorFor(u"server.outage.answer"_s)->isEnabled());
        // Open loop: the rate applies, the requests per client do not.
        auto* loop = qobject_cast<QComboBox*>(form->editorFor(u"clients.loop"_s));
        QVERIFY(loop);
        loop->setCurrentIndex(int(HerdClientModel::Loop::Open));
        QVERIFY(form->editorFor(u"clients.rate"_s)->isEnabled());
        QVERIFY(!form->editorFor(u"clients.requests_per_client"_s)->isEnabled());
        QCOMPARE(form->experiment().clients.loop, HerdClientModel::Loop::Open);
        // An edit in a field reaches the experiment.
        auto* duration = qobject_cast<QDoubleSpinBox*>(form->editorFor(u"duration"_s));
        QVERIFY(duration);
        duration->setValue(7.5);
        QCOMPARE(form->experiment().duration, Millis(7500));
    }

    void problemsKeepItFromRunning()
    {
        HerdView view;
        HerdExperiment e = small();
        e.clients.loop = HerdClientModel::Loop::Open;
        e.clients.rate = 0; // no arrivals
        view.form()->setExperiment(e);
        QVERIFY(!view.form()->problems().isEmpty());
        QSignalSpy started(view.runner(), &HerdRunner::started);
        QVERIFY(!view.run());
        QCOMPARE(started.count(), 0);
        QVERIFY2(view.statusLabel()->text().contains(u"problem"_s), qPrintable(view.statusLabel()->text()));
    }

    void policyListKeepsOneToFour()
    {
        HerdView view;
        HerdPolicyList* list = view.form()->policies();
        list->setPolicies({});
        QVERIFY(list->addPreset(u"slen"_s));
        QVERIFY(list->addPreset(u"slen"_s)); // the same preset twice: a label of its own
        QCOMPARE(list->policies().at(1).label, u"slen (2)"_s);
        QVERIFY(list->addPreset(u"curl"_s));
        QVERIFY(list->addPreset(u"stripe"_s));
        QVERIFY(!list->addPreset(u"polly"_s));
        QCOMPARE(list->policies().size(), 4);
        QVERIFY(!list->presetButton()->isEnabled());
        // A label edited in place reaches the experiment.
        list->list()->item(2)->setText(u"curl, as shipped"_s);
        QCOMPARE(view.form()->experiment().policies.at(2).label, u"curl, as shipped"_s);
        list->remove(0);
        QCOMPARE(list->policies().size(), 3);
        QVERIFY(list->presetButton()->isEnabled());
    }

    void runPolicyAddsItToTheLastExperiment()
    {
        HerdView view;
        const HerdExperiment experiment = small();
        view.form()->setExperiment(experiment);
        QSignalSpy finished(&view, &HerdView::runFinished);
        QVERIFY(view.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        // The form is edited after the run; Send to Herd runs against the experiment that ran.
        view.form()->setExperiment(shrunk(*HerdCatalog::experiment(kExperiment), Millis(10'000), 100));
        RetryPolicy policy = *PresetCatalog::load(u"curl"_s).policy;
        QVERIFY(view.runPolicy(policy));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60'000);
        const QString label = u"curl (edited)"_s;
        QCOMPARE(view.shownExperiment().duration, experiment.duration);
        QCOMPARE(view.shownResult().results.size(), experiment.policies.size() + 1);
        QCOMPARE(view.shownResult().results.last().label, label);
        // Sent again: replaced, not added twice.
        policy.limits.maxAttempts = 2;
        QVERIFY(view.runPolicy(policy));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 60'000);
        QCOMPARE(view.shownResult().results.size(), experiment.policies.size() + 1);
        QCOMPARE(view.shownExperiment().policies.last().policy.limits.maxAttempts, 2);
    }

    void sendToHerdFromThePolicyEditor()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        HerdView* herd = window.herdView();
        QVERIFY(herd);
        QCOMPARE(window.liveViews()->tabText(window.liveViews()->indexOf(herd)), u"Herd"_s); // no mnemonic: H, e, r and d are taken
        herd->form()->setExperiment(small());
        QVERIFY(window.policyEditor()->loadPreset(u"aws-standard"_s));
        QSignalSpy finished(herd, &HerdView::runFinished);
        window.policyEditor()->sendToHerdAction()->trigger();
        QCOMPARE(window.liveViews()->currentWidget(), herd);
        QVERIFY(herd->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60'000);
        QCOMPARE(herd->shownResult().results.last().label, u"aws-standard (edited)"_s);
        // "Add Edited" takes the editor's policy into the list.
        const int before = herd->form()->policies()->list()->count();
        if (before < HerdPolicyList::kMaxPolicies) {
            QVERIFY(herd->form()->policies()->addEditorPolicy());
            QCOMPARE(herd->form()->policies()->list()->count(), before + 1);
        }
    }
};

QTEST_MAIN(TstHerdView)
#include "tst_herdview.moc"
