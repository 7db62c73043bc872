// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/scenariocatalog.h"
#include "lab/scenarioloader.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestScenarioLoader : public QObject
{
    Q_OBJECT
private slots:
    void badDocuments_data();
    void badDocuments();
    void everyProblemAtOnce();
    void builtInScenariosLoad();
    void catalogByNameAndPath();
};

void TestScenarioLoader::badDocuments_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    const QByteArray head = R"({"format":1,"name":"n","routes":[{"path":"/a","steps":[)";
    QTest::addRow("not JSON") << "{nope"_ba << u"$"_s;
    QTest::addRow("array document") << "[]"_ba << u"$"_s;
    QTest::addRow("missing format") << R"({"name":"n","routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.format"_s;
    QTest::addRow("future format") << R"({"format":2,"name":"n","routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.format"_s;
    QTest::addRow("no routes") << R"({"format":1,"name":"n","routes":[]})"_ba << u"$.routes"_s;
    QTest::addRow("unknown top-level key") << R"({"format":1,"name":"n","rutes":[],"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.rutes"_s;
    QTest::addRow("path without slash") << R"({"format":1,"name":"n","routes":[{"path":"a","steps":[{"kind":"respond"}]}]})"_ba << u"$.routes[0].path"_s;
    QTest::addRow("no steps") << R"({"format":1,"name":"n","routes":[{"path":"/a","steps":[]}]})"_ba << u"$.routes[0].steps"_s;
    QTest::addRow("upstream not http") << R"({"format":1,"name":"n","upstream":"ftp://h","routes":[{"path":"/a","steps":[{"kind":"forward"}]}]})"_ba << u"$.upstream"_s;
    QTest::addRow("forwarded_headers not a boolean") << R"({"format":1,"name":"n","forwarded_headers":"yes","routes":[{"path":"/a","steps":[{"kind":"forward"}]}]})"_ba << u"$.forwarded_headers"_s;
    QTest::addRow("forward with a body") << R"({"format":1,"name":"n","routes":[{"path":"/a","steps":[{"kind":"forward","body":"x"}]}]})"_ba << u"$.routes[0].steps[0]"_s;
    QTest::addRow("unknown kind") << head + R"({"kind":"explode"}]}]})" << u"$.routes[0].steps[0].kind"_s;
    QTest::addRow("status out of range") << head + R"({"kind":"respond","status":700}]}]})" << u"$.routes[0].steps[0].status"_s;
    QTest::addRow("status not a number") << head + R"({"kind":"respond","status":"200"}]}]})" << u"$.routes[0].steps[0].status"_s;
    QTest::addRow("late without delay") << head + R"({"kind":"late"}]}]})" << u"$.routes[0].steps[0].delay_ms"_s;
    QTest::addRow("refuse without duration") << head + R"({"kind":"refuse"}]}]})" << u"$.routes[0].steps[0].duration_ms"_s;
    QTest::addRow("dribble on reset") << head + R"({"kind":"reset","dribble":{"bytes":1}}]}]})" << u"$.routes[0].steps[0].dribble"_s;
    QTest::addRow("bad retry_after form") << head + R"({"kind":"respond","retry_after":{"seconds":1,"form":"x"}}]}]})" << u"$.routes[0].steps[0].retry_after.form"_s;
    QTest::addRow("bad dialect") << R"({"format":1,"name":"n","rate_limit":{"limit":1,"dialect":"klingon"},"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.rate_limit.dialect"_s;
    QTest::addRow("rate limit without limit") << R"({"format":1,"name":"n","rate_limit":{},"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.rate_limit.limit"_s;
    QTest::addRow("random with zero weights") << R"({"format":1,"name":"n","routes":[{"path":"/","mode":"random","steps":[{"kind":"respond","weight":0}]}]})"_ba << u"$.routes[0].steps"_s;
    // Issue 14 (fuzzing): range-checked before the cast to qint64 (UBSan: float-cast-overflow).
    QTest::addRow("seed 1e30 (no cast overflow)") << R"({"format":1,"name":"n","seed":1e30,"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.seed"_s;
    QTest::addRow("seed -1e30") << R"({"format":1,"name":"n","seed":-1e30,"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.seed"_s;
    QTest::addRow("seed 2^63 (rounds to int64 max + 1)") << R"({"format":1,"name":"n","seed":9223372036854775807,"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.seed"_s;
    QTest::addRow("status 1e300") << head + R"({"kind":"respond","status":1e300}]}]})" << u"$.routes[0].steps[0].status"_s;
    QTest::addRow("outage without duration") << R"({"format":1,"name":"n","outages":[{"from_ms":1}],"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})"_ba << u"$.outages[0].duration_ms"_s;
}

void TestScenarioLoader::badDocuments()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    const ScenarioLoader::Result result = ScenarioLoader::fromJson(json);
    QVERIFY(!result.ok());
    bool found = false;
    for (const ScenarioProblem& p : result.problems)
        found = found || p.path == path;
    QVERIFY2(found, qPrintable(result.problemText()));
}

void TestScenarioLoader::everyProblemAtOnce()
{
    const ScenarioLoader::Result result = ScenarioLoader::fromJson(
        R"({"format":1,"routes":[{"path":"x","steps":[{"kind":"respond","status":1},{"kind":"nope"}]}]})");
    QVERIFY(!result.ok());
    QVERIFY2(result.problems.size() >= 4, qPrintable(result.problemText())); // name, path, status, kind
}

void TestScenarioLoader::builtInScenariosLoad()
{
    const QList<ScenarioCatalog::Entry> entries = ScenarioCatalog::builtIn();
    QStringList names;
    for (const ScenarioCatalog::Entry& e : entries) {
        names << e.name;
        const ScenarioLoader::Result result = ScenarioCatalog::load(e.name);
        QVERIFY2(result.ok(), qPrintable(e.name + u": "_s + result.problemText()));
        QVERIFY(!e.description.isEmpty());
        QVERIFY(!e.description.contains(u'\n'));
        QCOMPARE(result.scenario->name, e.name);
    }
    for (const char16_t* expected : { u"seed-004-pix", u"seed-000-rate-limited", u"seed-001-slen", u"seed-002-rfc9110",
             u"seed-003-declines", u"flaky-api" })
        QVERIFY2(names.contains(QStringView(expected).toString()), qPrintable(names.join(u", "_s)));
}

void TestScenarioLoader::catalogByNameAndPath()
{
    QVERIFY(ScenarioCatalog::load(u"flaky-api"_s).ok());
    QVERIFY(ScenarioCatalog::load(QStringLiteral(RETRYLAB_SOURCE_DIR) + u"/resources/scenarios/seed-003-declines.json"_s).ok());
    const ScenarioLoader::Result missing = ScenarioCatalog::load(u"no-such-scenario"_s);
    QVERIFY(!missing.ok());
    QVERIFY(missing.problemText().contains(u"flaky-api"_s)); // lists what exists
}

QTEST_GUILESS_MAIN(TestScenarioLoader)
#include "tst_scenarioloader.moc"
