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
    void outageAndRampProblems_data();
    void outageAndRampProblems();
    void outageAndRampFields_data();
    void outageAndRampFields();
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

// Issue 28 §4: the outage step and the latency ramp, each wrong value located and said plainly.
void TestScenarioLoader::outageAndRampProblems_data()
{
    QTest::addColumn<QByteArray>("step");
    QTest::addColumn<QString>("path"); // under $.routes[0].steps[0]
    QTest::addColumn<QString>("message");
    QTest::addRow("outage without duration_ms")
        << R"({"kind":"outage"})"_ba << u".duration_ms"_s << u"is required: how long the whole server is down"_s;
    QTest::addRow("outage of 0 ms") << R"({"kind":"outage","duration_ms":0})"_ba << u".duration_ms"_s
                                    << u"an outage needs a duration of at least 1 ms"_s;
    QTest::addRow("outage of -5 ms") << R"({"kind":"outage","duration_ms":-5})"_ba << u".duration_ms"_s
                                     << u"must be an integer from 0 to 3600000"_s;
    QTest::addRow("outage duration as text (10s)") << R"({"kind":"outage","duration_ms":"10s"})"_ba << u".duration_ms"_s
                                                   << u"must be an integer from 0 to 3600000"_s;
    QTest::addRow("outage of 2.5 ms") << R"({"kind":"outage","duration_ms":2.5})"_ba << u".duration_ms"_s
                                      << u"must be an integer from 0 to 3600000"_s;
    QTest::addRow("outage longer than an hour") << R"({"kind":"outage","duration_ms":3600001})"_ba << u".duration_ms"_s
                                                << u"must be an integer from 0 to 3600000"_s;
    QTest::addRow("outage mode unknown") << R"({"kind":"outage","duration_ms":10,"mode":"crash"})"_ba << u".mode"_s
                                         << u"must be one of: status, reset, refuse"_s;
    QTest::addRow("outage key misspelt") << R"({"kind":"outage","duration_ms":10,"mdoe":"reset"})"_ba << u".mdoe"_s
                                         << u"unknown key"_s;
    QTest::addRow("a mode on a respond step")
        << R"({"kind":"respond","mode":"reset"})"_ba << u".mode"_s << u"only an outage step has a mode"_s;
    QTest::addRow("reset outage with a status")
        << R"({"kind":"outage","duration_ms":10,"mode":"reset","status":503})"_ba << u".status"_s
        << u"a reset outage writes no answer (only mode status does)"_s;
    QTest::addRow("refuse outage with a body")
        << R"({"kind":"outage","duration_ms":10,"mode":"refuse","body":"x"})"_ba << u".body"_s
        << u"a refuse outage writes no answer (only mode status does)"_s;
    QTest::addRow("outage status 700") << R"({"kind":"outage","duration_ms":10,"status":700})"_ba << u".status"_s
                                       << u"must be an integer from 200 to 599"_s;
    QTest::addRow("outage said to apply")
        << R"({"kind":"outage","duration_ms":10,"applied":true})"_ba << u".applied"_s << u"an outage applies nothing"_s;
    QTest::addRow("outage with a latency ramp")
        << R"({"kind":"outage","duration_ms":10,"latency_ramp":{"to_ms":5,"over_ms":9}})"_ba << u".latency_ramp"_s
        << u"an outage's answers wait delay_ms, not a ramp"_s;
    QTest::addRow("ramp not an object") << R"({"kind":"respond","latency_ramp":500})"_ba << u".latency_ramp"_s
                                        << u"must be an object {from_ms, to_ms, over_ms | over_requests}"_s;
    QTest::addRow("ramp without to_ms") << R"({"kind":"respond","latency_ramp":{"from_ms":5,"over_ms":100}})"_ba
                                        << u".latency_ramp.to_ms"_s << u"is required: the delay the ramp ends at"_s;
    QTest::addRow("ramp from -1 ms") << R"({"kind":"respond","latency_ramp":{"from_ms":-1,"to_ms":5,"over_ms":100}})"_ba
                                     << u".latency_ramp.from_ms"_s << u"must be an integer from 0 to 3600000"_s;
    QTest::addRow("ramp over 0 ms") << R"({"kind":"respond","latency_ramp":{"to_ms":5,"over_ms":0}})"_ba
                                    << u".latency_ramp.over_ms"_s << u"must be an integer from 1 to 86400000"_s;
    QTest::addRow("ramp over 1 request") << R"({"kind":"respond","latency_ramp":{"to_ms":5,"over_requests":1}})"_ba
                                         << u".latency_ramp.over_requests"_s
                                         << u"must be an integer from 2 to 1000000"_s;
    QTest::addRow("ramp over time and requests")
        << R"({"kind":"respond","latency_ramp":{"to_ms":5,"over_ms":9,"over_requests":3}})"_ba << u".latency_ramp"_s
        << u"give one of over_ms (time since the step first played) or over_requests (its plays)"_s;
    QTest::addRow("ramp over nothing")
        << R"({"kind":"respond","latency_ramp":{"to_ms":5}})"_ba << u".latency_ramp"_s
        << u"give one of over_ms (time since the step first played) or over_requests (its plays)"_s;
    QTest::addRow("ramp key misspelt") << R"({"kind":"respond","latency_ramp":{"to_ms":5,"over_ms":9,"form_ms":1}})"_ba
                                       << u".latency_ramp.form_ms"_s << u"unknown key"_s;
    QTest::addRow("ramp and delay_ms") << R"({"kind":"respond","delay_ms":5,"latency_ramp":{"to_ms":5,"over_ms":9}})"_ba
                                       << QString() << u"give either delay_ms or latency_ramp, not both"_s;
    QTest::addRow("ramp on a hang")
        << R"({"kind":"hang","latency_ramp":{"to_ms":5,"over_ms":9}})"_ba << u".latency_ramp"_s
        << u"only a step that answers (or fails) after a delay has a latency ramp: not hang or refuse"_s;
    QTest::addRow("late step on a ramp from 0 ms")
        << R"({"kind":"late","latency_ramp":{"from_ms":0,"to_ms":5,"over_ms":9}})"_ba << u".latency_ramp"_s
        << u"a late step needs a delay: from_ms and to_ms of at least 1"_s;
}

