// SPDX-License-Identifier: GPL-3.0-or-later
// The urllib3 and tenacity units as written (issue 30): every preset's unit byte-compiles, attempts are
// counted the way each library counts them, idempotency code appears only where the policy adds keys, and
// the lost lists are what the targets cannot carry; urllib3's native Retry(...) is written exactly where
// it decides as the policy does, and read back by the importer; the units match the golden files in
// data/python (RETRYLAB_UPDATE_GOLDEN=1 rewrites them).
#include "codegen/codeexport.h"
#include "codegen/decisionequivalence.h"
#include "codegen/targets/pythonimport.h"
#include "policy/presetcatalog.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestExportPython : public QObject
{
    Q_OBJECT

private slots:
    void compiles_data();
    void compiles();
    void countsAndKeys();
    void lost();
    void importGood_data();
    void importGood();
    void importLost_data();
    void importLost();
    void importBad_data();
    void importBad();
    void roundTrip_data();
    void roundTrip();
    void golden_data();
    void golden();
};

namespace {

CodeExport exported(const QString& target, const QString& preset, const QString& version = {})
{
    const PolicyParseResult parsed = PresetCatalog::load(preset);
    QString error;
    return *exportPolicy(*CodeTargets::find(target), *parsed.policy, version, &error);
}

QStringList paths(const CodeExport& e)
{
    QStringList out;
    for (const LostBehaviour& l : e.lost)
        out << l.path;
    return out;
}

} // namespace

void TestExportPython::compiles_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("version");
    for (const QString& t : { u"urllib3"_s, u"tenacity"_s })
        for (const QString& v : CodeTargets::find(t)->versions)
            QTest::addRow("%s %s", qPrintable(t), qPrintable(v)) << t << v;
}

void TestExportPython::compiles()
{
    QFETCH(QString, target);
    QFETCH(QString, version);
    QTemporaryDir dir;
    QStringList files;
    for (const QString& preset : PresetCatalog::names()) {
        const CodeExport e = exported(target, preset, version);
        const QString file = dir.filePath(preset + u".py"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(e.code.toUtf8());
        files << file;
    }
    QProcess p;
    p.start(u"/usr/bin/python3"_s, QStringList { u"-m"_s, u"py_compile"_s } + files);
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
}

void TestExportPython::countsAndKeys()
{
    // urllib3 counts retries, tenacity attempts: slen allows 3 attempts.
    QVERIFY(exported(u"urllib3"_s, u"slen"_s).code.contains(u"MAX_RETRIES = 2 "_s));
    QVERIFY(exported(u"tenacity"_s, u"slen"_s).code.contains(u"MAX_ATTEMPTS = 3 "_s));
    // slen adds bare keys; aws-standard adds none and tests none.
    const QString slen = exported(u"urllib3"_s, u"slen"_s).code;
    QVERIFY(slen.contains(u"headers[\"Idempotency-Key\"] = str(uuid.uuid4())"_s));
    QVERIFY(!exported(u"urllib3"_s, u"aws-standard"_s).code.contains(u"uuid"_s));
    // A policy without hints reads no Retry-After.
    QVERIFY(!exported(u"tenacity"_s, u"stripe"_s).code.contains(u"_hint_seconds"_s));
    QVERIFY(slen.contains(u"_hint_seconds(headers, \"Retry-After\""_s));
}

void TestExportPython::lost()
{
    QCOMPARE(paths(exported(u"urllib3"_s, u"slen"_s)), QStringList());
    QCOMPARE(paths(exported(u"urllib3"_s, u"aws-standard"_s)), QStringList { u"quota"_s });
    QCOMPARE(paths(exported(u"tenacity"_s, u"cockatiel-3"_s)), (QStringList { u"pipeline[1]"_s, u"pipeline[2]"_s, u"rules[0]"_s }));
}

// Retry(...) calls as people write them: the attempts and backoff base they give, nothing lost.
void TestExportPython::importGood_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<int>("baseMs"); // -1: no backoff (backoff_factor 0)
    QTest::addColumn<int>("rules");
    QTest::addColumn<bool>("hints");
    QTest::addRow("Retry(3): total positional, Retry's backoff_factor 0") << QByteArray("Retry(3)") << 4 << -1 << 5 << true;
    QTest::addRow("Retry() defaults: total=10") << QByteArray("r = Retry()") << 11 << -1 << 5 << true;
    QTest::addRow("urllib3.Retry across lines, comments, forcelist")
        << QByteArray("import urllib3\n# the client's retries\nretries = urllib3.Retry(\n    total=5,  # five\n"
                      "    backoff_factor=0.2,\n    status_forcelist=frozenset([500, 502, 503]),\n)\n")
        << 6 << 200 << 6 << true;
    QTest::addRow("urllib3.util.retry.Retry with the default methods, no Retry-After")
        << QByteArray("urllib3.util.retry.Retry(total=2, allowed_methods=Retry.DEFAULT_ALLOWED_METHODS,\n"
                      "    respect_retry_after_header=False, raise_on_status=False, redirect=False)")
        << 3 << -1 << 4 << false;
    QTest::addRow("total=False: no retries") << QByteArray("Retry(total=False)") << 1 << -1 << 5 << true;
    QTest::addRow("1.26 method_whitelist, connect=0, every method") << QByteArray("Retry(total=4, method_whitelist=None, connect=0, backoff_factor=1)")
                                                                << 5 << 1000 << 3 << true;
    QTest::addRow("2.x backoff_max and backoff_jitter, a set of methods")
        << QByteArray("Retry(total=3, backoff_factor=0.5, backoff_max=10, backoff_jitter=0.25, allowed_methods={'GET', \"PUT\"})")
        << 4 << 500 << 5 << true;
}

