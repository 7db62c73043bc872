// SPDX-License-Identifier: GPL-3.0-or-later
// The .NET (Polly 8, Microsoft.Extensions.Http.Resilience) and Java (resilience4j) targets as written (issue 30):
// golden units for a few presets (tests/core/codegen/data/{dotnet,java}/, written again with
// RETRYLAB_UPDATE_GOLDEN=1), JSON that QJsonDocument reads and YAML that python3-yaml and our reader read, the
// counts each library takes (Polly and MEHR count retries, resilience4j attempts), the pipeline's order, keys
// minted only when the policy adds them, and the lost lists of a few presets exactly.
#include "codegen/codeexport.h"
#include "codegen/yamlreader.h"
#include "policy/presetcatalog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

CodeExport exported(const QString& preset, const QString& target)
{
    const CodeTarget* t = CodeTargets::find(target);
    if (!t)
        return {};
    return t->generate(*PresetCatalog::load(preset).policy, t->versions.first());
}

QStringList lostPaths(const CodeExport& e)
{
    QStringList out;
    for (const LostBehaviour& l : e.lost)
        out << l.path;
    return out;
}

QString folder(const QString& target)
{
    return target.startsWith(u"resilience4j"_s) ? u"java"_s : u"dotnet"_s;
}

// The first integer after NAME in CODE ("MaxRetryAttempts = 2", "maxAttempts(3)", "maxAttempts: 3").
int numberAfter(const QString& code, const QString& name)
{
    const QRegularExpressionMatch m = QRegularExpression(QRegularExpression::escape(name) + u"\\W{1,4}(\\d+)"_s).match(code);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestExportDotnetJava : public QObject
{
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void counts_data();
    void counts();
    void pipelineOrder();
    void keys();
    void lostLists_data();
    void lostLists();
};

void TestExportDotnetJava::golden_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("preset");
    const QList<std::pair<QString, QStringList>> rows {
        { u"polly"_s, { u"polly"_s, u"polly-circuit-breaker"_s, u"slen"_s } },
        { u"ms-http-resilience"_s, { u"ms-http-standard"_s, u"ms-http-hedging"_s } },
        { u"ms-http-resilience-json"_s, { u"ms-http-standard"_s } },
        { u"resilience4j"_s, { u"resilience4j"_s, u"slen"_s } },
        { u"resilience4j-yaml"_s, { u"resilience4j"_s } },
    };
    for (const auto& [target, presets] : rows)
        for (const QString& p : presets)
            QTest::addRow("%s %s", qPrintable(target), qPrintable(p)) << target << p;
}

void TestExportDotnetJava::golden()
{
    QFETCH(QString, target);
    QFETCH(QString, preset);
    const CodeTarget* t = CodeTargets::find(target);
    QVERIFY2(t, qPrintable(target));
    const CodeExport e = exported(preset, target);
    QString code = e.code;
    code.replace(QStringLiteral("Retrylab " RETRYLAB_VERSION), u"Retrylab @VERSION@"_s);
    const QString file = QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/core/codegen/data/") + folder(target) + u'/'
        + u"%1.%2.%3"_s.arg(preset, target, CodeTargets::fileSuffix(t->language));
    if (qEnvironmentVariableIntValue("RETRYLAB_UPDATE_GOLDEN") == 1) {
        QDir().mkpath(QFileInfo(file).absolutePath());
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(code.toUtf8());
    }
    QFile f(file);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file + u" (RETRYLAB_UPDATE_GOLDEN=1 writes it)"_s));
    QCOMPARE(code, QString::fromUtf8(f.readAll()));

    if (t->language == u"json"_s) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(e.code.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(doc.object().value(u"_retrylab_policy"_s).toString(), preset);
        QVERIFY(doc.object().value(u"_retrylab"_s).isArray());
    } else if (t->language == u"yaml"_s) {
        QProcess python;
        python.start(u"/usr/bin/python3"_s, { u"-c"_s, u"import yaml,sys; yaml.safe_load(sys.stdin)"_s });
        if (python.waitForStarted()) {
            python.write(e.code.toUtf8());
            python.closeWriteChannel();
            QVERIFY(python.waitForFinished());
            QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        }
        const YamlDocument doc = YamlReader::parse(e.code.toUtf8());
        QVERIFY2(doc.ok(), qPrintable(doc.problem));
    } else {
        // Braces balance (a cheap check that the unit is whole); the header is a comment.
        QCOMPARE(e.code.count(u'{'), e.code.count(u'}'));
        QCOMPARE(e.code.count(u'('), e.code.count(u')'));
        QVERIFY(e.code.startsWith(u"// Retry policy"_s));
    }
}

