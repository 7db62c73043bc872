// SPDX-License-Identifier: GPL-3.0-or-later
// Conformance reports (issue 13 §3): the JUnit XML is checked by xmllint (libxml2, not Retrylab code)
// against tests/schemas/junit.xsd, the constraints of the schema Jenkins' xUnit plugin reads JUnit reports
// with; one testcase per case, a failure per case that does not conform carrying every finding, an error
// per case that could not run. The JSON and the table say the same.
#include "conform/conformancereport.h"
#include "lab/labexchange.h"
#include "policy/presetcatalog.h"

#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

LabExchange answered(quint64 id, qint64 arrivedMs, int status)
{
    LabExchange e;
    e.requestId = id;
    e.arrivedMs = arrivedMs;
    e.method = "GET";
    e.target = "/conform/x";
    e.requestHeaders = { { "Host", "127.0.0.1:9" } };
    e.status = status;
    e.responseStartedMs = arrivedMs + 5;
    e.responseFinishedMs = arrivedMs + 10;
    e.outcome = u"answered"_s;
    return e;
}

CaseResult judged(const QString& name, const QList<LabExchange>& exchanges, int exitCode)
{
    CaseResult r;
    r.suiteCase.name = name;
    r.suiteCase.description = u"a case <with> \"markup\" & control \x01 characters"_s;
    r.run = judgedRunOf(exchanges, exitCode, std::nullopt, {});
    ConformanceJudge judge(*PresetCatalog::load(u"curl-7.88"_s).policy, {});
    r.judgement = judge.judge(r.run);
    r.elapsed = Millis(1234);
    r.output = "curl: (22) The requested URL returned error: 503\n\x01";
    return r;
}

ConformanceReport sample()
{
    ConformanceReport report;
    report.suite = u"standard"_s;
    report.policy = u"curl-7.88"_s;
    report.command = { u"curl"_s, u"--retry"_s, u"3"_s };
    report.startedUtc = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
    report.cases << judged(u"503-then-success"_s, { answered(1, 0, 503), answered(2, 1010, 200) }, 0);
    report.cases << judged(u"404-not-found"_s, { answered(1, 0, 404), answered(2, 1010, 200) }, 0); // retried: fails
    CaseResult notRun;
    notRun.suiteCase.name = u"hang-past-timeout"_s;
    notRun.startError = u"cannot run nosuchclient: No such file or directory"_s;
    report.cases << notRun;
    return report;
}

bool xmllintAvailable() { return !QStandardPaths::findExecutable(u"xmllint"_s).isEmpty(); }

// xmllint's verdict on FILE: exit status 0 when it validates.
int validate(const QString& file, QByteArray* output)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(u"xmllint"_s, { u"--noout"_s, u"--schema"_s, QStringLiteral(RETRYLAB_TEST_SCHEMAS "/junit.xsd"), file });
    if (!p.waitForFinished(30000))
        return -1;
    *output = p.readAll();
    return p.exitCode();
}

} // namespace

class TestConformanceReport : public QObject
{
    Q_OBJECT

private slots:
    void junitValidatesAgainstTheSchema();
    void junitHoldsOneCasePerCase();
    void brokenJUnitIsRefusedByTheSchema();
    void jsonAndTableAgree();
};

