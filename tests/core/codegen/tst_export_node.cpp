// SPDX-License-Identifier: GPL-3.0-or-later
// The Node targets' units (issue 30): golden files for a few presets (tests/core/codegen/data/node/, written
// again with RETRYLAB_UPDATE_GOLDEN=1), every preset × target × version valid JavaScript (`node --check`),
// the counts each library takes, what is lost and that keys are minted only when the policy adds them.
// tst_exportproof_node proves what the units do.
#include "codegen/codeexport.h"
#include "policy/presetcatalog.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QStringList kTargets { u"got"_s, u"ky"_s, u"axios-retry"_s, u"cockatiel"_s };

CodeExport exported(const QString& preset, const QString& target, const QString& version = {})
{
    const PolicyParseResult parsed = PresetCatalog::load(preset);
    QString error;
    const std::optional<CodeExport> e = exportPolicy(*CodeTargets::find(target), *parsed.policy, version, &error);
    return e.value_or(CodeExport {});
}

QStringList lostPaths(const CodeExport& e)
{
    QStringList out;
    for (const LostBehaviour& l : e.lost)
        out << l.path;
    return out;
}

} // namespace

class TestExportNode : public QObject
{
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void syntax_data();
    void syntax();
    void counts();
    void lost();
    void keys();
    void proofClients();
};

void TestExportNode::golden_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("target");
    QTest::newRow("slen got") << u"slen"_s << u"got"_s;
    QTest::newRow("paymongo ky") << u"paymongo"_s << u"ky"_s;
    QTest::newRow("stripe axios-retry") << u"stripe"_s << u"axios-retry"_s;
    QTest::newRow("cockatiel-3 cockatiel") << u"cockatiel-3"_s << u"cockatiel"_s;
    QTest::newRow("urllib3 got") << u"urllib3"_s << u"got"_s;
}

void TestExportNode::golden()
{
    QFETCH(QString, preset);
    QFETCH(QString, target);
    // The version of Retrylab in the header is not part of the golden text.
    const QString code = exported(preset, target).code.replace(QStringLiteral(RETRYLAB_VERSION), u"@VERSION@"_s);
    QVERIFY(!code.isEmpty());
    const QString path = QStringLiteral(NODE_DATA_DIR "/%1.%2.mjs").arg(preset, target);
    if (qEnvironmentVariableIsSet("RETRYLAB_UPDATE_GOLDEN")) {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(code.toUtf8());
    }
    QFile in(path);
    QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(path));
    QCOMPARE(code, QString::fromUtf8(in.readAll()));
}

void TestExportNode::syntax_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("version");
    for (const QString& t : kTargets)
        for (const QString& v : CodeTargets::find(t)->versions)
            QTest::addRow("%s %s", qPrintable(t), qPrintable(v)) << t << v;
}

// Every preset's unit for the target and version, checked by node at once (one process per file, all started
// together).
void TestExportNode::syntax()
{
    QFETCH(QString, target);
    QFETCH(QString, version);
    const QString node = QStandardPaths::findExecutable(u"node"_s);
    if (node.isEmpty())
        QSKIP("node is not installed");
    QTemporaryDir dir;
    std::vector<std::unique_ptr<QProcess>> checks;
    QStringList files;
    for (const QString& preset : PresetCatalog::names()) {
        const CodeExport e = exported(preset, target, version);
        QVERIFY2(!e.code.isEmpty(), qPrintable(preset));
        const QString file = dir.filePath(preset + u".mjs"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(e.code.toUtf8());
        f.close();
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::MergedChannels);
        p->start(node, { u"--check"_s, file });
        checks.push_back(std::move(p));
        files << preset;
    }
    for (std::size_t i = 0; i < checks.size(); ++i) {
        QVERIFY(checks[i]->waitForFinished(30000));
        QVERIFY2(checks[i]->exitCode() == 0, qPrintable(files.at(qsizetype(i)) + u": "_s + QString::fromUtf8(checks[i]->readAll())));
    }
}