void TestExportPython::importGood()
{
    QFETCH(QByteArray, text);
    QFETCH(int, attempts);
    QFETCH(int, baseMs);
    QFETCH(int, rules);
    QFETCH(bool, hints);
    const CodeImport in = CodeTargets::find(u"urllib3"_s)->import(text);
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    QVERIFY(in.policy);
    QCOMPARE(in.lost, QList<LostBehaviour>());
    QCOMPARE(in.policy->limits.maxAttempts, attempts);
    QCOMPARE(in.policy->backoff.kind == BackoffKind::None ? -1 : int(in.policy->backoff.base.count()), baseMs);
    QCOMPARE(in.policy->rules.size(), rules);
    QCOMPARE(!in.policy->hints.isEmpty(), hints);
    QVERIFY(validate(*in.policy).isEmpty());
}

// Each argument a policy cannot hold, or a value that is not a literal, is lost under its own name.
void TestExportPython::importLost_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("paths");
    QTest::addRow("remove_headers_on_redirect") << QByteArray("Retry(total=3, remove_headers_on_redirect=['X-Token'])") << QStringList { u"remove_headers_on_redirect"_s };
    QTest::addRow("redirect followed") << QByteArray("Retry(total=3, redirect=5)") << QStringList { u"redirect"_s };
    QTest::addRow("raise_on_redirect") << QByteArray("Retry(3, raise_on_redirect=False)") << QStringList { u"raise_on_redirect"_s };
    QTest::addRow("an unknown argument") << QByteArray("Retry(total=3, retry_on_timeout=True)") << QStringList { u"retry_on_timeout"_s };
    QTest::addRow("a non-literal total") << QByteArray("Retry(total=settings.RETRIES, backoff_factor=0.3)") << QStringList { u"total"_s };
    QTest::addRow("a computed method set") << QByteArray("Retry(allowed_methods=Retry.DEFAULT_ALLOWED_METHODS | {'POST'})") << QStringList { u"allowed_methods"_s };
    QTest::addRow("read below total") << QByteArray("Retry(total=5, read=2)") << QStringList { u"read"_s };
    QTest::addRow("total=None") << QByteArray("Retry(total=None, connect=2, read=2)") << QStringList { u"total"_s };
    QTest::addRow("history") << QByteArray("Retry(3, history=())") << QStringList { u"history"_s };
    QTest::addRow("**kwargs") << QByteArray("Retry(total=3, **options)") << QStringList { u"**"_s };
    QTest::addRow("sub-millisecond backoff_factor") << QByteArray("Retry(backoff_factor=0.0001)") << QStringList { u"backoff_factor"_s };
}

void TestExportPython::importLost()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, paths);
    const CodeImport in = importUrllib3Retry(text);
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    QVERIFY(in.policy);
    QStringList got;
    for (const LostBehaviour& l : in.lost) {
        got << l.path;
        QVERIFY(!l.what.isEmpty());
    }
    QCOMPARE(got, paths);
    QVERIFY(validate(*in.policy).isEmpty());
}

