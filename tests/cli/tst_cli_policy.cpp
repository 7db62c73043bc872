// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab policy …` and the top-level help, run as a user runs them: the real binary through QProcess.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

Result run(const QStringList& args)
{
    QProcess process;
    process.setProgram(QStringLiteral(RETRYLAB_BINARY));
    process.setArguments(args);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s); // subcommands must not need a display
    env.insert(u"QT_QPA_PLATFORM"_s, u"minimal"_s);
    process.setProcessEnvironment(env);
    process.start();
    if (!process.waitForFinished(30000))
        return {};
    return Result { process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError()) };
}

QJsonObject explainJson(const QStringList& args)
{
    const Result r = run(QStringList { u"policy"_s, u"explain"_s } + args + QStringList { u"--json"_s });
    if (r.exitCode != 0)
        qWarning("%s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

} // namespace

class TestCliPolicy : public QObject
{
    Q_OBJECT
private slots:
    void versionAndHelp()
    {
        const Result version = run({ u"--version"_s });
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith(u"retrylab "_s));
        const Result help = run({ u"--help"_s });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(u"policy"_s));
        const Result sub = run({ u"help"_s, u"policy"_s });
        QCOMPARE(sub.exitCode, 0);
        QVERIFY(sub.out.contains(u"retrylab policy explain"_s));
        QCOMPARE(run({ u"help"_s, u"no-such-command"_s }).exitCode, 2);
        QCOMPARE(run({ u"frobnicate"_s }).exitCode, 2);
    }

    void listNamesEveryPreset()
    {
        const Result r = run({ u"policy"_s, u"list"_s });
        QCOMPARE(r.exitCode, 0);
        for (const char* name : { "paymongo", "slen", "rfc9110-standard", "checkout-go", "polly-gateway", "pix", "polly",
                 "ms-http-resilience", "aws-standard", "aws-adaptive", "grpc", "urllib3", "tenacity-random-exponential", "curl",
                 "envoy", "go-retryablehttp", "cenkalti-backoff", "resilience4j", "stripe" })
            QVERIFY2(r.out.contains(QLatin1String(name) + u"  "_s), name);
    }

    void showJsonRoundTripsThroughValidate()
    {
        QTemporaryDir dir;
        const Result shown = run({ u"policy"_s, u"show"_s, u"aws-standard"_s, u"--json"_s });
        QCOMPARE(shown.exitCode, 0);
        const QString path = dir.filePath(u"policy.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(shown.out.toUtf8());
        file.close();
        const Result validated = run({ u"policy"_s, u"validate"_s, path });
        QCOMPARE(validated.exitCode, 0);
        const Result text = run({ u"policy"_s, u"show"_s, path });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(u"Rules (first match wins)"_s));
    }

    void validateListsEveryProblem()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"bad.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format":"retrylab-policy","version":1,"limits":{"max_retries":-1,"attempt_timeout_ms":0},"backoff":{"base_ms":500,"cap_ms":100}})");
        file.close();
        const Result r = run({ u"policy"_s, u"validate"_s, path });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"limits.max_retries"_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"limits.attempt_timeout_ms"_s));
        QVERIFY(r.err.contains(u"backoff.cap_ms"_s));
        QCOMPARE(run({ u"policy"_s, u"validate"_s, dir.filePath(u"missing.json"_s) }).exitCode, 2);
    }

    void explain_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("decision");
        QTest::addColumn<QString>("source");
        QTest::addColumn<qint64>("min");
        QTest::addColumn<qint64>("max");
        // seed 000: 429 with Retry-After 2 waits exactly 2 s.
        QTest::addRow("paymongo 429 Retry-After 2")
            << QStringList { u"paymongo"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"429"_s, u"--header"_s, u"Retry-After: 2"_s }
            << u"retry"_s << u"retry-after"_s << qint64(2000) << qint64(2000);
        // seed 001: 502 is never sent again.
        QTest::addRow("slen 502") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"502"_s } << u"stop"_s << QString() << qint64(-1) << qint64(-1);
        // retry-systems.md §2b: AWS standard first retry U(0, 1 s).
        QTest::addRow("aws-standard 503 first retry")
            << QStringList { u"aws-standard"_s, u"--method"_s, u"POST"_s, u"--status"_s, u"503"_s } << u"retry"_s << u"backoff"_s << qint64(0) << qint64(1000);
        QTest::addRow("aws-standard 503 second retry")
            << QStringList { u"aws-standard"_s, u"--method"_s, u"POST"_s, u"--status"_s, u"503"_s, u"--attempt"_s, u"2"_s } << u"retry"_s << u"backoff"_s << qint64(0) << qint64(2000);
        QTest::addRow("attempts used up")
            << QStringList { u"aws-standard"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"503"_s, u"--attempt"_s, u"3"_s } << u"stop"_s << QString() << qint64(-1) << qint64(-1);
        // seed 000: a DELETE answered 404 after a lost answer counts as deleted.
        QTest::addRow("paymongo DELETE 404 after lost answer")
            << QStringList { u"paymongo"_s, u"--method"_s, u"DELETE"_s, u"--status"_s, u"404"_s, u"--after-lost-answer"_s, u"--attempt"_s, u"2"_s }
            << u"success"_s << QString() << qint64(-1) << qint64(-1);
        QTest::addRow("curl dns error") << QStringList { u"curl"_s, u"--method"_s, u"GET"_s, u"--error"_s, u"dns"_s } << u"retry"_s << u"backoff"_s << qint64(1000) << qint64(1000);
    }

    void explain()
    {
        QFETCH(QStringList, args);
        const QJsonObject o = explainJson(args);
        QTEST(o.value(u"decision").toString(), "decision");
        QFETCH(QString, source);
        QFETCH(qint64, min);
        QFETCH(qint64, max);
        QVERIFY(!o.value(u"reason").toString().isEmpty());
        if (source.isEmpty()) {
            QVERIFY(o.value(u"delay_ms").isNull());
            QVERIFY(o.value(u"delay_source").isNull());
            return;
        }
        QCOMPARE(o.value(u"delay_source").toString(), source);
        QCOMPARE(qint64(o.value(u"delay_ms").toObject().value(u"min").toDouble()), min);
        QCOMPARE(qint64(o.value(u"delay_ms").toObject().value(u"max").toDouble()), max);
    }

    void explainRejectsBadArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("no method") << QStringList { u"slen"_s, u"--status"_s, u"503"_s };
        QTest::addRow("status and error") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"503"_s, u"--error"_s, u"dns"_s };
        QTest::addRow("status out of range") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"999"_s };
        QTest::addRow("unknown error class") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--error"_s, u"timeout"_s };
        QTest::addRow("malformed header") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"429"_s, u"--header"_s, u"Retry-After 2"_s };
        QTest::addRow("unknown option") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"429"_s, u"--verbose"_s };
        QTest::addRow("unknown preset") << QStringList { u"no-such-preset"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"429"_s };
        QTest::addRow("attempt zero") << QStringList { u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"429"_s, u"--attempt"_s, u"0"_s };
    }

    void explainRejectsBadArguments()
    {
        QFETCH(QStringList, args);
        const Result r = run(QStringList { u"policy"_s, u"explain"_s } + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty());
        QVERIFY(r.out.isEmpty());
    }

    void tableIsReadable()
    {
        const Result r = run({ u"policy"_s, u"table"_s, u"paymongo"_s });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"POST+key"_s));
        QVERIFY(r.out.contains(u"connection-lost"_s));
        QVERIFY(r.out.contains(u"retry 1:"_s));
    }
};

QTEST_GUILESS_MAIN(TestCliPolicy)
#include "tst_cli_policy.moc"
