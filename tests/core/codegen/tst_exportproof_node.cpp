// SPDX-License-Identifier: GPL-3.0-or-later
// The Node units proven by running them (issue 30 §3): each policy exported for got 14, ky 1, axios-retry 4
// and cockatiel 3, wrapped in the target's ten-line client (node client.mjs, the packages pinned by
// tests/clients/node/package-lock.json) and judged by `retrylab conform --suite standard` against the policy
// it came from. The units are written into a folder inside the npm folder, so `import "got"` resolves.
// All policies of one target run at once; the slowest (endless-503 with the longest backoffs) sets the time.
#include "codegen/codeexport.h"
#include "exportproof.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTest>

using namespace ExportProof;

class TestExportProofNode : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void got() { prove(QStringLiteral("got"), QStringLiteral("14")); }
    void ky() { prove(QStringLiteral("ky"), QStringLiteral("1")); }
    void axiosRetry() { prove(QStringLiteral("axios-retry"), QStringLiteral("4")); }
    void cockatiel() { prove(QStringLiteral("cockatiel"), QStringLiteral("3")); }

private:
    void prove(const QString& target, const QString& version);
};

void TestExportProofNode::initTestCase()
{
    if (!QFile::exists(QStringLiteral(RETRYLAB_NPM_CLIENTS "/node_modules/got/package.json")))
        QSKIP("the npm clients are not installed (the CTest fixture npm_ci_clients installs them)");
}

void TestExportProofNode::prove(const QString& target, const QString& version)
{
    QElapsedTimer timer;
    timer.start();
    const QList<Subject> list = namedSubjects(QStringLiteral("cockatiel-3"));
    std::vector<std::unique_ptr<QTemporaryDir>> dirs;
    QList<Exported> exports;
    QList<QStringList> commands;
    for (const Subject& s : list) {
        auto dir = std::make_unique<QTemporaryDir>(QStringLiteral(RETRYLAB_NPM_CLIENTS "/export-%1-XXXXXX").arg(target));
        QVERIFY(dir->isValid());
        const Exported e = exportUnit(*dir, s, target, version, QStringLiteral("mjs"));
        QVERIFY2(e.error.isEmpty(), qPrintable(s.label + QStringLiteral(": ") + e.error));
        // The target's own ten-line client, as the window's "Check with a real client" writes it.
        exports << e;
        commands << writeClient(*dir, *CodeTargets::find(target), QFileInfo(e.file).fileName(), version);
        QVERIFY(!commands.last().isEmpty());
        dirs.push_back(std::move(dir));
    }
    QList<Subject> labelled = list;
    for (Subject& s : labelled)
        s.label = target + QLatin1Char(' ') + version + QLatin1Char(' ') + s.label;
    const QStringList problems = logVerdicts(conformAll(labelled, commands, exports), exports);
    qInfo().noquote() << QStringLiteral("%1 %2: %3 s").arg(target, version).arg(timer.elapsed() / 1000.0, 0, 'f', 1);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestExportProofNode)
#include "tst_exportproof_node.moc"
