// SPDX-License-Identifier: GPL-3.0-or-later
// Suites (issue 13 §2): the built-in ones load and every case is a playable scenario answering any path;
// a bad suite file is refused naming the field of the first problem, every problem at once.
#include "conform/conformancesuite.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestConformanceSuite : public QObject
{
    Q_OBJECT

private slots:
    void builtInSuitesLoad_data();
    void builtInSuitesLoad();
    void standardCoversTheIssueList();
    void breakersCallsThroughAnOutage();
    void refusesBadSuites_data();
    void refusesBadSuites();
    void selectsCases();
};

void TestConformanceSuite::builtInSuitesLoad_data()
{
    QTest::addColumn<QString>("name");
    for (const QString& name : SuiteLoader::builtInNames())
        QTest::newRow(qPrintable(name)) << name;
}

void TestConformanceSuite::builtInSuitesLoad()
{
    QFETCH(QString, name);
    const SuiteLoader::Result r = SuiteLoader::load(name);
    QVERIFY2(r.ok(), qPrintable(r.problemText()));
    QCOMPARE(r.suite->name, name);
    QVERIFY(!r.suite->description.isEmpty());
    QVERIFY(!r.suite->cases.isEmpty());
    for (const SuiteCase& c : r.suite->cases) {
        QVERIFY2(!c.description.isEmpty(), qPrintable(c.name));
        QVERIFY2(!c.scenario.routes.isEmpty(), qPrintable(c.name));
        QVERIFY2(c.path.startsWith(u'/'), qPrintable(c.name));
        QVERIFY2(c.timeout.count() > 0, qPrintable(c.name));
    }
}

void TestConformanceSuite::standardCoversTheIssueList()
{
    const SuiteLoader::Result r = SuiteLoader::load(u"standard"_s);
    QVERIFY(r.ok());
    QStringList names;
    for (const SuiteCase& c : r.suite->cases)
        names << c.name;
    // The situations issue 13 §2 lists for `standard`.
    for (const QString& expected :
        { u"503-then-success"_s, u"429-retry-after-seconds"_s, u"429-retry-after-imf-fixdate"_s, u"429-retry-after-rfc850"_s,
            u"429-retry-after-asctime"_s, u"429-retry-after-ms-only"_s, u"429-retry-after-above-caps"_s,
            u"500-post-without-key"_s, u"500-post-with-key"_s, u"reset-before-answer"_s, u"close-before-answer"_s,
            u"hang-past-timeout"_s, u"400-bad-request"_s, u"401-unauthorized"_s, u"404-not-found"_s, u"422-unprocessable"_s,
            u"409-conflict"_s, u"stripe-should-retry-true"_s, u"x-should-retry-true"_s, u"endless-503"_s }) {
        QVERIFY2(names.contains(expected), qPrintable(expected));
    }
    const auto find = [&](const QString& name) { return r.suite->cases.at(names.indexOf(name)); };
    QCOMPARE(find(u"500-post-without-key"_s).method, u"POST"_s);
    QVERIFY(!find(u"500-post-without-key"_s).key);
    QVERIFY(find(u"500-post-with-key"_s).key);
}

void TestConformanceSuite::breakersCallsThroughAnOutage()
{
    const SuiteLoader::Result r = SuiteLoader::load(u"breakers"_s);
    QVERIFY2(r.ok(), qPrintable(r.problemText()));
    QVERIFY(!r.suite->cases.isEmpty());
    for (const SuiteCase& c : r.suite->cases) {
        QVERIFY2(c.calls, qPrintable(c.name));
        QCOMPARE(c.calls->interval.count(), 50); // 20 calls a second
        QVERIFY2((c.calls->count - 1) * c.calls->interval < c.timeout, qPrintable(c.name));
        QVERIFY2((c.calls->count - 1) * c.calls->interval.count() <= 20000, qPrintable(c.name)); // at most ~20 s a case
        QCOMPARE(c.scenario.outages.size(), 1);
        QCOMPARE(c.scenario.outages.first().duration.count(), 5000);
        QVERIFY2(c.scenario.outages.first().from + c.scenario.outages.first().duration < (c.calls->count - 1) * c.calls->interval,
            qPrintable(c.name + u": the calls go on after the outage"_s));
    }
    QCOMPARE(r.suite->cases.first().name, u"outage-reset-5s"_s);
    QCOMPARE(r.suite->cases.first().scenario.outages.first().mode, OutageWindow::Mode::Reset);
    // The standard suite's cases are one request each.
    const SuiteLoader::Result standard = SuiteLoader::load(u"standard"_s);
    QVERIFY(standard.ok());
    for (const SuiteCase& c : standard.suite->cases)
        QVERIFY2(!c.calls, qPrintable(c.name));
}

