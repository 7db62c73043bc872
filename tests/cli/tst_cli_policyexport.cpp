// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab policy export|import|targets` (issue 30 §1, §2, §4) through the real binary: the code goes to
// stdout or --out only when nothing is lost or --allow-lossy says so (exit 3 otherwise, the lost behaviours
// on stderr either way), --check lists what each target would lose, and bad input is exit 2 with one clear
// line — never a crash, never a half-written file. What each target writes is tested per family
// (tests/core/codegen); this holds the command to its contract for every target.
#include "cliprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using CliProcess::retrylab;

namespace {

// Every target id, from `policy targets`.
QStringList targetIds()
{
    const CliProcess::Result r = retrylab({ u"policy"_s, u"targets"_s });
    QStringList ids;
    for (const QByteArray& line : r.out.split('\n'))
        if (!line.trimmed().isEmpty())
            ids << QString::fromUtf8(line.left(line.indexOf(' ')));
    return ids;
}

QJsonArray checkJson(const QString& policy, const QString& target, int* exit)
{
    const CliProcess::Result r = retrylab({ u"policy"_s, u"export"_s, policy, u"--to"_s, target, u"--check"_s, u"--json"_s });
    *exit = r.exit;
    return QJsonDocument::fromJson(r.out).object().value(u"targets"_s).toArray();
}

} // namespace

class TestCliPolicyExport : public QObject
{
    Q_OBJECT

private slots:
    void targetsAreListed();
    void lossyExportNeedsConsent_data();
    void lossyExportNeedsConsent();
    void checkAll();
    void outWritesTheSameCode();
    void settingsReachTheCode();
    void badInput_data();
    void badInput();
    void importBadInput_data();
    void importBadInput();
    void importWhatWasExported();
};

void TestCliPolicyExport::targetsAreListed()
{
    const QStringList ids = targetIds();
    for (const QString& id : { u"polly"_s, u"ms-http-resilience"_s, u"urllib3"_s, u"tenacity"_s, u"got"_s, u"ky"_s,
             u"axios-retry"_s, u"cockatiel"_s, u"cenkalti-backoff"_s, u"go-retryablehttp"_s, u"resilience4j"_s,
             u"envoy"_s, u"grpc"_s })
        QVERIFY2(ids.contains(id), qPrintable(id + u" missing from: "_s + ids.join(u' ')));
}

void TestCliPolicyExport::lossyExportNeedsConsent_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("policy");
    for (const QString& id : targetIds())
        for (const QString& policy : { u"slen"_s, u"aws-standard"_s })
            QTest::addRow("%s %s", qPrintable(id), qPrintable(policy)) << id << policy;
}

// Exit 3 with nothing on stdout exactly when --check lists something lost; the same list on stderr; with
// --allow-lossy the code, which lists each lost path in its header.
void TestCliPolicyExport::lossyExportNeedsConsent()
{
    QFETCH(QString, target);
    QFETCH(QString, policy);
    int checkExit = 0;
    const QJsonArray check = checkJson(policy, target, &checkExit);
    QCOMPARE(check.size(), 1);
    const QJsonArray lost = check.first().toObject().value(u"lost"_s).toArray();
    QCOMPARE(checkExit, lost.isEmpty() ? 0 : 3);
    QCOMPARE(check.first().toObject().value(u"exact"_s).toBool(), lost.isEmpty());

    const CliProcess::Result strict = retrylab({ u"policy"_s, u"export"_s, policy, u"--to"_s, target });
    const CliProcess::Result lossy = retrylab({ u"policy"_s, u"export"_s, policy, u"--to"_s, target, u"--allow-lossy"_s });
    QCOMPARE(lossy.exit, 0);
    QVERIFY(!lossy.out.isEmpty());
    QVERIFY(lossy.out.contains(policy.toUtf8()));
    if (lost.isEmpty()) {
        QCOMPARE(strict.exit, 0);
        QCOMPARE(strict.out, lossy.out);
        QVERIFY(strict.err.isEmpty());
        return;
    }
    QCOMPARE(strict.exit, 3);
    QVERIFY2(strict.out.isEmpty(), "a lossy export without consent writes nothing to stdout");
    QVERIFY(strict.err.contains("--allow-lossy"));
    for (const QJsonValue& l : lost) {
        const QByteArray path = l.toObject().value(u"path"_s).toString().toUtf8();
        const QByteArray listed = QByteArray(": ") + path + QByteArray(": ");
        QVERIFY2(strict.err.contains(listed), path.constData());
        QVERIFY2(lossy.err.contains(listed), path.constData());
        QVERIFY2(lossy.out.contains(QByteArray(path + QByteArray(":"))), path.constData());
    }
}

