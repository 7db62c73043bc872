// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab herd` as a user runs it (issue 29 §2): the real binary through QProcess. Its JSON, its CSV, a
// saved experiment run again to the same figures, and every bad argument or file refused with exit 2.
#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
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

// `retrylab herd ARGS…` through the tests' shared runner (cliprocess.h), its output as text.
Result run(const QStringList& args)
{
    const CliProcess::Result r = CliProcess::retrylab(QStringList { u"herd"_s } + args, 120000);
    return Result { r.exit, QString::fromUtf8(r.out), QString::fromUtf8(r.err) };
}

} // namespace

class TestCliHerd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void listAndHelp()
    {
        const Result list = run({ u"--list"_s });
        QCOMPARE(list.exitCode, 0);
        for (const QString& name : { u"aws-2015"_s, u"retry-collapse"_s, u"metastable-osdi22"_s })
            QVERIFY(list.out.contains(name));
        QVERIFY(list.out.contains(u"Claim:"_s));
        const Result help = run({ u"--help"_s });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(u"--cut FRACTION:START:DURATION"_s));
    }

    void awsJson()
    {
        const Result r = run({ u"--experiment"_s, u"aws-2015"_s, u"--clients"_s, u"30"_s, u"--runs"_s, u"5"_s, u"--json"_s });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(json.value(u"experiment").toString(), u"aws-2015"_s);
        const QJsonArray results = json.value(u"results").toArray();
        QStringList labels;
        for (const QJsonValue& v : results) {
            const QJsonObject o = v.toObject();
            labels << o.value(u"policy").toString();
            QCOMPARE(o.value(u"clients").toInt(), 30);
            QCOMPARE(o.value(u"runs").toInt(), 5);
            QVERIFY(o.value(u"server_calls_mean").toDouble() >= 30);
            QVERIFY(o.value(u"completion_ms_mean").toDouble() > 0);
            QVERIFY(o.value(u"recovered").isNull()); // closed loop: nothing to recover from
        }
        QCOMPARE(labels, (QStringList { u"none"_s, u"exponential"_s, u"equal-jitter"_s, u"full-jitter"_s, u"decorrelated"_s }));
        QVERIFY(json.value(u"series").toObject().contains(u"full-jitter"_s));
    }

    // A preset and a policy file side by side, --set applied to both, the model changed by options.
    void policiesAndParameters()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"mine.json"_s);
        QProcess show;
        show.start(QStringLiteral(RETRYLAB_BINARY), { u"policy"_s, u"show"_s, u"urllib3"_s, u"--json"_s });
        QVERIFY(show.waitForFinished(30000));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(show.readAllStandardOutput());
        out.close();
        const Result r = run({ u"--experiment"_s, u"retry-collapse"_s, u"--policy"_s, u"aws-standard"_s, u"--policy"_s, file,
            u"--set"_s, u"limits.max_attempts=2"_s, u"--duration"_s, u"20"_s, u"--outage"_s, u"5:5"_s, u"--rate"_s, u"20"_s,
            u"--json"_s });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray results = QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"results").toArray();
        QCOMPARE(results.size(), 2);
        QCOMPARE(results.at(0).toObject().value(u"policy").toString(), u"aws-standard"_s);
        QCOMPARE(results.at(1).toObject().value(u"policy").toString(), u"mine"_s);
        for (const QJsonValue& v : results)
            QVERIFY(v.toObject().value(u"amplification").toDouble() <= 2.0); // --set: at most 2 attempts
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"series").toObject().value(u"mine"_s).toArray().size(), 20);
    }

    // --save writes the experiment as run; reading it back gives the same figures.
    void saveAndRunAgain()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"exp.json"_s);
        const QStringList model { u"--cut"_s, u"0.4:20:10"_s, u"--duration"_s, u"60"_s, u"--rate"_s, u"500"_s, u"--json"_s };
        const Result first = run(QStringList { u"--experiment"_s, u"metastable-osdi22"_s, u"--save"_s, file } + model);
        QCOMPARE(first.exitCode, 0);
        QVERIFY(QFile::exists(file));
        const Result again = run({ u"--experiment"_s, file, u"--json"_s });
        QCOMPARE(again.exitCode, 0);
        // The same figures; only how long this machine took differs.
        const auto figures = [](const QString& text) -> QJsonObject {
            QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
            QJsonArray results = o.value(u"results").toArray();
            for (qsizetype i = 0; i < results.size(); ++i) {
                QJsonObject r = results.at(i).toObject();
                if (!(r.value(u"wall_ms").toDouble() > 0))
                    return {};
                r.remove(u"wall_ms"_s);
                results[i] = r;
            }
            o.insert(u"results"_s, results);
            return o;
        };
        QVERIFY(!figures(first.out).isEmpty());
        QCOMPARE(figures(again.out), figures(first.out));
    }

    void csv()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(u"series"_s);
        const Result r = run({ u"--experiment"_s, u"retry-collapse"_s, u"--duration"_s, u"30"_s, u"--csv"_s, folder });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"immediate"_s));
        for (const QString& label : { u"immediate"_s, u"backoff-jitter"_s, u"retry-budget"_s }) {
            QFile f(QDir(folder).filePath(label + u".csv"_s));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
            const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
            QCOMPARE(lines.size(), 31);
            QVERIFY(lines.first().startsWith("t_ms,offered,attempts,goodput"));
        }
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("words");
        QTest::newRow("no experiment") << QStringList {} << u"--experiment"_s;
        QTest::newRow("unknown experiment") << QStringList { u"--experiment"_s, u"aws-2016"_s } << u"neither a built-in"_s;
        QTest::newRow("clients 0") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--clients"_s, u"0"_s } << u"clients"_s;
        QTest::newRow("clients too many") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--clients"_s, u"1000001"_s } << u"clients"_s;
        QTest::newRow("cut without start") << QStringList { u"--experiment"_s, u"metastable-osdi22"_s, u"--cut"_s, u"0.4:10"_s } << u"FRACTION:START:DURATION"_s;
        QTest::newRow("cut of 2") << QStringList { u"--experiment"_s, u"metastable-osdi22"_s, u"--cut"_s, u"2:1:1"_s } << u"FRACTION"_s;
        QTest::newRow("outage words") << QStringList { u"--experiment"_s, u"retry-collapse"_s, u"--outage"_s, u"soon"_s } << u"START:DURATION"_s;
        QTest::newRow("negative rate") << QStringList { u"--experiment"_s, u"retry-collapse"_s, u"--rate"_s, u"-3"_s } << u"--rate"_s;
        QTest::newRow("capacity on a row") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--capacity"_s, u"100"_s } << u"optimistic row"_s;
        QTest::newRow("unknown preset") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--policy"_s, u"no-such"_s } << u"no-such"_s;
        QTest::newRow("set without policy") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--set"_s, u"limits.max_attempts=2"_s } << u"--policy"_s;
        QTest::newRow("hedging") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--policy"_s, u"ms-http-hedging"_s } << u"hedging"_s;
        QTest::newRow("rate limiter") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--policy"_s, u"ms-http-standard"_s } << u"rate_limiter"_s;
        QTest::newRow("unknown option") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--clientz"_s, u"3"_s } << u"clientz"_s;
        QTest::newRow("stray argument") << QStringList { u"aws-2015"_s } << u"aws-2015"_s;
        QTest::newRow("zero timeout") << QStringList { u"--experiment"_s, u"retry-collapse"_s, u"--timeout"_s, u"0"_s } << u"--timeout"_s;
        QTest::newRow("seed words") << QStringList { u"--experiment"_s, u"aws-2015"_s, u"--seed"_s, u"x"_s } << u"--seed"_s;
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, words);
        const Result r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(words), qPrintable(r.err));
        QVERIFY(r.err.startsWith(u"retrylab herd: "_s));
        QVERIFY(r.out.isEmpty());
    }

    void badFiles()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(bytes);
            return f.fileName();
        };
        const Result binary = run({ u"--experiment"_s, write(u"bin.json"_s, QByteArray("\x00\x01\xff\xfe", 4)) });
        QCOMPARE(binary.exitCode, 2);
        QVERIFY2(binary.err.contains(u"bin.json"_s) && binary.err.contains(u"not JSON"_s), qPrintable(binary.err));
        const Result policy = run({ u"--experiment"_s, write(u"p.json"_s, QByteArrayLiteral("{\"format\": \"retrylab-policy\"}")) });
        QCOMPARE(policy.exitCode, 2);
        QVERIFY(policy.err.contains(u"retrylab-herd"_s));
        const Result folder = run({ u"--experiment"_s, dir.path() });
        QCOMPARE(folder.exitCode, 2);
        // An output that cannot be written is refused before the run.
        const QString plainFile = write(u"plain"_s, "x");
        const Result csv = run({ u"--experiment"_s, u"aws-2015"_s, u"--clients"_s, u"5"_s, u"--csv"_s, plainFile + u"/sub"_s });
        QCOMPARE(csv.exitCode, 2);
        const Result save = run({ u"--experiment"_s, u"aws-2015"_s, u"--save"_s, dir.filePath(u"missing/dir/x.json"_s) });
        QCOMPARE(save.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliHerd)
#include "tst_cli_herd.moc"
