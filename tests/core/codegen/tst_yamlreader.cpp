// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration YAML reader (codegen/yamlreader.h): what it reads, as compact JSON, and what it refuses,
// with the line and column it names.
#include "codegen/yamlreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

class TestYamlReader : public QObject
{
    Q_OBJECT

private slots:
    void reads_data();
    void reads();
    void refuses_data();
    void refuses();
    void limits();
};

static QString compact(const QJsonValue& v)
{
    QJsonArray wrap { v };
    const QByteArray json = QJsonDocument(wrap).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

void TestYamlReader::reads_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("json");
    QTest::newRow("empty") << QByteArray("# nothing\n\n") << u"null"_s;
    QTest::newRow("scalar") << QByteArray("hello world\n") << u"\"hello world\""_s;
    QTest::newRow("map") << QByteArray("a: 1\nb: two\n") << u"{\"a\":1,\"b\":\"two\"}"_s;
    QTest::newRow("start marker") << QByteArray("---\na: 1\n") << u"{\"a\":1}"_s;
    QTest::newRow("nested") << QByteArray("route:\n  retry_policy:\n    retry_on: 5xx\n    num_retries: 3\n")
                            << u"{\"route\":{\"retry_policy\":{\"num_retries\":3,\"retry_on\":\"5xx\"}}}"_s;
    QTest::newRow("sequence at key indent") << QByteArray("h:\n- name: a\n  format: SECONDS\n- name: b\nx: 1\n")
                                            << u"{\"h\":[{\"format\":\"SECONDS\",\"name\":\"a\"},{\"name\":\"b\"}],\"x\":1}"_s;
    QTest::newRow("indented sequence") << QByteArray("h:\n  - 1\n  - two\n") << u"{\"h\":[1,\"two\"]}"_s;
    QTest::newRow("nested sequences") << QByteArray("- - a\n  - b\n- c\n") << u"[[\"a\",\"b\"],\"c\"]"_s;
    QTest::newRow("item block below dash") << QByteArray("-\n  a: 1\n") << u"[{\"a\":1}]"_s;
    QTest::newRow("empty values") << QByteArray("a:\nb: ~\nc: null\n") << u"{\"a\":null,\"b\":null,\"c\":null}"_s;
    QTest::newRow("booleans and numbers") << QByteArray("a: true\nb: False\nc: -2.5\nd: 1e3\ne: 0.025s\nf: 007\n")
                                          << u"{\"a\":true,\"b\":false,\"c\":-2.5,\"d\":1000,\"e\":\"0.025s\",\"f\":7}"_s;
    QTest::newRow("comments") << QByteArray("a: 1 # one\n# whole line\nb: x#y\n") << u"{\"a\":1,\"b\":\"x#y\"}"_s;
    QTest::newRow("double quoted") << QByteArray("a: \"x: y # z\\n\\u00e9\\\"\"\n") << u"{\"a\":\"x: y # z\\né\\\"\"}"_s;
    QTest::newRow("single quoted") << QByteArray("a: 'it''s # not a comment'\n") << u"{\"a\":\"it's # not a comment\"}"_s;
    // A quote inside a plain scalar is an ordinary character, so " #" after it starts a comment; the expected
    // trees are what PyYAML 6 (python3-yaml) reads from the same text. The last row is what the fuzzer found.
    QTest::newRow("quote inside a plain scalar") << QByteArray("a: say \"hi #there\"\n") << u"{\"a\":\"say \\\"hi\"}"_s;
    QTest::newRow("JSON flow with an escaped quote") << QByteArray("{\"a\":\"x \\\"y #z\"}\n") << u"{\"a\":\"x \\\"y #z\"}"_s;
    QTest::newRow("quoted and plain items") << QByteArray("- \"a # b\"\n- it's #c\n") << u"[\"a # b\",\"it's\"]"_s;
    QTest::newRow("fuzzer: plain scalar with quotes and a comment")
        << QByteArray("resilience4j:\n  retry:\n    config# Retry policy \"envoy-htry #olicy \"envoy-hedge\"ed by fR")
        << u"{\"resilience4j\":{\"retry\":\"config# Retry policy \\\"envoy-htry\"}}"_s;
    QTest::newRow("quoted key") << QByteArray("\":method\": GET\n") << u"{\":method\":\"GET\"}"_s;
    QTest::newRow("quoted number stays text") << QByteArray("a: \"25\"\n") << u"{\"a\":\"25\"}"_s;
    QTest::newRow("flow sequence") << QByteArray("codes: [503, 504, \"x, y\"]\n") << u"{\"codes\":[503,504,\"x, y\"]}"_s;
    QTest::newRow("flow map") << QByteArray("m: {exact: GET, n: 1}\n") << u"{\"m\":{\"exact\":\"GET\",\"n\":1}}"_s;
    QTest::newRow("nested flow") << QByteArray("m: {a: [1, {b: 2}], c: []}\n") << u"{\"m\":{\"a\":[1,{\"b\":2}],\"c\":[]}}"_s;
    QTest::newRow("url value") << QByteArray("u: http://x:80/a\n") << u"{\"u\":\"http://x:80/a\"}"_s;
    QTest::newRow("crlf") << QByteArray("a: 1\r\nb: 2\r\n") << u"{\"a\":1,\"b\":2}"_s;
    QTest::newRow("spring duration") << QByteArray("resilience4j:\n  retry:\n    instances:\n      backend:\n        waitDuration: 500ms\n")
                                     << u"{\"resilience4j\":{\"retry\":{\"instances\":{\"backend\":{\"waitDuration\":\"500ms\"}}}}}"_s;
}