void TestScenarioLoader::outageAndRampProblems()
{
    QFETCH(QByteArray, step);
    QFETCH(QString, path);
    QFETCH(QString, message);
    const ScenarioLoader::Result result
        = ScenarioLoader::fromJson(R"({"format":1,"name":"n","routes":[{"path":"/a","steps":[)" + step + "]}]}");
    QVERIFY(!result.ok());
    const QString expected = u"$.routes[0].steps[0]"_s + path + u": "_s + message;
    QVERIFY2(result.problemText().split(u'\n').contains(expected), qPrintable(result.problemText()));
}

void TestScenarioLoader::outageAndRampFields_data()
{
    QTest::addColumn<QByteArray>("step");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("mode"); // of an outage; empty for other kinds
    QTest::addColumn<qint64>("durationMs");
    QTest::addColumn<QList<qint64>>("ramp"); // from, to, over_ms, over_requests; empty: no ramp
    QTest::addRow("outage: 503 and mode status by default")
        << R"({"kind":"outage","duration_ms":10000})"_ba << 503 << u"status"_s << qint64(10000) << QList<qint64> {};
    QTest::addRow("outage: its own status, Retry-After and delay")
        << R"({"kind":"outage","duration_ms":1,"status":502,"retry_after":10,"delay_ms":30})"_ba << 502 << u"status"_s
        << qint64(1) << QList<qint64> {};
    QTest::addRow("outage: reset") << R"({"kind":"outage","duration_ms":3600000,"mode":"reset"})"_ba << 503
                                   << u"reset"_s << qint64(3600000) << QList<qint64> {};
    QTest::addRow("outage: refuse") << R"({"kind":"outage","duration_ms":500,"mode":"refuse"})"_ba << 503 << u"refuse"_s
                                    << qint64(500) << QList<qint64> {};
    QTest::addRow("ramp over time, from 0 by default")
        << R"({"kind":"respond","status":200,"latency_ramp":{"to_ms":2000,"over_ms":30000}})"_ba << 200 << QString()
        << qint64(0) << QList<qint64> { 0, 2000, 30000, 0 };
    QTest::addRow("ramp over requests, falling, on a 503")
        << R"({"kind":"respond","status":503,"latency_ramp":{"from_ms":900,"to_ms":10,"over_requests":50}})"_ba << 503
        << QString() << qint64(0) << QList<qint64> { 900, 10, 0, 50 };
    QTest::addRow("ramp on a late step")
        << R"({"kind":"late","latency_ramp":{"from_ms":1,"to_ms":9000,"over_requests":2}})"_ba << 200 << QString()
        << qint64(0) << QList<qint64> { 1, 9000, 0, 2 };
    QTest::addRow("ramp on a rate-limit step") << R"({"kind":"rate-limit","latency_ramp":{"to_ms":50,"over_ms":1}})"_ba
                                               << 429 << QString() << qint64(0) << QList<qint64> { 0, 50, 1, 0 };
}

void TestScenarioLoader::outageAndRampFields()
{
    QFETCH(QByteArray, step);
    QFETCH(int, status);
    QFETCH(QString, mode);
    QFETCH(qint64, durationMs);
    QFETCH(QList<qint64>, ramp);
    const ScenarioLoader::Result result
        = ScenarioLoader::fromJson(R"({"format":1,"name":"n","routes":[{"path":"/a","steps":[)" + step + "]}]}");
    QVERIFY2(result.ok(), qPrintable(result.problemText()));
    const FaultStep& s = result.scenario->routes.at(0).steps.at(0);
    QCOMPARE(s.status, status);
    QCOMPARE(s.duration.count(), durationMs);
    if (!mode.isEmpty()) {
        QCOMPARE(s.kind, FaultStep::Kind::Outage);
        QCOMPARE(FaultStep::kindName(s.kind), u"outage"_s);
        const OutageMode expected = mode == u"reset"_s ? OutageMode::Reset
            : mode == u"refuse"_s                      ? OutageMode::Refuse
                                                       : OutageMode::Status;
        QVERIFY(s.outageMode == expected);
    }
    QCOMPARE(s.latencyRamp.has_value(), !ramp.isEmpty());
    if (s.latencyRamp) {
        QCOMPARE(s.latencyRamp->from.count(), ramp[0]);
        QCOMPARE(s.latencyRamp->to.count(), ramp[1]);
        QCOMPARE(s.latencyRamp->over.count(), ramp[2]);
        QCOMPARE(qint64(s.latencyRamp->overPlays), ramp[3]);
        QCOMPARE(s.delay.count(), 0);
    }
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
             u"seed-003-declines", u"flaky-api", u"outage-10s", u"latency-ramp" })
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