void TestCliPolicyExport::checkAll()
{
    const CliProcess::Result text = retrylab({ u"policy"_s, u"export"_s, u"aws-standard"_s, u"--to"_s, u"all"_s, u"--check"_s });
    int exit = 0;
    const QJsonArray all = checkJson(u"aws-standard"_s, u"all"_s, &exit);
    QCOMPARE(all.size(), targetIds().size());
    bool anyLost = false;
    for (const QJsonValue& t : all) {
        const QJsonObject o = t.toObject();
        anyLost = anyLost || !o.value(u"exact"_s).toBool();
        const QByteArray head = (o.value(u"exact"_s).toBool() ? "exact  " : "lossy  ") + o.value(u"target"_s).toString().toUtf8();
        QVERIFY2(text.out.contains(head), head.constData());
    }
    QVERIFY2(anyLost, "aws-standard's retry quota is a budget most targets cannot carry");
    QCOMPARE(exit, 3);
    QCOMPARE(text.exit, 3);
    const CliProcess::Result allowed = retrylab({ u"policy"_s, u"export"_s, u"aws-standard"_s, u"--to"_s, u"all"_s,
        u"--check"_s, u"--allow-lossy"_s });
    QCOMPARE(allowed.exit, 0);
}

void TestCliPolicyExport::outWritesTheSameCode()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"unit.py"_s);
    const CliProcess::Result toStdout = retrylab({ u"policy"_s, u"export"_s, u"urllib3"_s, u"--to"_s, u"urllib3"_s, u"--allow-lossy"_s });
    const CliProcess::Result toFile = retrylab({ u"policy"_s, u"export"_s, u"urllib3"_s, u"--to"_s, u"urllib3"_s,
        u"--allow-lossy"_s, u"--out"_s, path });
    QCOMPARE(toFile.exit, 0);
    QVERIFY(toFile.out.isEmpty());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), toStdout.out);
    // A lossy export without consent leaves no file behind.
    const QString refused = dir.filePath(u"refused.yaml"_s);
    const CliProcess::Result r = retrylab({ u"policy"_s, u"export"_s, u"slen"_s, u"--to"_s, u"envoy"_s, u"--out"_s, refused });
    QCOMPARE(r.exit, 3);
    QVERIFY(!QFile::exists(refused));
}

// --set changes the exported policy as it changes every other command's, and the code says so.
void TestCliPolicyExport::settingsReachTheCode()
{
    const CliProcess::Result base = retrylab({ u"policy"_s, u"export"_s, u"urllib3"_s, u"--to"_s, u"urllib3"_s, u"--allow-lossy"_s });
    const CliProcess::Result changed = retrylab({ u"policy"_s, u"export"_s, u"urllib3"_s, u"--set"_s,
        u"limits.max_retries=6"_s, u"--to"_s, u"urllib3"_s, u"--allow-lossy"_s });
    QCOMPARE(changed.exit, 0);
    QVERIFY(base.out != changed.out);
    QVERIFY2(changed.out.contains("6"), changed.out.constData());
}

void TestCliPolicyExport::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("no policy") << QStringList { u"--to"_s, u"got"_s } << u"give one preset"_s;
    QTest::newRow("no target") << QStringList { u"slen"_s } << u"--to is required"_s;
    QTest::newRow("unknown target") << QStringList { u"slen"_s, u"--to"_s, u"fetch-retry"_s } << u"unknown target \"fetch-retry\""_s;
    QTest::newRow("all without check") << QStringList { u"slen"_s, u"--to"_s, u"all"_s } << u"--to all goes with --check"_s;
    QTest::newRow("unknown version") << QStringList { u"slen"_s, u"--to"_s, u"got"_s, u"--target-version"_s, u"99"_s } << u"not \"99\""_s;
    QTest::newRow("version with all") << QStringList { u"slen"_s, u"--to"_s, u"all"_s, u"--check"_s, u"--target-version"_s, u"2"_s }
                                      << u"--target-version goes with one target"_s;
    QTest::newRow("unknown preset") << QStringList { u"no-such-preset"_s, u"--to"_s, u"got"_s } << u"no-such-preset"_s;
    QTest::newRow("bad setting") << QStringList { u"slen"_s, u"--set"_s, u"limits.max_retries=-4"_s, u"--to"_s, u"got"_s }
                                 << u"max_retries"_s;
    QTest::newRow("json without check") << QStringList { u"slen"_s, u"--to"_s, u"got"_s, u"--json"_s } << u"--json goes with --check"_s;
    QTest::newRow("out with check") << QStringList { u"slen"_s, u"--to"_s, u"got"_s, u"--check"_s, u"--out"_s, u"x.mjs"_s }
                                    << u"--check writes no code"_s;
    QTest::newRow("out into a missing folder") << QStringList { u"slen"_s, u"--to"_s, u"got"_s, u"--out"_s, u"/no/such/dir/x.mjs"_s }
                                               << u"--out"_s;
    QTest::newRow("unknown option") << QStringList { u"slen"_s, u"--to"_s, u"got"_s, u"--lossy"_s } << u"--lossy"_s;
}

