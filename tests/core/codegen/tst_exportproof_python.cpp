// SPDX-License-Identifier: GPL-3.0-or-later
// The Python exports proven by running them (issue 30 §3): each policy exported to urllib3 1.26 and
// tenacity 8.2, wrapped in the ten-line client and judged by `retrylab conform --suite standard`.
#include "exportproof.h"

#include <QTest>

using namespace Qt::StringLiterals;
using ExportProof::Subject;

class TestExportProofPython : public QObject
{
    Q_OBJECT

private slots:
    void conforms_data();
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

void TestExportProofPython::conforms_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("version");
    QTest::newRow("urllib3 1.26") << u"urllib3"_s << u"1.26"_s;
    QTest::newRow("tenacity 8.2") << u"tenacity"_s << u"8.2"_s;
}

void TestExportProofPython::conforms()
{
    QFETCH(QString, target);
    QFETCH(QString, version);
    if (!QFile::exists(u"/usr/bin/python3"_s))
        QSKIP("needs /usr/bin/python3");
    QList<Subject> list = subjects();
    // aws-standard's retry quota is lost on both targets: the standard suite never drains it.
    QList<ExportProof::Exported> exports;
    QList<QStringList> commands;
    QList<std::shared_ptr<QTemporaryDir>> dirs;
    for (Subject& s : list) {
        auto dir = std::make_shared<QTemporaryDir>();
        QVERIFY(dir->isValid());
        const ExportProof::Exported e = ExportProof::exportUnit(*dir, s, target, version, u"py"_s);
        QVERIFY2(e.error.isEmpty(), qPrintable(s.label + u": "_s + e.error));
        // The client beside the unit: the text of the target's ProofClient (this test links Qt only).
        QFile client(dir->filePath(u"client.py"_s));
        QVERIFY(client.open(QIODevice::WriteOnly));
        const QString unit = QFileInfo(e.file).fileName();
        client.write(QStringLiteral(R"(import importlib, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
unit = importlib.import_module(%1)
send = next(f for name, f in vars(unit).items() if callable(f) and getattr(f, "__module__", "") == unit.__name__
            and not name.startswith("_") and not isinstance(f, type))
method = os.environ.get("RETRYLAB_METHOD", "GET")
body, headers = (b'{"amount": 100}', {"Content-Type": "application/json"}) if method == "POST" else (None, {})
if os.environ.get("RETRYLAB_IDEMPOTENCY_KEY"):
    headers[getattr(unit, "KEY_HEADER", "Idempotency-Key")] = os.environ["RETRYLAB_IDEMPOTENCY_KEY"]
try:
    response = send(method, os.environ["RETRYLAB_URL"], body=body, headers=headers)
except Exception as error:
    print(repr(error), file=sys.stderr)
    sys.exit(1)
sys.exit(0 if 200 <= response.status < 300 else 1)
)").arg(u"\""_s + unit.chopped(3) + u'"').toUtf8());
        client.close();
        commands << QStringList { u"/bin/sh"_s, u"-c"_s, u"cd '%1' && exec /usr/bin/python3 client.py"_s.arg(dir->path()) };
        exports << e;
        dirs << dir;
    }
    QElapsedTimer timer;
    timer.start();
    const QList<ExportProof::Verdict> verdicts = ExportProof::conformAll(list, commands, exports);
    QStringList problems;
    for (qsizetype i = 0; i < verdicts.size(); ++i) {
        const ExportProof::Verdict& v = verdicts.at(i);
        qInfo().noquote() << u"== %1 %2 %3 (lost: %4)"_s.arg(target, version, v.label, exports.at(i).lostPaths.join(u", "_s));
        for (const QString& line : v.table)
            qInfo().noquote() << u"   "_s + line;
        for (const QString& u : v.unexpected)
            problems << v.label + u": "_s + u;
    }
    qInfo() << "conform wall time" << timer.elapsed() << "ms";
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestExportProofPython)
#include "tst_exportproof_python.moc"