// Input that holds no readable call: a problem, never a crash or a hang.
void TestExportPython::importBad_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("empty") << QByteArray();
    QTest::addRow("no Retry call") << QByteArray("requests.get(url, timeout=3)");
    QTest::addRow("a subclass, not a call") << QByteArray("class MyRetry(Retry):\n    pass\n");
    QTest::addRow("another module's Retry") << QByteArray("tenacity.Retry(3)");
    QTest::addRow("not closed") << QByteArray("Retry(total=3, backoff_factor=0.5");
    QTest::addRow("string not closed") << QByteArray("Retry(allowed_methods=['GET)");
    QTest::addRow("a missing comma") << QByteArray("Retry(total=3 backoff_factor=0.5)");
    QTest::addRow("an argument twice") << QByteArray("Retry(total=3, total=4)");
    QTest::addRow("allowed_methods and method_whitelist") << QByteArray("Retry(allowed_methods=['GET'], method_whitelist=['GET'])");
    QTest::addRow("nested too deeply") << QByteArray("Retry(total=" + QByteArray(200, '[') + "1" + QByteArray(200, ']') + ")");
    QTest::addRow("too large") << QByteArray("Retry(total=3)  # " + QByteArray(70000, 'x'));
    QTest::addRow("binary") << QByteArray("Retry(\x00\xff\xfe=", 10);
}

void TestExportPython::importBad()
{
    QFETCH(QByteArray, text);
    const CodeImport in = importUrllib3Retry(text);
    QVERIFY(!in.problems.isEmpty());
    QVERIFY(!in.policy);
}

// import(export(P)) decides like P where the export is Retry(...) alone; the native form is chosen exactly
// then.
void TestExportPython::roundTrip_data()
{
    QTest::addColumn<QString>("policyFile"); // a preset name, or a Retry(...) call to import first
    QTest::addColumn<QString>("version");
    QTest::addRow("urllib3 preset 1.26") << u"urllib3"_s << u"1.26"_s;
    QTest::addRow("urllib3 preset 2") << u"urllib3"_s << u"2"_s;
    QTest::addRow("native-shaped: forcelist, every method, no Retry-After")
        << u"Retry(total=5, backoff_factor=0.2, status_forcelist=[500, 502, 503], allowed_methods=None, "
           u"respect_retry_after_header=False)"_s << u"1.26"_s;
    QTest::addRow("native-shaped 2.x: backoff_max, jitter, read=0")
        << u"Retry(total=4, backoff_factor=1, backoff_max=5, backoff_jitter=0.5, read=0, status_forcelist=[429])"_s << u"2"_s;
}

void TestExportPython::roundTrip()
{
    QFETCH(QString, policyFile);
    QFETCH(QString, version);
    RetryPolicy original;
    if (policyFile.contains(u'(')) {
        const CodeImport first = importUrllib3Retry(policyFile.toUtf8());
        QVERIFY(first.policy && first.lost.isEmpty());
        original = *first.policy;
    } else {
        original = *PresetCatalog::load(policyFile).policy;
    }
    const CodeTarget* t = CodeTargets::find(u"urllib3"_s);
    const CodeExport out = t->generate(original, version);
    QVERIFY2(out.code.contains(u"\nRETRY = Retry("_s), qPrintable(out.code));
    QVERIFY(out.exact());
    const CodeImport back = t->import(out.code.toUtf8());
    QVERIFY2(back.problems.isEmpty(), qPrintable(back.problems.join(u'\n')));
    QCOMPARE(back.lost, QList<LostBehaviour>());
    const QString difference = firstDecisionDifference(*back.policy, original);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // The comparator does see a difference: one retry fewer.
    RetryPolicy fewer = original;
    --fewer.limits.maxAttempts;
    QVERIFY(!firstDecisionDifference(*back.policy, fewer).isEmpty());
}

void TestExportPython::golden_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("target");
    QTest::addRow("urllib3 preset, native Retry") << u"urllib3"_s << u"urllib3"_s;
    QTest::addRow("slen, urllib3 Retry subclass") << u"slen"_s << u"urllib3"_s;
    QTest::addRow("slen, tenacity") << u"slen"_s << u"tenacity"_s;
}

void TestExportPython::golden()
{
    QFETCH(QString, preset);
    QFETCH(QString, target);
    const QByteArray code = exported(target, preset).code.toUtf8();
    const QString file = QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/core/codegen/data/python/") + preset + u'.' + target + u".py"_s;
    if (qEnvironmentVariableIntValue("RETRYLAB_UPDATE_GOLDEN") == 1) {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(code);
    }
    QFile in(file);
    QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(file + u" (RETRYLAB_UPDATE_GOLDEN=1 writes it)"_s));
    QCOMPARE(QString::fromUtf8(code), QString::fromUtf8(in.readAll()));
}

QTEST_GUILESS_MAIN(TestExportPython)
#include "tst_export_python.moc"
