// SPDX-License-Identifier: GPL-3.0-or-later
// The lab panel's scenario picker lists every built-in scenario of the catalog, so the ones issue 28 §4
// added — outage-10s (the whole server 503 for 10 s after 200 answers) and latency-ramp — are one click
// away: picking one loads it into the live lab, and the outline describes the new steps in words.
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "labview/labpanel.h"
#include "run/runcontroller.h"

#include "testtime.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;

namespace {

QComboBox* picker(LabPanel& panel)
{
    for (QComboBox* box : panel.findChildren<QComboBox*>()) {
        if (box->findData(ScenarioCatalog::defaultScenarioName()) >= 0)
            return box;
    }
    return nullptr;
}

QStringList outlineLines(LabPanel& panel)
{
    QStringList lines;
    for (QTreeWidget* tree : panel.findChildren<QTreeWidget*>()) {
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            lines << (*it)->text(0);
    }
    return lines;
}

} // namespace

class TestLabScenarioPicker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void listsTheCatalog()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(QString());
        LabPanel panel(&controller);
        QComboBox* box = picker(panel);
        QVERIFY(box);
        const QList<ScenarioCatalog::Entry> entries = ScenarioCatalog::builtIn();
        QCOMPARE(box->count(), entries.size());
        for (const ScenarioCatalog::Entry& e : entries)
            QVERIFY2(box->findData(e.name) >= 0, qPrintable(e.name));
    }

    void oneClickLoadsIt_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("described"); // a line of the outline
        QTest::newRow("outage-10s") << u"outage-10s"_s << u"outage: every request answered 503 for 10 s"_s;
        QTest::newRow("latency-ramp") << u"latency-ramp"_s << u"latency 20 ms → 2 s over 30 s"_s;
    }
    void oneClickLoadsIt()
    {
        QFETCH(QString, name);
        QFETCH(QString, described);
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(QString());
        LabPanel panel(&controller);
        QComboBox* box = picker(panel);
        QVERIFY(box);
        const int index = box->findData(name);
        QVERIFY2(index >= 0, qPrintable(name));
        box->setCurrentIndex(index);
        emit box->activated(index); // what a click on the item does
        QCOMPARE(controller.scenarioName(), name);
        QCOMPARE(panel.shownScenarioName(), name);
        const QStringList lines = outlineLines(panel);
        bool found = false;
        for (const QString& line : lines)
            found = found || line.contains(described);
        QVERIFY2(found, qPrintable(lines.join(u'\n')));
    }

    // "an outage of 10 s under 20 calls a second is one click" needs a rate: the request's Pace (RunPlan::
    // interval) starts the runs on a fixed beat. The lab hears them 100 ms apart, and the batch is running
    // between beats (the engine is idle then); Stop between beats ends it, the rest never start.
    void runsStartOnABeat()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(QString());
        controller.setLabEnabled(true);
        RunPlan plan;
        plan.request.method = u"GET"_s;
        plan.labPath = u"/api/orders/1"_s;
        plan.policy.name = u"once"_s;
        plan.policy.limits.maxAttempts = 1;
        plan.repeat = 5;
        plan.concurrency = 1;
        plan.interval = Millis(100);
        QSignalSpy running(&controller, &RunController::runningChanged);
        QVERIFY(controller.run(plan));
        QTRY_COMPARE_WITH_TIMEOUT(running.size(), 2, 10000);
        QCOMPARE(running.at(1).at(0).toBool(), false);
        const QList<LabExchange>& heard = controller.lab()->ledger().exchanges();
        QCOMPARE(heard.size(), 5);
        // The beat is fixed from the first run (a late run does not push the later ones), so each arrival is
        // judged against its place on the beat, not against the one before: a run 11 ms late is followed by
        // one 89 ms after it, and that is the beat kept. A burst (two runs together) would still fail.
        for (qsizetype i = 1; i < heard.size(); ++i) {
            const qint64 offset = heard.at(i).arrivedMs - heard.at(0).arrivedMs;
            const qint64 gap = heard.at(i).arrivedMs - heard.at(i - 1).arrivedMs;
            QVERIFY2(offset >= i * 100 - 40 && offset <= i * 100 + 60,
                     qPrintable(u"run %1 came %2 ms after the first, the beat says %3"_s.arg(i + 1).arg(offset).arg(i * 100)));
            QVERIFY2(gap >= 50, qPrintable(u"run %1 came %2 ms after the one before"_s.arg(i + 1).arg(gap)));
        }

        controller.resetLab();
        plan.repeat = 50;
        QVERIFY(controller.run(plan));
        QTest::qWait(250);
        controller.stop();
        QVERIFY(!controller.isRunning());
        const int sent = int(controller.lab()->ledger().requestsReceived());
        QTest::qWait(300); // no beat left to start another
        QCOMPARE(int(controller.lab()->ledger().requestsReceived()), sent);
        QVERIFY2(sent >= 2 && sent <= 5, qPrintable(QString::number(sent)));
    }
};

QTEST_MAIN(TestLabScenarioPicker)
#include "tst_labscenariopicker.moc"
