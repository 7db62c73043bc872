// SPDX-License-Identifier: GPL-3.0-or-later
// The urllib3 and tenacity units as written (issue 30): every preset's unit byte-compiles, attempts are
// counted the way each library counts them, idempotency code appears only where the policy adds keys, and
// the lost lists are what the targets cannot carry.
#include "codegen/codeexport.h"
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

QTEST_GUILESS_MAIN(TestExportPython)
#include "tst_export_python.moc"