void TestYamlReader::reads()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, json);
    const YamlDocument doc = YamlReader::parse(yaml);
    QVERIFY2(doc.ok(), qPrintable(doc.problem));
    QCOMPARE(compact(doc.value), json);
}

void TestYamlReader::refuses_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("problem");
    QTest::newRow("anchor") << QByteArray("a: &x 1\n") << u"line 1, column 4: anchors"_s;
    QTest::newRow("alias") << QByteArray("a: 1\nb: *x\n") << u"line 2, column 4: aliases"_s;
    QTest::newRow("tag") << QByteArray("a: !!str 1\n") << u"line 1, column 4: tags"_s;
    QTest::newRow("two documents") << QByteArray("a: 1\n---\nb: 2\n") << u"line 2, column 1: several documents"_s;
    QTest::newRow("document end") << QByteArray("a: 1\n...\n") << u"line 2, column 1: several documents"_s;
    QTest::newRow("directive") << QByteArray("%YAML 1.2\n---\na: 1\n") << u"line 1, column 1: YAML directives"_s;
    QTest::newRow("block scalar") << QByteArray("a: |\n  text\n") << u"line 1, column 4: block scalars"_s;
    QTest::newRow("complex key") << QByteArray("? a\n: 1\n") << u"line 1"_s;
    QTest::newRow("tab indent") << QByteArray("a:\n\tb: 1\n") << u"line 2, column 1: a tab"_s;
    QTest::newRow("bad indentation") << QByteArray("a:\n    b: 1\n  c: 2\n") << u"line 3, column 3: unexpected indentation"_s;
    QTest::newRow("multi-line scalar") << QByteArray("a: one\n  two\n") << u"line 2, column 3: unexpected indentation"_s;
    QTest::newRow("duplicate key") << QByteArray("a: 1\na: 2\n") << u"line 2, column 1: the key \"a\" appears twice"_s;
    QTest::newRow("unclosed quote") << QByteArray("a: \"x\n") << u"line 1, column 4: an unclosed quoted scalar"_s;
    QTest::newRow("unclosed flow") << QByteArray("a: [1, 2\n") << u"line 1"_s;
    QTest::newRow("mapping after key") << QByteArray("a: b: c\n") << u"line 1, column 4: a mapping cannot follow"_s;
    QTest::newRow("item in mapping") << QByteArray("a: 1\n- b\n") << u"line 2, column 1: a sequence item where a key"_s;
    QTest::newRow("text after quote") << QByteArray("a: \"x\" y\n") << u"line 1"_s;
    QTest::newRow("bad escape") << QByteArray("a: \"\\q\"\n") << u"unknown escape"_s;
    QTest::newRow("not key value") << QByteArray("a: 1\nb\n") << u"line 2, column 1: expected \"key: value\""_s;
}

void TestYamlReader::refuses()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, problem);
    const YamlDocument doc = YamlReader::parse(yaml);
    QVERIFY(!doc.ok());
    QVERIFY2(doc.problem.startsWith(problem) || doc.problem.contains(problem), qPrintable(doc.problem));
}

void TestYamlReader::limits()
{
    QByteArray deep;
    for (int i = 0; i < 200; ++i)
        deep += QByteArray(i * 2, ' ') + "k:\n";
    QVERIFY(YamlReader::parse(deep).problem.contains(u"nested deeper"_s));
    QVERIFY(YamlReader::parse("a: " + QByteArray(300, '[') + QByteArray(300, ']') + "\n").problem.contains(u"nested deeper"_s));
    QVERIFY(YamlReader::parse(QByteArray(YamlReader::kMaxBytes + 1, 'a')).problem.contains(u"larger than"_s));
    QByteArray wide = "a: [";
    for (int i = 0; i < YamlReader::kMaxNodes + 10; ++i)
        wide += "1,";
    wide += "1]\n";
    QVERIFY(YamlReader::parse(wide).problem.contains(u"more than"_s));
}

QTEST_APPLESS_MAIN(TestYamlReader)
#include "tst_yamlreader.moc"
