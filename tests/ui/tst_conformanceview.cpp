// SPDX-License-Identifier: GPL-3.0-or-later
// The Conformance tab (issue 13 §3), offscreen: Debian's curl (the client nobody here wrote) run on a
// two-case suite and judged against slen, which does not retry a bare 503: one case fails with its
// finding, one passes; the details show the findings with a link per attempt; a link shows the case's
// attempts as a session; the shown session is judged too; and the policy editor's real-client check of exported
// code runs here. The model runs under QAbstractItemModelTester.
#include "codeexport/codeexportpane.h"
#include "conformance/conformancemodel.h"
#include "conformance/conformanceview.h"
#include "policy/presetcatalog.h"
#include "session/session.h"
#include "sessions/compareview.h"
#include "testtime.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace Qt::StringLiterals;

class TestConformanceView : public QObject
{
    Q_OBJECT

private slots:
    void runsASuiteWithCurl();
    void refusesWhatCannotRun();
    void judgesExportedCode();

private:
    const Clock& m_clock = TestTime::instance().clock;
    Scheduler& m_scheduler = TestTime::instance().scheduler;
};

void TestConformanceView::runsASuiteWithCurl()
{
    QTemporaryDir dir;
    QFile suite(dir.filePath(u"two.json"_s));
    QVERIFY(suite.open(QIODevice::WriteOnly));
    suite.write(R"({"format":"retrylab-suite","version":1,"name":"two","cases":[
        {"name":"bare-503","description":"503 then 200","steps":[{"kind":"respond","status":503},{"kind":"respond","status":200}]},
        {"name":"not-found","description":"404 then 200","steps":[{"kind":"respond","status":404},{"kind":"respond","status":200}]}]})");
    suite.close();

    ConformanceView view(m_clock, m_scheduler);
    view.resize(900, 600);
    // No larger at its least than the Compare tab beside it, so the window still fits a small screen.
    QVERIFY2(view.minimumSizeHint().width() <= CompareView().minimumSizeHint().width()
            && view.minimumSizeHint().height() <= std::max(120, CompareView().minimumSizeHint().height()),
        qPrintable(u"%1x%2"_s.arg(view.minimumSizeHint().width()).arg(view.minimumSizeHint().height())));
    view.show();
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(view.addSuiteFile(suite.fileName()));
    view.policyBox()->setCurrentIndex(view.policyBox()->findData(u"slen"_s));
    view.commandEdit()->setText(uR"(exec curl -sS --fail -o /dev/null --retry 3 -m 3 "$RETRYLAB_URL")"_s);
    QSignalSpy running(&view, &ConformanceView::runningChanged);
    const QDateTime beforeRun = m_clock.wallNow().toUTC();
    QTest::mouseClick(view.runButton(), Qt::LeftButton);
    QVERIFY(view.isRunning());
    QCOMPARE(view.model()->rowCount(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 30000);
    QCOMPARE(running.size(), 2);
    // The report is stamped when the run began (on the window's clock), however late it is saved.
    const QDateTime stamped = view.report().startedUtc;
    QVERIFY(stamped >= beforeRun.addMSecs(-1) && stamped <= beforeRun.addSecs(1));
    QTest::qWait(1100);
    QCOMPARE(view.report().startedUtc, stamped);

    const CaseResult* failed = view.model()->result(0);
    const CaseResult* passed = view.model()->result(1);
    QVERIFY(failed && passed);
    QVERIFY(!failed->conforms());
    QCOMPARE(failed->run.record.attempts.size(), 2);
    QCOMPARE(findingRuleName(failed->judgement.findings.first().rule), u"retried-not-retryable"_s);
    QVERIFY(passed->conforms());
    QCOMPARE(view.model()->failedCount(), 1);
    QCOMPARE(view.model()->data(view.model()->index(0, ConformanceModel::VerdictColumn)).toString(), u"does not conform"_s);

    view.table()->selectRow(0);
    const QString details = view.details()->toPlainText();
    QVERIFY2(details.contains(u"retried-not-retryable: attempt 2 was sent"_s), qPrintable(details));
    QVERIFY2(view.details()->toHtml().contains(u"attempt:2"_s), "a link to the attempt the finding is about");

    QSignalSpy show(&view, &ConformanceView::showAttemptsRequested);
    view.showCaseAttempts(0, 2);
    QCOMPARE(show.size(), 1);
    const auto session = show.first().at(0).value<std::shared_ptr<const Session>>();
    QVERIFY(session);
    QCOMPARE(session->attemptCount(), 2);
    QCOMPARE(show.first().at(3).toInt(), 2);

    // The shown session judged against another policy: curl-7.88 retries the 503 as curl did.
    view.setShownSession(session);
    view.policyBox()->setCurrentIndex(view.policyBox()->findData(u"curl-7.88"_s));
    view.judgeShownSession();
    QCOMPARE(view.model()->rowCount(), 1);
    QVERIFY(view.model()->result(0)->conforms());
    const ConformanceReport report = view.report();
    QCOMPARE(report.cases.size(), 1);
    QVERIFY(report.toJUnit().contains("<testcase name=\"run-1\""));
}