void TestCliPolicyExport::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    const CliProcess::Result r = retrylab(QStringList { u"policy"_s, u"export"_s } + args);
    QCOMPARE(r.exit, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
    QVERIFY2(r.err.startsWith("retrylab policy export: "), r.err.constData());
}

void TestCliPolicyExport::importBadInput_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown target") << u"fetch-retry"_s << QByteArray("x") << u"cannot read \"fetch-retry\""_s;
    QTest::newRow("code-shaped target") << u"got"_s << QByteArray("x") << u"cannot read \"got\""_s;
    QTest::newRow("envoy: not yaml") << u"envoy"_s << QByteArray("retry_policy: [unclosed\n  - : :\n") << u"in.txt"_s;
    QTest::newRow("grpc: not json") << u"grpc"_s << QByteArray("{\"methodConfig\": [") << u"in.txt"_s;
    QTest::newRow("grpc: binary") << u"grpc"_s << QByteArray("\x00\xff\xfe garbage", 12) << u"in.txt"_s;
    QTest::newRow("urllib3: not a call") << u"urllib3"_s << QByteArray("import os; os.system('x')") << u"in.txt"_s;
}

void TestCliPolicyExport::importBadInput()
{
    QFETCH(QString, from);
    QFETCH(QByteArray, content);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QFile f(dir.filePath(u"in.txt"_s));
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(content) == content.size());
    f.close();
    const CliProcess::Result r = retrylab({ u"policy"_s, u"import"_s, u"--from"_s, from, f.fileName() });
    QCOMPARE(r.exit, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
    const CliProcess::Result missing = retrylab({ u"policy"_s, u"import"_s, u"--from"_s, u"envoy"_s, dir.filePath(u"none.yaml"_s) });
    QCOMPARE(missing.exit, 2);
    QVERIFY(missing.err.contains("none.yaml"));
}

// Every importable target reads back what its export wrote: a valid policy file (exit 0 or, when the
// export's form holds what a policy cannot, 3 with --allow-lossy turning it into 0).
void TestCliPolicyExport::importWhatWasExported()
{
    QTemporaryDir dir;
    const QStringList importable { u"envoy"_s, u"grpc"_s, u"resilience4j-yaml"_s, u"urllib3"_s };
    const QStringList presets { u"envoy"_s, u"grpc"_s, u"resilience4j"_s, u"urllib3"_s };
    for (qsizetype i = 0; i < importable.size(); ++i) {
        const QString unit = dir.filePath(importable.at(i) + u".txt"_s);
        const CliProcess::Result e = retrylab({ u"policy"_s, u"export"_s, presets.at(i), u"--to"_s, importable.at(i),
            u"--allow-lossy"_s, u"--out"_s, unit });
        QCOMPARE(e.exit, 0);
        const QString policy = dir.filePath(importable.at(i) + u".json"_s);
        const CliProcess::Result r = retrylab({ u"policy"_s, u"import"_s, u"--from"_s, importable.at(i), unit,
            u"--allow-lossy"_s, u"--out"_s, policy });
        QVERIFY2(r.exit == 0, qPrintable(importable.at(i) + u": "_s + QString::fromUtf8(r.err)));
        const CliProcess::Result v = retrylab({ u"policy"_s, u"validate"_s, policy });
        QVERIFY2(v.exit == 0, v.err.constData());
        // Standard input reads the same.
        QProcess p;
        p.start(QStringLiteral(RETRYLAB_BINARY), { u"policy"_s, u"import"_s, u"--from"_s, importable.at(i), u"-"_s, u"--allow-lossy"_s });
        QFile in(unit);
        QVERIFY(in.open(QIODevice::ReadOnly));
        p.write(in.readAll());
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QFile out(policy);
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(p.readAllStandardOutput(), out.readAll());
    }
}

QTEST_GUILESS_MAIN(TestCliPolicyExport)
#include "tst_cli_policyexport.moc"
