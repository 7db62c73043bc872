// SPDX-License-Identifier: GPL-3.0-or-later
// Two npm SDKs nobody here wrote, pinned by tests/clients/node/package-lock.json, judged by
// `retrylab conform --suite standard` against the presets that model their versions (issue 13 §5):
//   openai 6.49.0              against openai-node-6.49 (6.26.0 to 7.4.x; 7.x needs Node.js 22, Debian 12
//                              ships 18)
//   @aws-sdk/client-s3 3.967.0 against aws-js-v3 (the last client-s3 whose engines allow Node.js 18; its
//                              retry code resolves to @smithy/core 3.41.1, the version the preset was read from)
// Each must conform in every case but the documented, version-specific deviations of its row (none today:
// both conform in all 21 cases on Node.js 18.20.4 and 20.20.2). The crossed rows judge each SDK by the
// other's preset on two cases where their sources differ, so a judge that passed everything would fail here.
// Both scripts run with a 3 s per-attempt timeout (the hang case); the policy variant written here says so.

#include "conformclient.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

constexpr int kAttemptTimeoutMs = 3000; // the scripts' own: OpenAI({ timeout }), requestHandler.requestTimeout
constexpr int kRunTimeoutMs = 200000; // a whole suite: ~45 s for openai (the 15 s above-caps case), ~30 s for S3

// A finding the test expects: for a real row, a deviation of the pinned version (with the SDK source that
// shows it); for a crossed row, the difference between the two SDKs that the judge must see.
struct Expected
{
    QString caseName;
    QString rule;
    QString reason;
};

// A preset with the scripts' per-attempt timeout instead of the SDK's default (10 min for openai, none for S3).
QString writePolicyVariant(const QString& preset, const QTemporaryDir& dir)
{
    return ConformClient::writePolicyVariant(dir, preset, preset + u"-timeout3s"_s,
        [](QJsonObject& limits) { limits.insert(u"attempt_timeout_ms"_s, kAttemptTimeoutMs); });
}

QString table(const QJsonArray& cases)
{
    QStringList lines;
    for (const QJsonValue& v : cases) {
        const QJsonObject c = v.toObject();
        lines << u"  %1 %2 (%3 attempts)"_s.arg(c.value(u"verdict"_s).toString().toUpper(), -5)
                     .arg(c.value(u"case"_s).toString(), -28)
                     .arg(c.value(u"attempts"_s).toArray().size());
        for (const QJsonValue& f : c.value(u"findings"_s).toArray())
            lines << u"        "_s + f.toObject().value(u"sentence"_s).toString();
        for (const QJsonValue& n : c.value(u"notes"_s).toArray())
            lines << u"        (note) "_s + (n.isObject() ? n.toObject().value(u"sentence"_s).toString() : n.toString());
    }
    return lines.join(u'\n');
}

} // namespace

Q_DECLARE_METATYPE(QList<Expected>)