void TestConformanceReport::junitValidatesAgainstTheSchema()
{
    if (!xmllintAvailable())
        QFAIL("xmllint (Debian libxml2-utils) is needed: packaging/install-deps.sh installs it");
    QTemporaryDir dir;
    QFile file(dir.filePath(u"report.xml"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(sample().toJUnit());
    file.close();
    QByteArray output;
    QCOMPARE(validate(file.fileName(), &output), 0);
    QVERIFY2(output.contains("validates"), output.constData());
}

void TestConformanceReport::junitHoldsOneCasePerCase()
{
    const ConformanceReport report = sample();
    QCOMPARE(report.failed(), 1);
    QCOMPARE(report.errors(), 1);
    QXmlStreamReader xml(report.toJUnit());
    QStringList cases;
    QString failureOf;
    QString failureText;
    QString errorOf;
    QString current;
    int suites = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QXmlStreamAttributes a = xml.attributes();
        if (xml.name() == u"testsuite"_s) {
            ++suites;
            QCOMPARE(a.value(u"tests"_s), u"3"_s);
            QCOMPARE(a.value(u"failures"_s), u"1"_s);
            QCOMPARE(a.value(u"errors"_s), u"1"_s);
        } else if (xml.name() == u"testcase"_s) {
            current = a.value(u"name"_s).toString();
            cases << current;
            QCOMPARE(a.value(u"classname"_s), u"retrylab.conform.standard"_s);
        } else if (xml.name() == u"failure"_s) {
            failureOf = current;
            QCOMPARE(a.value(u"type"_s), u"retried-not-retryable"_s);
            failureText = xml.readElementText();
        } else if (xml.name() == u"error"_s) {
            errorOf = current;
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(suites, 1);
    QCOMPARE(cases, (QStringList { u"503-then-success"_s, u"404-not-found"_s, u"hang-past-timeout"_s }));
    QCOMPARE(failureOf, u"404-not-found"_s);
    QVERIFY2(failureText.contains(u"404 on GET"_s) && failureText.contains(u"curl-7.88 stops"_s), qPrintable(failureText));
    QCOMPARE(errorOf, u"hang-past-timeout"_s);
}

void TestConformanceReport::brokenJUnitIsRefusedByTheSchema()
{
    if (!xmllintAvailable())
        QFAIL("xmllint (Debian libxml2-utils) is needed");
    // The check can fail: a testcase without a name, and a count that is not a number.
    QByteArray xml = sample().toJUnit();
    xml.replace("<testcase name=\"404-not-found\"", "<testcase");
    xml.replace("failures=\"1\" errors", "failures=\"one\" errors");
    QTemporaryDir dir;
    QFile file(dir.filePath(u"broken.xml"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(xml);
    file.close();
    QByteArray output;
    QVERIFY(validate(file.fileName(), &output) != 0);
    QVERIFY2(output.contains("name") && output.contains("failures"), output.constData());
}

void TestConformanceReport::jsonAndTableAgree()
{
    const ConformanceReport report = sample();
    const QJsonObject json = report.toJson();
    QCOMPARE(json.value(u"format"_s).toString(), u"retrylab-conform-report"_s);
    QCOMPARE(json.value(u"failed"_s).toInt(), 1);
    QCOMPARE(json.value(u"errors"_s).toInt(), 1);
    QCOMPARE(json.value(u"passed"_s).toInt(), 1);
    const QJsonArray cases = json.value(u"cases"_s).toArray();
    QCOMPARE(cases.size(), 3);
    QCOMPARE(cases.at(0).toObject().value(u"verdict"_s).toString(), u"pass"_s);
    const QJsonObject failed = cases.at(1).toObject();
    QCOMPARE(failed.value(u"verdict"_s).toString(), u"fail"_s);
    const QJsonObject finding = failed.value(u"findings"_s).toArray().first().toObject();
    QCOMPARE(finding.value(u"rule"_s).toString(), u"retried-not-retryable"_s);
    QCOMPARE(finding.value(u"attempt"_s).toInt(), 2);
    const QJsonArray attempts = failed.value(u"attempts"_s).toArray();
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.first().toObject().value(u"policy"_s).toObject().value(u"verdict"_s).toString(), u"stop"_s);
    QCOMPARE(cases.at(2).toObject().value(u"verdict"_s).toString(), u"error"_s);
    const QString table = report.table();
    QVERIFY2(table.contains(u"PASS   503-then-success"_s), qPrintable(table));
    QVERIFY2(table.contains(u"FAIL   404-not-found"_s), qPrintable(table));
    QVERIFY2(table.contains(u"ERROR  hang-past-timeout"_s), qPrintable(table));
    QVERIFY2(table.contains(finding.value(u"sentence"_s).toString()), qPrintable(table));
    QVERIFY2(table.trimmed().endsWith(u"3 cases: 1 conform, 1 do not, 1 could not run (policy curl-7.88, suite standard)"_s), qPrintable(table));
}

QTEST_GUILESS_MAIN(TestConformanceReport)
#include "tst_conformancereport.moc"
