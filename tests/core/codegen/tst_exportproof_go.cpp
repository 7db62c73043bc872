// SPDX-License-Identifier: GPL-3.0-or-later
// The Go exports proven by running them (issue 30 §3): each policy exported to go-retryablehttp 0.7 and
// cenkalti/backoff v4, built once offline against Debian's packages (GOPATH mode, the v4 import path linked
// onto Debian's folder), and judged by `retrylab conform --suite standard`.
#include "exportproof.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;
using ExportProof::Subject;

class TestExportProofGo : public QObject
{
    Q_OBJECT

private slots:
    // One function per target, so CTest runs them side by side (SPLIT in others.cmake).
    void retryablehttp() { conforms(u"go-retryablehttp"_s, u"0.7"_s); }
    void cenkalti() { conforms(u"cenkalti-backoff"_s, u"4"_s); }

private:
    void conforms(const QString& target, const QString& version);
};

namespace {

// The named policies, the decorrelated one being ms-http-resilience's (decorrelated V2, a deadline), and the
// presets modelled on these two libraries; cenkalti's 100 attempts over 15 minutes would outlast the
// endless-503 case, four show the same rules.
QList<Subject> subjects()
{
    QList<Subject> list = ExportProof::namedSubjects(u"ms-http-resilience"_s);
    for (const QString& preset : { u"go-retryablehttp"_s, u"cenkalti-backoff"_s }) {
        Subject s;
        s.label = QString(preset).replace(u'-', u'_');
        s.policy = preset;
        s.settings = { u"limits.attempt_timeout_ms=3000"_s };
        if (preset == u"cenkalti-backoff")
            s.settings << u"limits.max_attempts=4"_s;
        list << s;
    }
    return list;
}

// Builds the unit and client in DIR into DIR/client; the error output when it fails.
QString build(const QTemporaryDir& dir)
{
    QDir(dir.path()).mkpath(u".gopath/src/github.com/cenkalti/backoff"_s);
    QFile::link(u"/usr/share/gocode/src/github.com/cenkalti/backoff"_s, dir.filePath(u".gopath/src/github.com/cenkalti/backoff/v4"_s));
    QProcess go;
    go.setWorkingDirectory(dir.path());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"GO111MODULE"_s, u"off"_s);
    env.insert(u"GOPATH"_s, dir.filePath(u".gopath"_s) + u":/usr/share/gocode"_s);
    env.insert(u"GOFLAGS"_s, QString());
    if (!env.contains(u"HOME"_s) || env.value(u"GOCACHE"_s).isEmpty())
        env.insert(u"GOCACHE"_s, QDir::tempPath() + u"/retrylab-gocache"_s);
    go.setProcessEnvironment(env);
    go.start(u"go"_s, { u"build"_s, u"-o"_s, u"client"_s, u"."_s });
    if (!go.waitForFinished(120000) || go.exitCode() != 0)
        return QString::fromUtf8(go.readAllStandardError());
    return {};
}

} // namespace

void TestExportProofGo::conforms(const QString& target, const QString& version)
{
    if (QStandardPaths::findExecutable(u"go"_s).isEmpty() || !QFile::exists(u"/usr/share/gocode/src/github.com/cenkalti/backoff/go.mod"_s)
        || !QFile::exists(u"/usr/share/gocode/src/github.com/hashicorp/go-retryablehttp/client.go"_s))
        QSKIP("needs golang-go, golang-github-cenkalti-backoff-dev and golang-github-hashicorp-go-retryablehttp-dev");
    QList<Subject> list = subjects();
    QList<ExportProof::Exported> exports;
    QList<QStringList> commands;
    QList<std::shared_ptr<QTemporaryDir>> dirs;
    for (Subject& s : list) {
        auto dir = std::make_shared<QTemporaryDir>();
        QVERIFY(dir->isValid());
        const ExportProof::Exported e = ExportProof::exportUnit(*dir, s, target, version, u"go"_s);
        QVERIFY2(e.error.isEmpty(), qPrintable(s.label + u": "_s + e.error));
        // The target's own client (main.go), built once here rather than by its `go run` per case.
        const ProofClient client = CodeTargets::find(target)->proofClient(QFileInfo(e.file).fileName(), version);
        QFile main(dir->filePath(client.fileName));
        QVERIFY(main.open(QIODevice::WriteOnly));
        main.write(client.text.toUtf8());
        main.close();
        const QString failed = build(*dir);
        QVERIFY2(failed.isEmpty(), qPrintable(s.label + u": go build: "_s + failed));
        commands << QStringList { dir->filePath(u"client"_s) };
        exports << e;
        dirs << dir;
    }
    QElapsedTimer timer;
    timer.start();
    for (Subject& s : list)
        s.label = target + u' ' + version + u' ' + s.label;
    const QStringList problems = ExportProof::logVerdicts(ExportProof::conformAll(list, commands, exports), exports);
    qInfo() << "conform wall time" << timer.elapsed() << "ms";
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestExportProofGo)
#include "tst_exportproof_go.moc"
