// SPDX-License-Identifier: GPL-3.0-or-later
// The Herd view's totals table: one row per policy, every figure of HerdPolicyResult in its column, formatted
// for people in DisplayRole and raw in UserRole; reset cleanly under QAbstractItemModelTester.
#include "herd/herdtotalsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

HerdPolicyResult policyResult(const QString& label)
{
    HerdPolicyResult r;
    r.label = label;
    r.clients = 1000;
    r.runs = 3;
    r.totals.requests = 1000;
    r.totals.succeeded = 925;
    r.totals.failed = 75;
    r.totals.attempts = 2310;
    r.totals.serverCalls = 2290.5;
    r.totals.duplicates = 4;
    r.totals.completionMs = 61'500;
    r.totals.latencyP50Ms = 42;
    r.totals.latencyP90Ms = 850;
    r.totals.latencyP99Ms = 12'400;
    r.goodput = 15.4;
    return r;
}

// Two policies: one recovered, one collapsed at 62 s (as metastable-osdi22 shows them).
HerdResult twoPolicies()
{
    HerdResult result;
    result.experiment = u"metastable-osdi22"_s;
    HerdPolicyResult recovered = policyResult(u"no-retries"_s);
    recovered.recovered = true;
    HerdPolicyResult collapsed = policyResult(u"aws-standard"_s);
    collapsed.recovered = false;
    collapsed.collapsedAt = Millis(62'000);
    result.results = { recovered, collapsed };
    return result;
}

} // namespace

class TstHerdTotalsModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void emptyModelHasColumnsButNoRows()
    {
        HerdTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(HerdTotalsModel::ColumnCount));
        QCOMPARE(model.headerData(HerdTotalsModel::CollapsedColumn, Qt::Horizontal).toString(), u"Collapsed at"_s);
        QVERIFY(!model.headerData(HerdTotalsModel::AmplificationColumn, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }

    void rowsFollowTheResult()
    {
        HerdTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setResult(twoPolicies());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(reset.count(), 2);
    }

    void displayedValues_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("shown");
        using M = HerdTotalsModel;
        QTest::addRow("policy label") << 0 << int(M::PolicyColumn) << u"no-retries"_s;
        QTest::addRow("clients") << 0 << int(M::ClientsColumn) << u"1,000"_s;
        QTest::addRow("runs") << 0 << int(M::RunsColumn) << u"3"_s;
        QTest::addRow("requests, whole") << 0 << int(M::RequestsColumn) << u"1,000"_s;
        QTest::addRow("success rate: 925 of 1000") << 0 << int(M::SuccessColumn) << u"92.5 %"_s;
        QTest::addRow("amplification: 2310 attempts / 1000 requests") << 0 << int(M::AmplificationColumn) << u"2.31×"_s;
        QTest::addRow("server calls, a mean over runs keeps a decimal") << 0 << int(M::ServerCallsColumn) << u"2,290.5"_s;
        QTest::addRow("duplicates") << 0 << int(M::DuplicatesColumn) << u"4"_s;
        QTest::addRow("completion 61.5 s") << 0 << int(M::CompletionColumn) << u"1 min 02 s"_s;
        QTest::addRow("p50 in ms") << 0 << int(M::P50Column) << u"42 ms"_s;
        QTest::addRow("p90 in ms") << 0 << int(M::P90Column) << u"850 ms"_s;
        QTest::addRow("p99 in s") << 0 << int(M::P99Column) << u"12.4 s"_s;
        QTest::addRow("goodput per second") << 0 << int(M::GoodputColumn) << u"15.4/s"_s;
        QTest::addRow("recovered yes") << 0 << int(M::RecoveredColumn) << u"yes"_s;
        QTest::addRow("recovered no") << 1 << int(M::RecoveredColumn) << u"no"_s;
        QTest::addRow("never collapsed") << 0 << int(M::CollapsedColumn) << u"—"_s;
        QTest::addRow("collapsed at 62 s, on the charts' axis") << 1 << int(M::CollapsedColumn) << u"62 s"_s;
    }

    void displayedValues()
    {
        QFETCH(int, row);
        QFETCH(int, column);
        QFETCH(QString, shown);
        HerdTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(twoPolicies());
        QCOMPARE(model.index(row, column).data().toString(), shown);
    }

    void rawValuesForSorting()
    {
        HerdTotalsModel model;
        model.setResult(twoPolicies());
        QCOMPARE(model.index(0, HerdTotalsModel::SuccessColumn).data(Qt::UserRole).toDouble(), 0.925);
        QCOMPARE(model.index(0, HerdTotalsModel::AmplificationColumn).data(Qt::UserRole).toDouble(), 2.31);
        QCOMPARE(model.index(1, HerdTotalsModel::CollapsedColumn).data(Qt::UserRole).toDouble(), 62'000.0);
        QVERIFY(std::isnan(model.index(0, HerdTotalsModel::CollapsedColumn).data(Qt::UserRole).toDouble()));
        QCOMPARE(model.index(0, HerdTotalsModel::RecoveredColumn).data(Qt::UserRole).toDouble(), 1.0);
    }

    void unknownRecoveryIsADash()
    {
        // A closed-loop experiment, or one without a trigger, cannot say whether goodput came back.
        HerdResult result;
        HerdPolicyResult r = policyResult(u"slen"_s);
        r.recovered.reset();
        r.totals.requests = 0; // nothing started: no division by zero
        result.results = { r };
        HerdTotalsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(result);
        QCOMPARE(model.index(0, HerdTotalsModel::RecoveredColumn).data().toString(), u"—"_s);
        QVERIFY(!model.index(0, HerdTotalsModel::RecoveredColumn).data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(model.index(0, HerdTotalsModel::SuccessColumn).data().toString(), u"0.0 %"_s);
        QCOMPARE(model.index(0, HerdTotalsModel::AmplificationColumn).data().toString(), u"0.00×"_s);
    }

    void alignmentAndColour()
    {
        HerdTotalsModel model;
        model.setResult(twoPolicies());
        const auto align = [&](int column) { return Qt::Alignment(model.index(0, column).data(Qt::TextAlignmentRole).toInt()); };
        QVERIFY(align(HerdTotalsModel::PolicyColumn) & Qt::AlignLeft);
        QVERIFY(align(HerdTotalsModel::P99Column) & Qt::AlignRight);
        // Each row's swatch is its policy's chart colour, and the two differ.
        const QColor first = model.index(0, HerdTotalsModel::PolicyColumn).data(Qt::DecorationRole).value<QColor>();
        const QColor second = model.index(1, HerdTotalsModel::PolicyColumn).data(Qt::DecorationRole).value<QColor>();
        QVERIFY(first.isValid());
        QVERIFY(first != second);
    }

    void durationsForPeople_data()
    {
        QTest::addColumn<double>("ms");
        QTest::addColumn<QString>("text");
        QTest::addRow("below 10 ms: a decimal") << 2.5 << u"2.5 ms"_s;
        QTest::addRow("milliseconds") << 850.0 << u"850 ms"_s;
        QTest::addRow("seconds, two decimals under 10 s") << 1234.0 << u"1.23 s"_s;
        QTest::addRow("seconds, one decimal") << 12'400.0 << u"12.4 s"_s;
        QTest::addRow("minutes") << 185'000.0 << u"3 min 05 s"_s;
        QTest::addRow("not a number") << std::nan("") << u"—"_s;
    }

    void durationsForPeople()
    {
        QFETCH(double, ms);
        QFETCH(QString, text);
        QCOMPARE(HerdTotalsModel::formatDuration(ms), text);
    }
};

QTEST_MAIN(TstHerdTotalsModel)
#include "tst_herdtotalsmodel.moc"