class TestConformNpm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"node"_s).isEmpty())
            QFAIL("node is not installed: run packaging/install-deps.sh (Debian 12: nodejs npm)");
        for (const char* package : { "openai", "@aws-sdk/client-s3" }) {
            const QString manifest = QStringLiteral(RETRYLAB_NPM_CLIENTS "/node_modules/") + QString::fromLatin1(package)
                + u"/package.json"_s;
            if (!QFile::exists(manifest))
                QFAIL(qPrintable(u"%1 is missing: the npm_ci_clients fixture did not install it"_s.arg(manifest)));
        }
    }

    void conforms_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QStringList>("cases"); // empty: the whole suite
        QTest::addColumn<QList<Expected>>("expected");

        QTest::addRow("openai 6.49.0 against openai-node-6.49")
            << u"openai-client.mjs"_s << u"openai-node-6.49"_s << QStringList {} << QList<Expected> {};
        QTest::addRow("@aws-sdk/client-s3 3.967.0 against aws-js-v3")
            << u"s3-client.mjs"_s << u"aws-js-v3"_s << QStringList {} << QList<Expected> {};

        const QStringList crossed { u"409-conflict"_s, u"x-should-retry-false"_s };
        QTest::addRow("crossed: openai 6.49.0 judged by aws-js-v3")
            << u"openai-client.mjs"_s << u"aws-js-v3"_s << crossed
            << QList<Expected> {
                   { u"409-conflict"_s, u"retried-not-retryable"_s,
                       u"openai client.js shouldRetry retries 409 (lock timeouts); 409 is in none of the lists of "
                       "@smithy/core retry/service-error-classification/constants.js"_s },
                   { u"x-should-retry-false"_s, u"not-retried"_s,
                       u"openai client.js shouldRetry obeys x-should-retry: false; @smithy/core reads no such header "
                       "and retries 503 (TRANSIENT_ERROR_STATUS_CODES)"_s },
               };
        QTest::addRow("crossed: @aws-sdk/client-s3 3.967.0 judged by openai-node-6.49")
            << u"s3-client.mjs"_s << u"openai-node-6.49"_s << crossed
            << QList<Expected> {
                   { u"409-conflict"_s, u"not-retried"_s,
                       u"@smithy/core StandardRetryStrategy.js retries only transient, throttling and 500/502/503/504 "
                       "errors; openai-node-6.49 retries 409"_s },
                   { u"x-should-retry-false"_s, u"retried-not-retryable"_s,
                       u"@smithy/core ignores x-should-retry and retries the 503; openai-node-6.49 obeys it"_s },
               };
    }

    void conforms()
    {
        QFETCH(QString, script);
        QFETCH(QString, preset);
        QFETCH(QStringList, cases);
        QFETCH(QList<Expected>, expected);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString policy = writePolicyVariant(preset, dir);
        QVERIFY2(!policy.isEmpty(), qPrintable(u"cannot write a variant of preset "_s + preset));

        QStringList args { u"--policy"_s, policy, u"--suite"_s, u"standard"_s };
        for (const QString& c : cases)
            args << u"--case"_s << c;
        args << u"--"_s << u"node"_s << QStringLiteral(RETRYLAB_NPM_CLIENTS "/") + script;
        const ConformClient::Result run = ConformClient::conform(args, kRunTimeoutMs, QStringLiteral(RETRYLAB_NPM_CLIENTS));
        QVERIFY2(run.exit >= 0, "retrylab conform did not finish in time");
        const QByteArray& err = run.err;
        const QJsonObject& report = run.report;
        QVERIFY2(report.value(u"format"_s).toString() == u"retrylab-conform-report"_s, err.constData());
        const QJsonArray results = report.value(u"cases"_s).toArray();
        qInfo().noquote() << u"%1 (%2)\n"_s.arg(QString::fromLatin1(QTest::currentDataTag()),
                                 report.value(u"summary"_s).toString())
                + table(results);

        if (cases.isEmpty()) {
            QFile suite(QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/suites/standard.json"));
            QVERIFY(suite.open(QIODevice::ReadOnly));
            QCOMPARE(results.size(), QJsonDocument::fromJson(suite.readAll()).object().value(u"cases"_s).toArray().size());
        } else {
            QCOMPARE(results.size(), cases.size());
        }
        QCOMPARE(report.value(u"errors"_s).toInt(), 0);

        // Every finding must be an expected one, and every expected one must be found.
        QStringList unexpected;
        QList<Expected> missing = expected;
        for (const QJsonValue& v : results) {
            const QJsonObject c = v.toObject();
            const QString name = c.value(u"case"_s).toString();
            const QString verdict = c.value(u"verdict"_s).toString();
            const QJsonArray findings = c.value(u"findings"_s).toArray();
            if (verdict == u"error"_s)
                unexpected << u"%1: error (%2)"_s.arg(name, c.value(u"output"_s).toString().right(300));
            if (verdict == u"fail"_s && findings.isEmpty())
                unexpected << u"%1: failed without a finding"_s.arg(name);
            for (const QJsonValue& f : findings) {
                const QString rule = f.toObject().value(u"rule"_s).toString();
                const auto hit = std::find_if(expected.cbegin(), expected.cend(),
                    [&](const Expected& e) { return e.caseName == name && e.rule == rule; });
                if (hit == expected.cend())
                    unexpected << f.toObject().value(u"sentence"_s).toString().prepend(name + u": "_s);
                missing.removeIf([&](const Expected& e) { return e.caseName == name && e.rule == rule; });
            }
        }
        QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join(u"\n"_s)));
        QStringList notFound;
        for (const Expected& e : std::as_const(missing))
            notFound << u"%1: %2 (%3)"_s.arg(e.caseName, e.rule, e.reason);
        QVERIFY2(notFound.isEmpty(), qPrintable(u"expected findings not reported:\n"_s + notFound.join(u'\n')));
        QCOMPARE(run.exit, expected.isEmpty() ? 0 : 1);
    }

    // `retrylab observe` (issue 12 §5) with the same SDKs: both number their attempts, so the lab groups
    // their retries by the attempt header, never by the fingerprint heuristic; three attempts after two 503s
    // (their default of 2 retries), with waits in the range of each SDK's own formula.
    void observedByTheirAttemptHeaders_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("header");
        QTest::addColumn<qint64>("minWaitMs");
        QTest::addColumn<qint64>("maxWaitMs");
        // openai client.js calculateDefaultRetryTimeoutMillis: min(0.5 s × 2^n, 8 s) × (1 − 0.25 × random).
        QTest::addRow("openai 6.49.0") << u"openai-client.mjs"_s << u"x-stainless-retry-count"_s << 375ll << 500ll;
        // @smithy/core StandardRetryStrategy (2026): a random share of 50 ms × 2^n for a transient error.
        QTest::addRow("@aws-sdk/client-s3 3.967.0") << u"s3-client.mjs"_s << u"amz-sdk-invocation-id"_s << 0ll << 50ll;
    }

    void observedByTheirAttemptHeaders()
    {
        QFETCH(QString, script);
        QFETCH(QString, header);
        QFETCH(qint64, minWaitMs);
        QFETCH(qint64, maxWaitMs);
        QTemporaryDir dir;
        QFile scenario(dir.filePath(u"two-503s.json"_s));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        scenario.write(QByteArray(R"({"format":1,"name":"two-503s","routes":[{"path":"ANY","steps":[
            {"kind":"respond","status":503,"repeat":2},{"kind":"respond","status":200,"repeat":"forever","json":{"id":"x"}}]}]})")
                           .replace("ANY", "/" "**"));
        scenario.close();
        QProcess p;
        p.setWorkingDirectory(QStringLiteral(RETRYLAB_NPM_CLIENTS));
        p.start(QStringLiteral(RETRYLAB_BINARY), { u"observe"_s, u"--scenario"_s, scenario.fileName(), u"--json"_s, u"--"_s,
                                                     u"node"_s, QStringLiteral(RETRYLAB_NPM_CLIENTS "/") + script });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 0);
        QList<QJsonObject> attempts;
        for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(u"attempt"_s))
                attempts << o;
        }
        QVERIFY2(attempts.size() == 3, err.constData());
        for (const QJsonObject& a : std::as_const(attempts)) {
            QCOMPARE(a.value(u"run"_s).toInt(), 1);
            QCOMPARE(a.value(u"rule"_s).toString(), u"attempt-header"_s);
            QVERIFY2(a.value(u"evidence"_s).toString().contains(header), qPrintable(a.value(u"evidence"_s).toString()));
            QVERIFY(!a.value(u"heuristic"_s).toBool());
        }
        for (qsizetype i = 1; i < attempts.size(); ++i) {
            const qint64 wait = attempts.at(i).value(u"client_wait_ms"_s).toInteger(-1);
            const qint64 scale = qint64(1) << (i - 1); // the n-th retry doubles the base
            // The lab measures answer end → next arrival: the SDK's sleep plus its own work and a connection.
            QVERIFY2(wait >= minWaitMs * scale - 50 && wait <= maxWaitMs * scale + 500,
                qPrintable(u"retry %1 waited %2 ms"_s.arg(i).arg(wait)));
        }
    }
};

QTEST_GUILESS_MAIN(TestConformNpm)
#include "tst_conform_npm.moc"
