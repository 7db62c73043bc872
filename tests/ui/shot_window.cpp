// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: the whole window on whatever screen the platform gives it (run it under
//   xvfb-run -s '-screen 0 1280x720x24', or with QT_SCALE_FACTOR=2 on 1600x1000), after a real Run N× of
// the demo against the built-in lab, and then its dialogs, playback and Compare. Saves:
//   main.png main-attempts.png lab-panel.png (editing the scenario) main-lab-editor.png policy-form.png policy-decisions.png policy-editor.png
//   policy-export-tab.png policy-export.png (the Export tab, and Export as Code… in its own window)
//   curl-paste.png request-options.png help.png playback.png compare.png
// Used to look at the window as a user would, and for packaging/screenshots/ (the README's main views).
//   shot_window [--out DIR] [--repeat N]
#include "mainwindow.h"
#include "testtime.h"

#include "codeexport/codeexportpane.h"
#include "editors/curlpastedialog.h"
#include "editors/policyeditor.h"
#include "editors/requesteditor.h"
#include "lab/faultserver.h"
#include "labview/labpanel.h"
#include "labview/scenarioeditor.h"
#include "run/attemptspage.h"
#include "run/attemptstablemodel.h"
#include "run/runcontroller.h"
#include "sessions/compareview.h"
#include "sessions/playbackbar.h"
#include "sessions/replayactions.h"
#include "sessions/sessionfeeder.h"
#include "shell/helpwindow.h"

#include "policy/presetcatalog.h"
#include "replay/replayrunner.h"
#include "session/sessionplayback.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace {

QDir g_out;

void save(QWidget* w, const QString& name)
{
    QCoreApplication::processEvents();
    // A 256-colour palette keeps them small (the UI has few distinct colours), as the README's are.
    w->grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither).save(g_out.filePath(name), "PNG", 0);
    QTextStream(stdout) << name << ' ' << w->width() << 'x' << w->height() << '\n';
}

void settle(int ms = 400)
{
    QTest::qWait(ms);
}