void TestExportDotnetJava::counts_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("value");
    // slen: 2 retries, 3 attempts; polly: 3 retries, 4 attempts.
    QTest::newRow("polly slen") << u"polly"_s << u"slen"_s << u"MaxRetryAttempts"_s << 2;
    QTest::newRow("polly polly") << u"polly"_s << u"polly"_s << u"MaxRetryAttempts"_s << 3;
    QTest::newRow("ms-http-resilience ms-http-standard") << u"ms-http-resilience"_s << u"ms-http-standard"_s << u"o.Retry.MaxRetryAttempts"_s << 3;
    QTest::newRow("ms-http-resilience slen") << u"ms-http-resilience"_s << u"slen"_s << u"MaxRetryAttempts"_s << 2;
    QTest::newRow("ms-http-resilience-json ms-http-standard") << u"ms-http-resilience-json"_s << u"ms-http-standard"_s << u"\"MaxRetryAttempts\""_s << 3;
    QTest::newRow("resilience4j slen") << u"resilience4j"_s << u"slen"_s << u".maxAttempts"_s << 3;
    QTest::newRow("resilience4j polly") << u"resilience4j"_s << u"polly"_s << u".maxAttempts"_s << 4;
    QTest::newRow("resilience4j-yaml slen") << u"resilience4j-yaml"_s << u"slen"_s << u"maxAttempts"_s << 3;
    QTest::newRow("resilience4j-yaml resilience4j") << u"resilience4j-yaml"_s << u"resilience4j"_s << u"maxAttempts"_s << 3;
}

void TestExportDotnetJava::counts()
{
    QFETCH(QString, target);
    QFETCH(QString, preset);
    QFETCH(QString, name);
    QFETCH(int, value);
    QCOMPARE(numberAfter(exported(preset, target).code, name), value);
}

void TestExportDotnetJava::pipelineOrder()
{
    // polly-circuit-breaker: the retry outside the breaker.
    const QString polly = exported(u"polly-circuit-breaker"_s, u"polly"_s).code;
    QVERIFY(polly.indexOf(u".AddRetry("_s) >= 0);
    QVERIFY(polly.indexOf(u".AddRetry("_s) < polly.indexOf(u".AddCircuitBreaker("_s));
    // ms-http-standard as Polly: limiter, total timeout, retry, breaker, attempt timeout.
    const QString standard = exported(u"ms-http-standard"_s, u"polly"_s).code;
    QStringList calls;
    for (const QRegularExpressionMatch& m : QRegularExpression(u"\\n\\s+\\.(Add\\w+)\\("_s).globalMatch(standard))
        calls << m.captured(1);
    QCOMPARE(calls, (QStringList { u"AddConcurrencyLimiter"_s, u"AddTimeout"_s, u"AddRetry"_s, u"AddCircuitBreaker"_s, u"AddTimeout"_s }));
    // ms-http-hedging: the standard hedging handler, the hedge before the endpoint's breaker and timeout.
    const QString hedging = exported(u"ms-http-hedging"_s, u"ms-http-resilience"_s).code;
    QVERIFY(hedging.contains(u"AddStandardHedgingHandler()"_s));
    QStringList order;
    for (const QString& option : { u"o.TotalRequestTimeout."_s, u"o.Hedging."_s, u"o.Endpoint.RateLimiter."_s, u"o.Endpoint.CircuitBreaker."_s, u"o.Endpoint.Timeout."_s })
        order << QString::number(hedging.indexOf(option));
    QStringList sorted = order;
    std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) { return a.toInt() < b.toInt(); });
    QCOMPARE(order, sorted);
    QVERIFY(!order.contains(u"-1"_s));
    QVERIFY(exported(u"ms-http-standard"_s, u"ms-http-resilience"_s).code.contains(u"AddStandardResilienceHandler(o =>"_s));
    // resilience4j-circuit-breaker: each attempt through the breaker, inside the retry.
    const QString r4j = exported(u"resilience4j-circuit-breaker"_s, u"resilience4j"_s).code;
    QVERIFY(r4j.indexOf(u"CircuitBreaker.decorateCheckedSupplier(BREAKER, attempt)"_s) >= 0);
    QVERIFY(r4j.indexOf(u"CircuitBreaker.decorateCheckedSupplier(BREAKER, attempt)"_s) < r4j.indexOf(u"Retry.decorateCheckedSupplier(retry, attempt)"_s));
}