void TestConformanceView::refusesWhatCannotRun()
{
    ConformanceView view(m_clock, m_scheduler);
    view.setEditorPolicy([] { return std::optional<RetryPolicy>(); });
    view.policyBox()->setCurrentIndex(0); // the editor's policy, which has problems
    view.runSuite();
    QVERIFY(!view.isRunning());
    QCOMPARE(view.model()->rowCount(), 0);
    view.policyBox()->setCurrentIndex(view.policyBox()->findData(u"curl"_s));
    view.commandEdit()->clear();
    view.runSuite();
    QVERIFY(!view.isRunning());
    QTemporaryDir dir;
    QFile bad(dir.filePath(u"bad.json"_s));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{}");
    bad.close();
    const int suites = view.suiteBox()->count();
    QVERIFY(!view.addSuiteFile(bad.fileName()));
    QCOMPARE(view.suiteBox()->count(), suites);
}

// The policy editor's "Check with a real client" (issue 30 §5): the urllib3 preset exported for Debian's urllib3
// 1.26, its client written beside it, judged on the standard suite against the editor's policy. The first
// case's verdict is enough here; the whole suite is tst_exportproof_python's.
void TestConformanceView::judgesExportedCode()
{
    if (!QFile::exists(u"/usr/bin/python3"_s))
        QSKIP("needs Debian's /usr/bin/python3 with urllib3");
    const RetryPolicy policy = *PresetCatalog::load(u"urllib3"_s).policy;
    CodeExportPane pane;
    pane.setPolicy(policy);
    QVERIFY(pane.selectTarget(u"urllib3"_s, u"1.26"_s));
    QString error;
    const QString command = pane.prepareCheck(&error);
    QVERIFY2(!command.isEmpty(), qPrintable(error));

    ConformanceView view(m_clock, m_scheduler);
    view.setEditorPolicy([policy] { return std::optional<RetryPolicy>(policy); });
    view.policyBox()->setCurrentIndex(view.policyBox()->findData(u"curl-7.88"_s));
    QVERIFY(view.judgeCommand(command, u"urllib3 1.26"_s));
    QVERIFY(view.isRunning());
    QCOMPARE(view.policyBox()->currentIndex(), 0); // the editor's policy
    QCOMPARE(view.suiteBox()->currentData().toString(), u"standard"_s);
    QCOMPARE(view.commandEdit()->text(), command);
    QVERIFY(!view.judgeCommand(command, u"urllib3 1.26"_s)); // one run at a time
    QTRY_VERIFY_WITH_TIMEOUT(view.model()->result(0) != nullptr, 30000);
    const CaseResult* first = view.model()->result(0);
    QVERIFY2(first->conforms(), first->judgement.findings.isEmpty() ? "" : qPrintable(first->judgement.findings.first().sentence()));
    // 503-then-success: Retry.DEFAULT retries a 503 only with Retry-After, and the policy agrees.
    QCOMPARE(view.model()->index(0, ConformanceModel::CaseColumn).data().toString(), u"503-then-success"_s);
    QCOMPARE(first->run.record.attempts.size(), 1);
    view.stop();
    QTRY_VERIFY(!view.isRunning());
}

QTEST_MAIN(TestConformanceView)
#include "tst_conformanceview.moc"