void raiseDock(MainWindow& w, const QString& name)
{
    if (auto* dock = w.findChild<QDockWidget*>(name))
        dock->raise();
    settle(200);
}

} // namespace

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true); // the user's recordings and settings are left alone
    QApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addOption({ u"out"_s, u"directory for the PNGs"_s, u"dir"_s, u"."_s });
    cli.addOption({ u"repeat"_s, u"runs in the batch"_s, u"n"_s, u"20"_s });
    cli.process(app);
    g_out = QDir(cli.value(u"out"_s));
    QDir().mkpath(g_out.path());
    QTemporaryDir recordings;

    MainWindow w(TestTime::instance().clock, TestTime::instance().scheduler);
    w.controller()->setRecordingDirectory(recordings.path());
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    w.requestEditor()->setRepeatCount(cli.value(u"repeat"_s).toInt());
    w.runManyAction()->trigger();
    if (!QTest::qWaitFor([&] { return !w.controller()->isRunning(); }, 120000))
        return 2;
    w.controller()->waitForRecordings(30000);
    settle(900);
    save(&w, u"main.png"_s);
    raiseDock(w, u"LabDock"_s);
    // The lab panel editing the scenario the batch ran against, its 503 with Retry-After selected.
    w.labPanel()->setEditing(true);
    w.labPanel()->editor()->select(0, 2);
    settle();
    save(w.labPanel(), u"lab-panel.png"_s);
    save(&w, u"main-lab-editor.png"_s);
    w.labPanel()->setEditing(false);

    // The attempts, a 429 selected.
    w.liveViews()->setCurrentWidget(w.attemptsPage());
    QTableView* table = w.attemptsPage()->table();
    int pick = 0;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, AttemptsTableModel::Result).data().toString().startsWith(u"429"_s)) {
            pick = r;
            break;
        }
    }
    table->selectRow(pick);
    settle();
    save(&w, u"main-attempts.png"_s);

    raiseDock(w, u"PolicyDock"_s);
    const QString policyShots[] = { u"policy-form.png"_s, u""_s, u"policy-decisions.png"_s, u"policy-editor.png"_s };
    for (int tab : { 0, 2, 3 }) {
        w.policyEditor()->tabs()->setCurrentIndex(tab);
        settle(500);
        save(w.policyEditor(), policyShots[tab]);
    }
    // The Export tab in the dock, then "Export as Code…" in its own window: the demo's policy for Envoy, what it cannot express in red.
    w.policyEditor()->showPage(PolicyEditor::Page::Export);
    w.policyEditor()->exportPane()->selectTarget(u"urllib3"_s);
    settle(300);
    save(w.policyEditor(), u"policy-export-tab.png"_s);
    w.policyEditor()->tabs()->setCurrentIndex(0);
    w.policyEditor()->exportAsCodeAction()->trigger();
    if (QDialog* exportWindow = w.policyEditor()->exportWindow()) {
        if (auto* pane = exportWindow->findChild<CodeExportPane*>())
            pane->selectTarget(u"envoy"_s);
        settle(500);
        save(exportWindow, u"policy-export.png"_s);
        exportWindow->close();
    }
    raiseDock(w, u"RequestDock"_s);

    // Paste curl, with options of every kind: applied, reported, and the curl preset's.
    w.requestEditor()->pasteCurl();
    if (CurlPasteDialog* d = w.requestEditor()->curlDialog()) {
        d->setText(u"curl -sS -X POST https://api.example.com/v1/charges \\\n  -u sk_test_123: -H 'Idempotency-Key: k-1' "
                   "\\\n  --data-raw '{\"amount\": 1250}' --compressed --retry 3 --retry-connrefused -m 10 -k"_s);
        settle(500);
        save(d, u"curl-paste.png"_s);
        d->reject();
    }
    for (QToolButton* b : w.requestEditor()->findChildren<QToolButton*>()) {
        if (b->text() == QCoreApplication::translate("RequestEditor", "Options…")) {
            b->click();
            break;
        }
    }
    settle(300);
    if (auto* options = w.requestEditor()->findChild<QDialog*>()) {
        save(options, u"request-options.png"_s);
        options->reject();
    }
    w.showHelpPage(0);
    settle(300);
    save(w.helpWindow(), u"help.png"_s);
    w.helpWindow()->close();

    // Playback, stopped at 40 % of the recording: the views and the lab panel show what had happened by then.
    w.liveViews()->setCurrentIndex(0);
    PlaybackBar* bar = w.playbackBar();
    bar->toStart();
    if (SessionFeeder* feeder = bar->feeder()) {
        SessionPlayback* p = feeder->playback();
        p->seek(p->startNs() + (p->endNs() - p->startNs()) * 2 / 5);
    }
    settle(600);
    save(&w, u"playback.png"_s);
    bar->toEnd();

    // Compare: the recording replayed offline under AWS standard retries.
    const PolicyParseResult aws = PresetCatalog::load(u"aws-standard"_s);
    ReplayOptions options;
    if (aws.ok())
        options.policy = *aws.policy;
    bool replayed = false;
    QObject::connect(w.replays(), &ReplayActions::replayFinished, &app, [&] { replayed = true; });
    if (w.replays()->replay(options, QCoreApplication::translate("MainWindow", "what-if under aws-standard"))
        && QTest::qWaitFor([&] { return replayed; }, 120000)) {
        settle(700);
        save(&w, u"compare.png"_s);
    }

    // Observe a client: Debian's curl sends to the lab (503 with Retry-After in the demo's mix) with --retry 3,
    // six times over; its own retries, inferred, fill the timeline live. Its output goes to a file: curl
    // 7.88.1 cannot truncate /dev/null before a retry and gives up with exit 23 instead.
    w.requestEditor()->setObservesClient(true);
    w.runAction()->trigger();
    const QString url = w.controller()->lab()->url().toString(QUrl::StripTrailingSlash) + u"/api/orders"_s;
    for (int i = 0; i < 6; ++i) {
        QProcess curl;
        curl.start(u"curl"_s, { u"-s"_s, u"-o"_s, recordings.filePath(u"curl-out"_s), u"--retry"_s, u"3"_s, u"-X"_s, u"POST"_s,
                                  u"-d"_s, u"{}"_s, url });
        if (!QTest::qWaitFor([&] { return curl.state() == QProcess::NotRunning; }, 30000))
            return 3;
    }
    w.liveViews()->setCurrentIndex(0);
    settle(1200);
    save(&w, u"observe.png"_s);
    w.stopAction()->trigger();
    return 0;
}
