// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario editor's tree of routes and steps (issue 12 §4): rows added, removed and moved change the JSON
// document exactly so, keys without a field survive, weights are edited in place, the loader's problems
// mark their rows; all under QAbstractItemModelTester.
#include "labview/scenarioeditmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

QJsonObject step(const QString& kind, int weight = -1)
{
    QJsonObject s { { u"kind"_s, kind } };
    if (weight >= 0)
        s.insert(u"weight"_s, weight);
    return s;
}

QJsonObject document()
{
    return QJsonObject { { u"format"_s, 1 }, { u"name"_s, u"t"_s }, { u"_comment"_s, u"kept"_s },
        { u"routes"_s,
            QJsonArray { QJsonObject { { u"path"_s, u"/a"_s }, { u"mode"_s, u"random"_s }, { u"rate_limit"_s, QJsonObject { { u"limit"_s, 5 } } },
                             { u"steps"_s, QJsonArray { step(u"forward"_s, 90), step(u"reset"_s, 10) } } },
                QJsonObject { { u"path"_s, u"/b"_s }, { u"steps"_s, QJsonArray { step(u"respond"_s) } } } } } };
}

QStringList kinds(const ScenarioEditModel& m, int route)
{
    QStringList out;
    for (int s = 0; s < m.stepCount(route); ++s)
        out << m.step(route, s).value(u"kind"_s).toString();
    return out;
}

QStringList paths(const ScenarioEditModel& m)
{
    QStringList out;
    for (int r = 0; r < m.routeCount(); ++r)
        out << m.route(r).value(u"path"_s).toString();
    return out;
}

} // namespace

class TestScenarioEditModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void treeOfRoutesAndSteps()
    {
        ScenarioEditModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(document());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowCount(model.routeIndex(0)), 2);
        QCOMPARE(model.rowCount(model.routeIndex(1)), 1);
        QCOMPARE(model.rowCount(model.stepIndex(0, 0)), 0);
        QCOMPARE(ScenarioEditModel::routeOf(model.stepIndex(0, 1)), 0);
        QCOMPARE(ScenarioEditModel::stepOf(model.stepIndex(0, 1)), 1);
        QCOMPARE(ScenarioEditModel::stepOf(model.routeIndex(1)), -1);
        QCOMPARE(model.data(model.routeIndex(0)).toString(), u"* /a — random"_s);
        // Steps in the outline's words; the weight column only where the route draws at random.
        QCOMPARE(model.data(model.stepIndex(0, 0)).toString(), u"forward to the upstream"_s);
        QCOMPARE(model.data(model.stepIndex(0, 0, 1)).toString(), u"90"_s);
        QVERIFY(model.flags(model.stepIndex(0, 0, 1)) & Qt::ItemIsEditable);
        QVERIFY(!model.data(model.stepIndex(1, 0, 1)).isValid());
        QVERIFY(!(model.flags(model.stepIndex(1, 0, 1)) & Qt::ItemIsEditable));
    }

    void addRemoveMove()
    {
        ScenarioEditModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(document());
        QSignalSpy edited(&model, &ScenarioEditModel::edited);

        model.insertStep(0, 1, step(u"respond"_s, 5));
        QCOMPARE(kinds(model, 0), (QStringList { u"forward"_s, u"respond"_s, u"reset"_s }));
        model.moveStep(0, 0, 2); // forward to the end
        QCOMPARE(kinds(model, 0), (QStringList { u"respond"_s, u"reset"_s, u"forward"_s }));
        model.moveStep(0, 2, 0); // and back to the front
        QCOMPARE(kinds(model, 0), (QStringList { u"forward"_s, u"respond"_s, u"reset"_s }));
        model.removeStep(0, 1);
        QCOMPARE(kinds(model, 0), (QStringList { u"forward"_s, u"reset"_s }));

        model.insertRoute(2, QJsonObject { { u"path"_s, u"/c"_s }, { u"steps"_s, QJsonArray { step(u"close"_s) } } });
        QCOMPARE(paths(model), (QStringList { u"/a"_s, u"/b"_s, u"/c"_s }));
        model.moveRoute(2, 0);
        QCOMPARE(paths(model), (QStringList { u"/c"_s, u"/a"_s, u"/b"_s }));
        model.moveRoute(0, 1);
        QCOMPARE(paths(model), (QStringList { u"/a"_s, u"/c"_s, u"/b"_s }));
        QCOMPARE(kinds(model, 0), (QStringList { u"forward"_s, u"reset"_s })); // the steps moved with their route
        model.removeRoute(1);
        QCOMPARE(paths(model), (QStringList { u"/a"_s, u"/b"_s }));
        QCOMPARE(edited.count(), 8);

        // Out-of-range requests change nothing.
        model.moveStep(0, 0, 5);
        model.removeStep(4, 0);
        model.moveRoute(-1, 0);
        QCOMPARE(edited.count(), 8);
        // What the editor has no field for is still there, where it was.
        QCOMPARE(model.document().value(u"_comment"_s).toString(), u"kept"_s);
        QCOMPARE(model.route(0).value(u"rate_limit"_s).toObject().value(u"limit"_s).toInt(), 5);
    }

    void weightEditedInPlace()
    {
        ScenarioEditModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(document());
        QVERIFY(model.setData(model.stepIndex(0, 1, 1), 7));
        QCOMPARE(model.step(0, 1).value(u"weight"_s).toInt(), 7);
        QVERIFY(!model.setData(model.stepIndex(0, 1, 1), -3)); // refused, not stored
        QVERIFY(!model.setData(model.stepIndex(0, 1, 1), u"many"_s));
        QCOMPARE(model.step(0, 1).value(u"weight"_s).toInt(), 7);
        QVERIFY(!model.setData(model.routeIndex(0, 1), 3));
    }

    void problemsMarkTheirRows()
    {
        ScenarioEditModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(document());
        model.setStep(1, 0, QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, 150 } });
        const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(model.document());
        QVERIFY(!loaded.ok());
        model.setProblems(loaded.problems);
        const QString message = u"$.routes[1].steps[0].status: must be an integer from 200 to 599"_s;
        QCOMPARE(model.data(model.stepIndex(1, 0), Qt::ToolTipRole).toString(), message);
        QCOMPARE(model.data(model.routeIndex(1), Qt::ToolTipRole).toString(), message);
        QVERIFY(model.data(model.stepIndex(1, 0), Qt::ForegroundRole).isValid());
        QVERIFY(!model.data(model.routeIndex(0), Qt::ForegroundRole).isValid()); // route 0 has nothing wrong
        QCOMPARE(model.data(model.stepIndex(1, 0)).toString(), u"respond (not valid)"_s);
        model.setProblems({});
        QVERIFY(!model.data(model.stepIndex(1, 0), Qt::ForegroundRole).isValid());
    }

    void modeChangeShowsWeights()
    {
        ScenarioEditModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(document());
        QJsonObject route = model.route(1);
        route.insert(u"mode"_s, u"random"_s);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setRoute(1, route);
        QVERIFY(changed.count() >= 2); // the route and its steps' weights
        QCOMPARE(model.data(model.stepIndex(1, 0, 1)).toString(), u"1"_s); // the default weight
        // A route object with other steps (not what the form sends, but allowed): the tree follows.
        route.insert(u"steps"_s, QJsonArray { step(u"reset"_s), step(u"close"_s) });
        model.setRoute(1, route);
        QCOMPARE(model.rowCount(model.routeIndex(1)), 2);
    }
};

QTEST_MAIN(TestScenarioEditModel)
#include "tst_scenarioeditmodel.moc"
