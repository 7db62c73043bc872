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

namespace {

Subject subject(const QString& label, const QString& policy, const QStringList& settings)
{
    Subject s;
    s.label = label;
    s.policy = policy;
    s.settings = settings;
    return s;
}

QList<Subject> subjects()
{
    const QStringList shortTimeout { u"limits.attempt_timeout_ms=3000"_s };
    return {
        subject(u"slen"_s, u"slen"_s, shortTimeout + QStringList { u"limits.connect_timeout_ms=2000"_s }),
        subject(u"paymongo"_s, u"paymongo"_s, shortTimeout),
        subject(u"aws_standard"_s, u"aws-standard"_s, shortTimeout),
        subject(u"stripe"_s, u"stripe"_s, shortTimeout),
        subject(u"urllib3_preset"_s, u"urllib3"_s, shortTimeout),
        subject(u"polly_gateway"_s, u"polly-gateway"_s, shortTimeout),
        subject(u"body_and_cap"_s, QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/core/codegen/data/python/body-and-cap.json"), {}),
    };
}

} // namespace

// Both targets at once: 14 conform processes side by side (the cases mostly wait), so the proof costs about
// its slowest policy.
void TestExportProofPython::conforms()
{
    if (!QFile::exists(u"/usr/bin/python3"_s))
        QSKIP("needs /usr/bin/python3");
    const QList<QPair<QString, QString>> targets { { u"urllib3"_s, u"1.26"_s }, { u"tenacity"_s, u"8.2"_s } };
    // aws-standard's retry quota is lost on both targets: the standard suite never drains it.
    QList<Subject> list;
    QList<ExportProof::Exported> exports;
    QList<QStringList> commands;
    QList<std::shared_ptr<QTemporaryDir>> dirs;
    for (const auto& [target, version] : targets) {
        const CodeTarget* t = CodeTargets::find(target);
        QVERIFY(t && t->proofClient);
        for (Subject s : subjects()) {
            auto dir = std::make_shared<QTemporaryDir>();
            QVERIFY(dir->isValid());
            const ExportProof::Exported e = ExportProof::exportUnit(*dir, s, target, version, u"py"_s);
            QVERIFY2(e.error.isEmpty(), qPrintable(s.label + u": "_s + e.error));
            // The client beside the unit: the target's own ProofClient, as the window writes it.
            const ProofClient client = t->proofClient(QFileInfo(e.file).fileName(), version);
            QFile f(dir->filePath(client.fileName));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(client.text.toUtf8());
            f.close();
            commands << QStringList { u"/bin/sh"_s, u"-c"_s,
                u"cd '%1' && exec %2"_s.arg(dir->path(), client.command.join(u' ')) };
            s.label = target + u' ' + s.label;
            list << s;
            exports << e;
            dirs << dir;
        }
    }
    QElapsedTimer timer;
    timer.start();
    const QList<ExportProof::Verdict> verdicts = ExportProof::conformAll(list, commands, exports);
    QStringList problems;
    for (qsizetype i = 0; i < verdicts.size(); ++i) {
        const ExportProof::Verdict& v = verdicts.at(i);
        int passed = 0;
        for (const QString& line : v.table)
            passed += line.startsWith(u"PASS"_s) ? 1 : 0;
        qInfo().noquote() << u"== %1: %2/%3 cases pass (lost: %4)"_s.arg(v.label).arg(passed).arg(v.table.size())
                                 .arg(exports.at(i).lostPaths.join(u", "_s));
        for (const QString& line : v.table)
            if (!line.startsWith(u"PASS"_s))
                qInfo().noquote() << u"   "_s + line;
        for (const QString& u : v.unexpected)
            problems << v.label + u": "_s + u;
    }
    qInfo() << "conform wall time" << timer.elapsed() << "ms";
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestExportProofPython)
#include "tst_exportproof_python.moc"
