// SPDX-License-Identifier: GPL-3.0-or-later
// The rule and hint list models under QAbstractItemModelTester: replacing, inserting, duplicating,
// removing and moving rows; one-line summaries; problems and "changed from the preset" per row.
#include "editors/policylists/hintlistmodel.h"
#include "editors/policylists/rulelistmodel.h"

#include "policy/presetcatalog.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

RetryRule rule(const QString& name, RuleAction action)
{
    RetryRule r;
    r.name = name;
    r.action = action;
    return r;
}

QStringList names(const RuleListModel& model)
{
    QStringList out;
    for (const RetryRule& r : model.items())
        out << r.name;
    return out;
}

} // namespace

class TestPolicyListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void summaries_data()
    {
        QTest::addColumn<RetryRule>("rule");
        QTest::addColumn<QString>("summary");
        RetryRule keyless = rule(u"keyless"_s, RuleAction::Stop);
        keyless.when.methods = { u"POST"_s };
        keyless.when.idempotencyKey = false;
        keyless.when.statuses = { StatusRange { 500, 599 } };
        QTest::addRow("issue 6 example") << keyless << u"POST without key · 5xx → stop"_s;
        RetryRule errors = rule(u"errors"_s, RuleAction::Retry);
        errors.when.outcome = OutcomeKind::Error;
        errors.when.errors = { ErrorClass::Dns, ErrorClass::Refused };
        errors.throttling = true;
        QTest::addRow("error classes, throttling") << errors << u"dns, refused → retry (throttling)"_s;
        QTest::addRow("no condition") << rule(u"all"_s, RuleAction::Success) << u"anything → success"_s;
        RetryRule header = rule(u"h"_s, RuleAction::Stop);
        header.when.headers = { HeaderMatch { u"Stripe-Should-Retry"_s, { u"false"_s }, false } };
        header.when.statuses = { StatusRange { 429, 429 }, StatusRange { 503, 504 } };
        QTest::addRow("header and statuses") << header << u"429, 503-504 · Stripe-Should-Retry: false → stop"_s;
    }
    void summaries()
    {
        QFETCH(RetryRule, rule);
        QFETCH(QString, summary);
        QCOMPARE(RuleListModel::summaryOf(rule), summary);
    }

    void ruleModelUnderTester()
    {
        RuleListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QList<RetryRule> three { rule(u"a"_s, RuleAction::Retry), rule(u"b"_s, RuleAction::Stop),
            rule(u"c"_s, RuleAction::Success) };
        model.setReference(three);
        model.setItems(three);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.data(model.index(1)).toString(), u"anything → stop"_s);
        QCOMPARE(model.data(model.index(1), PolicyListModel::ChangedRole).toBool(), false);

        // Same length: one dataChanged and no reset, so a view keeps its selection.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        QList<RetryRule> edited = three;
        edited[1].action = RuleAction::Retry;
        model.setItems(edited);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(changes.count(), 1);
        QCOMPARE(model.data(model.index(1), PolicyListModel::ChangedRole).toBool(), true);
        QVERIFY(model.data(model.index(1), Qt::ToolTipRole).toString().contains(u"Changed from the preset"_s));

        QVERIFY(model.insertRows(3, 2));
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.item(4).name, u"new-rule"_s);
        QVERIFY(model.data(model.index(4), PolicyListModel::ChangedRole).toBool()); // no reference there
        QVERIFY(!model.insertRows(7, 1));
        QVERIFY(model.duplicateRow(0));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"a"_s, u"b"_s, u"c"_s, u"new-rule"_s, u"new-rule"_s }));
        QVERIFY(model.removeRows(4, 2));
        QVERIFY(!model.removeRows(3, 2));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"a"_s, u"b"_s, u"c"_s }));

        // Down: c in front of b; up: the first a after c; both ways with two rows at once.
        QVERIFY(model.moveRows({}, 3, 1, {}, 2));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"a"_s, u"c"_s, u"b"_s }));
        QVERIFY(model.moveRows({}, 0, 1, {}, 3));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"c"_s, u"a"_s, u"b"_s }));
        QVERIFY(model.moveRows({}, 2, 2, {}, 0));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"b"_s, u"a"_s, u"c"_s }));
        QVERIFY(model.moveRows({}, 0, 2, {}, 4));
        QCOMPARE(names(model), (QStringList { u"a"_s, u"c"_s, u"a"_s, u"b"_s }));
        QVERIFY(!model.moveRows({}, 1, 1, {}, 1)); // onto itself
        QVERIFY(!model.moveRows({}, 1, 1, {}, 2));

        RetryRule renamed = model.item(1);
        renamed.name = u"renamed"_s;
        model.setItem(1, renamed);
        QCOMPARE(model.item(1).name, u"renamed"_s);
        QVERIFY(model.removeRows(0, model.rowCount()));
        QCOMPARE(model.rowCount(), 0);
        model.setItems(three);
        QCOMPARE(model.rowCount(), 3);
    }

    void problemsTurnTheRowRed()
    {
        RuleListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setItems({ rule(u"a"_s, RuleAction::Retry), rule(u"b"_s, RuleAction::Stop) });
        model.setProblems({ {}, { u"statuses[0]: status codes run from 100 to 599"_s } });
        QVERIFY(!model.data(model.index(0), Qt::ForegroundRole).isValid());
        QVERIFY(model.data(model.index(1), Qt::ForegroundRole).isValid());
        QVERIFY(model.data(model.index(1), Qt::BackgroundRole).isValid());
        QCOMPARE(model.data(model.index(1), PolicyListModel::ProblemsRole).toStringList().size(), 1);
        QVERIFY(model.data(model.index(1), Qt::ToolTipRole).toString().startsWith(u"statuses[0]: status codes"_s));
        model.setProblems({});
        QVERIFY(!model.data(model.index(1), Qt::ForegroundRole).isValid());
    }

    void hintModelUnderTester()
    {
        HintListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QList<DelayHint> hints = PresetCatalog::load(u"slen"_s).policy->hints;
        QVERIFY(!hints.isEmpty());
        model.setReference(hints);
        model.setItems(hints);
        QVERIFY(model.insertRows(0, 1));
        QCOMPARE(model.item(0).header, u"Retry-After"_s);
        QVERIFY(model.duplicateRow(1));
        QVERIFY(model.moveRows({}, 0, 1, {}, model.rowCount()));
        QVERIFY(model.removeRows(model.rowCount() - 1, 1));
        QVERIFY(model.removeRows(0, 1));
        QVERIFY(model.items() == hints);

        DelayHint hint;
        hint.header = u"x-amz-retry-after"_s;
        hint.format = HintFormat::Milliseconds;
        hint.statuses = { StatusRange { 429, 429 }, StatusRange { 500, 599 } };
        hint.max = Millis(60000);
        QCOMPARE(HintListModel::summaryOf(hint), u"x-amz-retry-after in ms · 429, 5xx · wait what it asks · over 1 min 0 s: give up"_s);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestPolicyListModel test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_policylistmodel.moc"
