// SPDX-License-Identifier: GPL-3.0-or-later
// The demo through the main window: the lab is already running flaky-api, Run N× sends real requests
// over loopback, the attempts table fills, the lab's ledger updates, and Stop ends a batch.
#include "mainwindow.h"

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

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;

class TestMainWindowDemo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labIsReadyAtStart()
    {
        MainWindow window;
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
        MainWindow window;
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
        for (const AttemptRecord& a : window.controller()->session()->attempts())
            retries += a.decision && a.decision->verdict == Verdict::Retry ? 1 : 0;
        QTRY_COMPARE(window.delayChart()->pointCount(), retries);
        QVERIFY(window.rateLimitChart()->sampleCount() > 0);
        QVERIFY(window.rateLimitChart()->trackCount() >= 1);

        // Selecting a row shows its detail.
        QTableView* table = window.attemptsPage()->table();
        table->setCurrentIndex(table->model()->index(0, 0));
        QVERIFY(window.attemptsPage()->detail()->toPlainText().contains(u"Run "_s));
    }

    void stopCancelsABatch()
    {
        MainWindow window;
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
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    TestMainWindowDemo test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_mainwindow_demo.moc"
