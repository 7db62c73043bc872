// SPDX-License-Identifier: GPL-3.0-or-later
// The demo through the main window: the lab is already running flaky-api, Run N× sends real requests
// over loopback, the attempts table fills, the lab's ledger updates, and Stop ends a batch.
#include "mainwindow.h"
#include "testtime.h"

#include "delaychartview.h"
#include "ratelimitchartview.h"
#include "timelineview.h"

#include "editors/requesteditor.h"
#include "labview/labpanel.h"
#include "livesession.h"
#include "run/attemptdetailpane.h"
#include "run/attemptspage.h"
#include "run/attemptstablemodel.h"
#include "run/runcontroller.h"

#include "lab/faultserver.h"
#include "editors/policyeditor.h"
#include "policy/policyjson.h"
#include "shell/elidedlabel.h"
#include "shell/helpwindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace Qt::StringLiterals;

class TestMainWindowDemo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labIsReadyAtStart()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        QVERIFY(window.controller()->lab()->isListening());
        QCOMPARE(window.controller()->scenarioName(), u"flaky-api"_s);
        QVERIFY(window.runAction()->isEnabled());
        QVERIFY(!window.stopAction()->isEnabled());
        QVERIFY(!window.runAction()->shortcut().isEmpty());
        QVERIFY(!window.runManyAction()->shortcut().isEmpty());
        QVERIFY(!window.stopAction()->shortcut().isEmpty());
    }

    void demoFillsTheAttemptsTableAndTheLedger()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAbstractItemModelTester tester(window.attemptsPage()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.requestEditor()->setRepeatCount(6);
        window.runManyAction()->trigger();
        QVERIFY(window.controller()->isRunning());
        QVERIFY(window.stopAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isRunning(), 90000);

        const int attempts = window.attemptsPage()->model()->rowCount();
        QCOMPARE(window.controller()->finished(), 6);
        QVERIFY2(attempts >= 6, qPrintable(QString::number(attempts)));
        QCOMPARE(attempts, window.controller()->attempts());
        const LabLedger& ledger = window.controller()->lab()->ledger();
        QVERIFY(ledger.requestsReceived() >= 6);
        QVERIFY(ledger.operationsApplied() >= 1);
        QTRY_COMPARE(window.labPanel()->shownRequests(), ledger.requestsReceived());
        QCOMPARE(window.labPanel()->shownOperations(), ledger.operationsApplied());
        QVERIFY(ledger.attemptsReceivedMoreThanOnce().isEmpty());

        // The live views hold what the session holds.
        window.controller()->session()->flush();
        QTRY_COMPARE(window.timeline()->laneCount(), 6);
        QVERIFY(window.timeline()->segmentCount() >= attempts);
        QVERIFY(window.timeline()->labTickCount() > 0);
        int retries = 0;
        const LiveSession* live = window.controller()->session();
        // The views read the batch's own session (one copy of every attempt), not a copy of their own.
        QVERIFY(live->session());
        QCOMPARE(live->session()->attemptCount(), live->finishedAttempts());
        QVERIFY(live->attemptBytes() <= qsizetype(sizeof(quint32)) * 2 * live->finishedAttempts() + 64);
        for (qsizetype i = 0; i < live->finishedAttempts(); ++i)
            retries += live->attempt(i).verdict() == Verdict::Retry ? 1 : 0;
        QTRY_COMPARE(window.delayChart()->pointCount(), retries);
        QVERIFY(window.rateLimitChart()->sampleCount() > 0);
        QVERIFY(window.rateLimitChart()->trackCount() >= 1);

        // Selecting a row shows its detail.
        QTableView* table = window.attemptsPage()->table();
        table->setCurrentIndex(table->model()->index(0, 0));
        QVERIFY(window.attemptsPage()->detail()->toPlainText().contains(u"Run "_s));
    }

    // Issue 15 item 1: a request the scenario has no route for is said before the run and counted after.
    void aRequestMatchingNoRouteIsCounted()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(QString());
        window.requestEditor()->setRequest(u"GET"_s, u"/nowhere"_s, true);
        QVERIFY(window.requestEditor()->hint().contains(u"No route of flaky-api"_s));
        window.requestEditor()->setRepeatCount(2);
        window.runManyAction()->trigger();
        QVERIFY(window.statusText()->text().contains(u"No route of flaky-api matches GET /nowhere"_s));
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isRunning(), 60000);
        QCOMPARE(window.controller()->noRouteAnswers(), window.controller()->attempts());
        QVERIFY2(window.statusText()->text().contains(u"matched no route of flaky-api"_s), qPrintable(window.statusText()->text()));
    }

    // Issue 15 item 8: "The policy has problems" stayed after the policy was fixed.
    void thePolicyProblemGoesWhenFixed()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        RetryPolicy broken = *window.policyEditor()->policy();
        const RetryPolicy good = broken;
        broken.limits.maxAttempts = 0;
        window.policyEditor()->jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(broken)));
        QTRY_VERIFY(!window.policyEditor()->policy());
        window.runAction()->trigger();
        QVERIFY(window.isShowingPolicyProblem());
        QVERIFY(window.statusText()->text().contains(u"policy has problems"_s));
        window.policyEditor()->jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(good)));
        QTRY_VERIFY(window.policyEditor()->policy());
        QVERIFY(!window.isShowingPolicyProblem());
        QVERIFY(!window.statusText()->text().contains(u"policy has problems"_s));
    }

    // Issue 15 item 8: Help had only About.
    void helpHasTheGuideTheFormatsAndTheShortcuts()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        const QList<HelpWindow::Page> pages = HelpWindow::pages();
        QVERIFY(pages.size() >= 7);
        for (int i = 0; i < pages.size(); ++i) {
            window.showHelpPage(i);
            QVERIFY(window.helpWindow());
            const QString text = window.helpWindow()->browser()->toPlainText();
            QVERIFY2(text.size() > 200 && !text.contains(u"missing from this build"_s), qPrintable(pages.at(i).title));
        }
        window.showHelpPage(0);
        QVERIFY(window.helpWindow()->browser()->toPlainText().contains(u"Retrylab user guide"_s));
        window.showHelpPage(int(pages.size()) - 1);
        const QString shortcuts = window.helpWindow()->browser()->toPlainText();
        for (const QAction* a : { window.runAction(), window.runManyAction(), window.stopAction() })
            QVERIFY2(shortcuts.contains(a->shortcut().toString(QKeySequence::NativeText)), qPrintable(a->text()));
        QVERIFY(shortcuts.contains(u"Open Session"_s));
    }

    // Issue 15 item 8: --open on a file that is neither a session nor a policy said "Open Policy".
    void openingAnUnknownFileSaysSo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"notes.txt"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("just some notes\n");
        f.close();
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.openFile(path);
        QMessageBox* box = window.findChild<QMessageBox*>();
        QVERIFY(box);
        QCOMPARE(box->windowTitle(), u"Open File"_s);
        QVERIFY(box->text().contains(u"not a Retrylab session, and not a policy"_s));
        box->close();
    }

    void stopCancelsABatch()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.requestEditor()->setRepeatCount(200);
        window.runManyAction()->trigger();
        QVERIFY(window.controller()->isRunning());
        window.stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isRunning(), 20000);
        QVERIFY(window.controller()->finished() <= 200);
        QVERIFY(window.runAction()->isEnabled());
    }
};

int main(int argc, char** argv)
{
    // A home of its own: journals and recordings another test leaves behind (or is writing) are not here.
    QTemporaryDir home;
    qputenv("HOME", home.path().toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    TestMainWindowDemo test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_mainwindow_demo.moc"