// Each library counts retries, not attempts: slen's 3 attempts are 2 retries everywhere.
void TestExportNode::counts()
{
    QVERIFY(exported(u"slen"_s, u"got"_s).code.contains(u"limit: 2,"_s));
    QVERIFY(exported(u"slen"_s, u"ky"_s).code.contains(u"limit: 2,"_s));
    QVERIFY(exported(u"slen"_s, u"axios-retry"_s).code.contains(u"retries: 2,"_s));
    QVERIFY(exported(u"slen"_s, u"cockatiel"_s).code.contains(u"maxAttempts: 2,"_s));
    for (const QString& t : kTargets)
        QVERIFY2(exported(u"slen"_s, t).code.contains(u"const MAX_ATTEMPTS = 3;"_s), qPrintable(t));
    // got's own Retry-After give-up and ky's 10 s timeout are switched off.
    QVERIFY(exported(u"slen"_s, u"got"_s).code.contains(u"enforceRetryRules: false"_s));
    QVERIFY(exported(u"paymongo"_s, u"ky"_s).code.contains(u"timeout: false"_s));
    QVERIFY(exported(u"slen"_s, u"ky"_s).code.contains(u"timeout: 65000"_s));
}

void TestExportNode::lost()
{
    // slen: got carries the connect timeout, the fetch-based and axios targets do not.
    QVERIFY(exported(u"slen"_s, u"got"_s).lost.isEmpty());
    for (const QString& t : { u"ky"_s, u"axios-retry"_s, u"cockatiel"_s })
        QCOMPARE(lostPaths(exported(u"slen"_s, t)), QStringList { u"limits.connect_timeout_ms"_s });
    // aws-standard: the retry quota is a budget none of them has.
    for (const QString& t : kTargets)
        QVERIFY2(lostPaths(exported(u"aws-standard"_s, t)).contains(u"quota"_s), qPrintable(t));
    // paymongo is exact on every target; stripe's "Stripe-Should-Retry: true retries whatever the status" only on
    // cockatiel (fetch hands it every answer): got, ky and axios never pass a 2xx to their retry hooks.
    for (const QString& t : kTargets)
        QVERIFY2(exported(u"paymongo"_s, t).exact(), qPrintable(t + u": "_s + lostPaths(exported(u"paymongo"_s, t)).join(u", "_s)));
    QVERIFY(exported(u"stripe"_s, u"cockatiel"_s).exact());
    for (const QString& t : { u"got"_s, u"ky"_s, u"axios-retry"_s })
        QCOMPARE(lostPaths(exported(u"stripe"_s, t)), QStringList { u"rules[1].when"_s });
}

void TestExportNode::keys()
{
    const PolicyParseResult urllib3 = PresetCatalog::load(u"urllib3"_s);
    QVERIFY(!urllib3.policy->idempotency.autoAdd);
    for (const QString& t : kTargets) {
        const QString slen = exported(u"slen"_s, t).code;
        QVERIFY(slen.contains(u"crypto.randomUUID()"_s));
        QVERIFY(slen.contains(u"withIdempotencyKey(method, options.headers)"_s));
        QVERIFY(!exported(u"urllib3"_s, t).code.contains(u"randomUUID"_s));
    }
    // slen's key is bare; a quoted format writes the sf-string's double quotes.
    QVERIFY(exported(u"slen"_s, u"got"_s).code.contains(u"`${crypto.randomUUID()}`"_s));
}

void TestExportNode::proofClients()
{
    for (const QString& t : kTargets) {
        const CodeTarget* target = CodeTargets::find(t);
        QVERIFY(target->proofClient);
        const ProofClient c = target->proofClient(u"unit.mjs"_s, target->versions.first());
        QCOMPARE(c.command, (QStringList { u"node"_s, u"client.mjs"_s }));
        QVERIFY(c.text.contains(u"from \"./unit.mjs\""_s));
        QVERIFY(c.text.contains(u"RETRYLAB_IDEMPOTENCY_KEY"_s));
        QVERIFY(!c.packages.isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestExportNode)
#include "tst_export_node.moc"