void TestExportDotnetJava::keys()
{
    // slen adds keys to POST; polly does not.
    for (const auto& [target, mint] : { std::pair { u"polly"_s, u"NewIdempotencyKey()"_s }, std::pair { u"ms-http-resilience"_s, u"NewIdempotencyKey()"_s },
             std::pair { u"resilience4j"_s, u"UUID.randomUUID()"_s } }) {
        QVERIFY2(exported(u"slen"_s, target).code.contains(mint), qPrintable(target));
        QVERIFY2(!exported(u"polly"_s, target).code.contains(mint), qPrintable(target));
    }
    // The key is made once per logical request, before the pipeline runs.
    const QString slen = exported(u"slen"_s, u"polly"_s).code;
    QVERIFY(slen.indexOf(u"var key = NewIdempotencyKey();"_s) < slen.indexOf(u"Pipeline.ExecuteAsync("_s));
    const QString java = exported(u"slen"_s, u"resilience4j"_s).code;
    QVERIFY(java.indexOf(u"new RetryCall(withIdempotencyKey(request))"_s) >= 0);
    QVERIFY(java.indexOf(u"new RetryCall(withIdempotencyKey(request))"_s) < java.indexOf(u"Retry.decorateCheckedSupplier("_s));
    QVERIFY(!exported(u"resilience4j"_s, u"resilience4j"_s).code.contains(u"UUID"_s));
}

void TestExportDotnetJava::lostLists_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("lost");
    QTest::newRow("polly polly") << u"polly"_s << u"polly"_s << QStringList {};
    QTest::newRow("polly polly-circuit-breaker") << u"polly"_s << u"polly-circuit-breaker"_s << QStringList {};
    QTest::newRow("polly slen") << u"polly"_s << u"slen"_s << QStringList { u"limits.connect_timeout_ms"_s };
    QTest::newRow("polly aws-standard") << u"polly"_s << u"aws-standard"_s << QStringList { u"quota"_s };
    QTest::newRow("polly urllib3") << u"polly"_s << u"urllib3"_s << QStringList { u"rules.connect-timeout"_s };
    QTest::newRow("polly resilience4j-circuit-breaker") << u"polly"_s << u"resilience4j-circuit-breaker"_s
                                                        << QStringList { u"pipeline[1].window"_s, u"pipeline[1].judge_after_success"_s,
                                                               u"pipeline[1].half_open_probes"_s };
    QTest::newRow("ms-http-resilience ms-http-hedging") << u"ms-http-resilience"_s << u"ms-http-hedging"_s << QStringList {};
    QTest::newRow("ms-http-resilience ms-http-standard") << u"ms-http-resilience"_s << u"ms-http-standard"_s << QStringList { u"pipeline[1]"_s };
    QTest::newRow("ms-http-resilience slen") << u"ms-http-resilience"_s << u"slen"_s << QStringList { u"limits.connect_timeout_ms"_s };
    QTest::newRow("ms-http-resilience-json slen") << u"ms-http-resilience-json"_s << u"slen"_s
                                                  << QStringList { u"limits.connect_timeout_ms"_s, u"limits.deadline_ms"_s, u"backoff"_s,
                                                         u"hints[0]"_s, u"rules"_s, u"idempotency"_s };
    QTest::newRow("resilience4j resilience4j") << u"resilience4j"_s << u"resilience4j"_s << QStringList {};
    QTest::newRow("resilience4j resilience4j-circuit-breaker") << u"resilience4j"_s << u"resilience4j-circuit-breaker"_s << QStringList {};
    QTest::newRow("resilience4j slen") << u"resilience4j"_s << u"slen"_s << QStringList {};
    QTest::newRow("resilience4j aws-standard") << u"resilience4j"_s << u"aws-standard"_s << QStringList { u"quota"_s };
    QTest::newRow("resilience4j polly-circuit-breaker") << u"resilience4j"_s << u"polly-circuit-breaker"_s
                                                        << QStringList { u"pipeline[1].buckets"_s, u"pipeline[1].bucket_start"_s,
                                                               u"pipeline[1].judge_after_success"_s };
    QTest::newRow("resilience4j-yaml resilience4j") << u"resilience4j-yaml"_s << u"resilience4j"_s << QStringList {};
    QTest::newRow("resilience4j-yaml slen") << u"resilience4j-yaml"_s << u"slen"_s
                                            << QStringList { u"limits.attempt_timeout_ms"_s, u"limits.connect_timeout_ms"_s, u"jitter.cap"_s,
                                                   u"hints[0]"_s, u"idempotency"_s, u"rules"_s };
}

void TestExportDotnetJava::lostLists()
{
    QFETCH(QString, target);
    QFETCH(QString, preset);
    QFETCH(QStringList, lost);
    QCOMPARE(lostPaths(exported(preset, target)), lost);
}

QTEST_GUILESS_MAIN(TestExportDotnetJava)
#include "tst_export_dotnet_java.moc"
