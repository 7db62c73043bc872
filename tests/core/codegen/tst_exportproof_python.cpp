// SPDX-License-Identifier: GPL-3.0-or-later
// The Python exports proven by running them (issue 30 §3): each policy exported to urllib3 1.26 and
// tenacity 8.2, wrapped in the target's own proof client and judged by `retrylab conform --suite standard`.
#include "exportproof.h"

#include "codegen/codeexport.h"

#include <QTest>

using namespace Qt::StringLiterals;
using ExportProof::Subject;

class TestExportProofPython : public QObject
{
    Q_OBJECT

private slots:
    void conforms();
};

// Both targets at once: 16 conform processes side by side (the cases mostly wait), so the proof costs about
// its slowest policy. aws-standard's retry quota is lost on both targets; the standard suite never drains it.
void TestExportProofPython::conforms()
{
    if (!QFile::exists(u"/usr/bin/python3"_s))
        QSKIP("needs /usr/bin/python3");
    const QList<QPair<QString, QString>> targets { { u"urllib3"_s, u"1.26"_s }, { u"tenacity"_s, u"8.2"_s } };
    QList<Subject> list;
    QList<ExportProof::Exported> exports;
    QList<QStringList> commands;
    QList<std::shared_ptr<QTemporaryDir>> dirs;
    for (const auto& [target, version] : targets) {
        const CodeTarget* t = CodeTargets::find(target);
        QVERIFY(t && t->proofClient);
        for (Subject s : ExportProof::namedSubjects(u"polly-gateway"_s)) {
            auto dir = std::make_shared<QTemporaryDir>();
            QVERIFY(dir->isValid());
            const ExportProof::Exported e = ExportProof::exportUnit(*dir, s, target, version, u"py"_s);
            QVERIFY2(e.error.isEmpty(), qPrintable(s.label + u": "_s + e.error));
            commands << ExportProof::writeClient(*dir, *t, QFileInfo(e.file).fileName(), version);
            QVERIFY(!commands.last().isEmpty());
            s.label = target + u' ' + s.label;
            list << s;
            exports << e;
            dirs << dir;
        }
    }
    QElapsedTimer timer;
    timer.start();
    const QStringList problems = ExportProof::logVerdicts(ExportProof::conformAll(list, commands, exports), exports);
    qInfo() << "conform wall time" << timer.elapsed() << "ms";
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestExportProofPython)
#include "tst_exportproof_python.moc"
