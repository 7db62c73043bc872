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
        subject(u"ms_http_resilience"_s, u"ms-http-resilience"_s, shortTimeout), // decorrelated V2, a deadline
        subject(u"go_retryablehttp"_s, u"go-retryablehttp"_s, shortTimeout),
        // 100 attempts over 15 minutes would outlast the endless-503 case: four show the same rules.
        subject(u"cenkalti_backoff"_s, u"cenkalti-backoff"_s, shortTimeout + QStringList { u"limits.max_attempts=4"_s }),
    };
}

// The ten-line client of the Go targets' ProofClient (this test links Qt only, so it carries the text).
const char* const kClient = R"(package main

import (
	"context"
	"net/http"
	"os"
)

func main() {
	method := os.Getenv("RETRYLAB_METHOD")
	var body []byte
	header := http.Header{}
	if method == "POST" {
		body = []byte(`{"amount": 100}`)
		header.Set("Content-Type", "application/json")
	}
	if key := os.Getenv("RETRYLAB_IDEMPOTENCY_KEY"); key != "" {
		header.Set(IdempotencyKeyHeader, key)
	}
	resp, err := Send(context.Background(), method, os.Getenv("RETRYLAB_URL"), body, header)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		os.Exit(1)
	}
}
)";

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
        QFile client(dir->filePath(u"main.go"_s));
        QVERIFY(client.open(QIODevice::WriteOnly));
        client.write(kClient);
        client.close();
        const QString failed = build(*dir);
        QVERIFY2(failed.isEmpty(), qPrintable(s.label + u": go build: "_s + failed));
        commands << QStringList { dir->filePath(u"client"_s) };
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

QTEST_GUILESS_MAIN(TestExportProofGo)
#include "tst_exportproof_go.moc"