void TestConformanceSuite::refusesBadSuites_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("problems"); // each must start one of the problem lines
    const QByteArray head = R"("format":"retrylab-suite","version":1,"name":"mine",)";
    QTest::addRow("not JSON") << QByteArray("{\n\"format\": ,") << QStringList { u"not valid JSON at line 2"_s };
    QTest::addRow("not an object") << QByteArray("[]") << QStringList { u"$:"_s };
    QTest::addRow("wrong format and version")
        << QByteArray(R"({"format":"x","version":2,"name":"n","cases":[{"name":"a","steps":[{"kind":"respond"}]}]})")
        << QStringList { u"$.format:"_s, u"$.version:"_s };
    QTest::addRow("no cases") << "{" + head + R"("cases":[]})" << QStringList { u"$.cases:"_s };
    QTest::addRow("unknown key in a case")
        << "{" + head + R"("cases":[{"name":"a","stpes":[],"steps":[{"kind":"respond"}]}]})"
        << QStringList { u"$.cases[0].stpes:"_s };
    QTest::addRow("bad name, method, timeout")
        << "{" + head + R"("cases":[{"name":"A b","method":"get","timeout_ms":0,"steps":[{"kind":"respond"}]}]})"
        << QStringList { u"$.cases[0].name:"_s, u"$.cases[0].method:"_s, u"$.cases[0].timeout_ms:"_s };
    QTest::addRow("a bad step, located in the case")
        << "{" + head + R"("cases":[{"name":"a","steps":[{"kind":"respond","status":999}]}]})"
        << QStringList { u"$.cases[0].steps[0].status:"_s };
    QTest::addRow("neither steps nor scenario") << "{" + head + R"("cases":[{"name":"a"}]})" << QStringList { u"$.cases[0]:"_s };
    QTest::addRow("calls without an interval, an interval without calls")
        << "{" + head + R"("cases":[{"name":"a","calls":5,"steps":[{"kind":"respond"}]},{"name":"b","interval_ms":5,"steps":[{"kind":"respond"}]}]})"
        << QStringList { u"$.cases[0].calls:"_s, u"$.cases[1].interval_ms:"_s };
    QTest::addRow("calls and interval out of range")
        << "{" + head + R"("cases":[{"name":"a","calls":0,"interval_ms":1.5,"steps":[{"kind":"respond"}]}]})"
        << QStringList { u"$.cases[0].calls:"_s, u"$.cases[0].interval_ms:"_s };
    QTest::addRow("calls that outlast the timeout")
        << "{" + head + R"("cases":[{"name":"a","calls":100,"interval_ms":100,"timeout_ms":5000,"steps":[{"kind":"respond"}]}]})"
        << QStringList { u"$.cases[0].calls: 100 calls 100 ms apart take 9900 ms"_s };
    QTest::addRow("a bad outage beside the steps, located in the case")
        << "{" + head + R"("cases":[{"name":"a","steps":[{"kind":"respond"}],"outages":[{"from_ms":0,"duration_ms":5,"mode":"down"}]}]})"
        << QStringList { u"$.cases[0].outages[0].mode:"_s };
    QTest::addRow("outages beside a whole scenario")
        << "{" + head + R"("cases":[{"name":"a","outages":[],"scenario":{"format":1,"name":"s","routes":[{"path":"/x","steps":[{"kind":"respond"}]}]}}]})"
        << QStringList { u"$.cases[0].outages:"_s };
    QTest::addRow("two cases of one name")
        << "{" + head + R"("cases":[{"name":"a","steps":[{"kind":"respond"}]},{"name":"a","steps":[{"kind":"reset"}]}]})"
        << QStringList { u"$.cases[1].name:"_s };
}

void TestConformanceSuite::refusesBadSuites()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, problems);
    const SuiteLoader::Result r = SuiteLoader::fromJson(json);
    QVERIFY(!r.ok());
    for (const QString& expected : problems) {
        const bool found = std::any_of(r.problems.cbegin(), r.problems.cend(), [&](const QString& p) { return p.startsWith(expected); });
        QVERIFY2(found, qPrintable(expected + u" not in:\n"_s + r.problemText()));
    }
}

void TestConformanceSuite::selectsCases()
{
    const SuiteLoader::Result r = SuiteLoader::load(u"standard"_s);
    QVERIFY(r.ok());
    QString error;
    const std::optional<QList<SuiteCase>> two = r.suite->select({ u"endless-503"_s, u"404-not-found"_s }, &error);
    QVERIFY(two);
    QCOMPARE(two->size(), 2);
    QCOMPARE(two->first().name, u"endless-503"_s);
    QVERIFY(!r.suite->select({ u"nope"_s }, &error));
    QVERIFY2(error.contains(u"nope"_s) && error.contains(u"503-then-success"_s), qPrintable(error));
    const SuiteLoader::Result missing = SuiteLoader::load(u"/no/such/suite.json"_s);
    QVERIFY(!missing.ok());
    QVERIFY2(missing.problemText().contains(u"standard"_s), qPrintable(missing.problemText()));
}

QTEST_GUILESS_MAIN(TestConformanceSuite)
#include "tst_conformancesuite.moc"
