// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab import FILE.har -o SESSION` as a real process: a DevTools-shaped HAR 1.2 file becomes a session
// of observed runs (one line per inferred attempt, a summary), its HAR export imports back to the same
// grouping, and bad input — not JSON, another version, a missing field, an unwritable output — is one line
// on stderr with exit 2 and no file written.
#include "../core/session/harcheck.h"
#include "cliprocess.h"
#include "session/format/sessionfile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using CliProcess::Result;
using CliProcess::retrylab;

namespace {

QString fixture()
{
    return QStringLiteral(RETRYLAB_SOURCE_DIR) + u"/tests/data/har/devtools-retries.har"_s;
}

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return f.fileName();
}

} // namespace

class TestCliImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void importsADevToolsHar()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(u"s.json"_s);
        const Result r = retrylab({ u"import"_s, fixture(), u"-o"_s, session });
        QVERIFY2(r.exit == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5); // four attempts and the summary
        QVERIFY2(lines.at(1).contains("run 1 attempt 2  POST https://api.example/v1/payments → 201  waited 250 ms (Retry-After said 2 s)  [idempotency-key: Idempotency-Key checkout-7f3a91]"),
            lines.at(1).constData());
        QVERIFY2(lines.at(3).contains("run 2 attempt 2  GET https://api.example/v1/cart?id=991 → 200  waited 500 ms  [fingerprint, heuristic]"),
            lines.at(3).constData());
        QVERIFY2(lines.at(4).startsWith("4 exchanges → 2 logical requests (1 by fingerprint — a heuristic, 1 by Idempotency-Key), 2 retries; skipped 1 entries that are not HTTP(S)"),
            lines.at(4).constData());
        QString error;
        const std::unique_ptr<Session> s = SessionFile::open(session, {}, &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->runs.size(), 2);
        QCOMPARE(s->meta.source, u"import-har"_s);
        QVERIFY(s->meta.notes.contains(u"WebInspector 537.36"_s));
        QCOMPARE(s->runRecord(0).observed->rule, u"idempotency-key"_s);
        QCOMPARE(s->runRecord(0).outcome, FinalKind::Success);
        QCOMPARE(s->runRecord(1).attempts.at(0).error, std::optional<ErrorClass>(ErrorClass::ConnectionLost));

        // Its HAR export is valid HAR and imports back to the same runs.
        const QString har = dir.filePath(u"back.har"_s);
        const Result exported = retrylab({ u"export"_s, session, u"--format"_s, u"har"_s, u"-o"_s, har });
        QVERIFY2(exported.exit == 0, exported.err.constData());
        QFile f(har);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList problems = HarCheck::problems(QJsonDocument::fromJson(f.readAll()).object());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        const Result again = retrylab({ u"import"_s, har, u"-o"_s, dir.filePath(u"again.json"_s), u"--json"_s });
        QVERIFY2(again.exit == 0, again.err.constData());
        const QList<QByteArray> json = again.out.trimmed().split('\n');
        QCOMPARE(json.size(), 4);
        QStringList groups;
        for (const QByteArray& line : json) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            groups << u"%1.%2 %3"_s.arg(o.value(u"run"_s).toInt()).arg(o.value(u"attempt"_s).toInt()).arg(o.value(u"rule"_s).toString());
        }
        QCOMPARE(groups.join(u", "_s), u"1.1 idempotency-key, 1.2 idempotency-key, 2.1 fingerprint, 2.2 fingerprint"_s);
        QCOMPARE(QJsonDocument::fromJson(json.at(1)).object().value(u"client_wait_ms"_s).toDouble(), 250.0);
    }

    void refusesBadInput_data()
    {
        QTest::addColumn<QByteArray>("input"); // the HAR file's text; empty: use the path as given below
        QTest::addColumn<QStringList>("extra"); // further arguments
        QTest::addColumn<QString>("message");

        QTest::addRow("not JSON") << QByteArray("<html>not a HAR</html>") << QStringList() << u"bad.har: line 1"_s;
        QTest::addRow("HAR 2.0") << QByteArray("{\"log\": {\"version\": \"2.0\", \"entries\": []}}") << QStringList()
                                 << u"$.log.version: \"2.0\": this reads HAR 1.2"_s;
        QTest::addRow("no entries") << QByteArray("{\"log\": {\"version\": \"1.2\"}}") << QStringList() << u"$.log.entries: missing"_s;
        QTest::addRow("an entry without a request")
            << QByteArray("{\"log\": {\"version\": \"1.2\", \"entries\": [{\"startedDateTime\": \"2026-01-01T00:00:00Z\",\n\"response\": {\"status\": 200, \"headers\": []}}]}}")
            << QStringList() << u"$.log.entries[0].request: missing"_s;
        QTest::addRow("a missing file") << QByteArray() << QStringList { u"/nonexistent/in.har"_s } << u"/nonexistent/in.har"_s;
        QTest::addRow("an output in a missing folder") << QByteArray("{\"log\": {\"version\": \"1.2\", \"entries\": []}}")
                                                       << QStringList { u"-o"_s, u"/nonexistent/dir/s.json"_s } << u"-o: "_s;
        QTest::addRow("no -o") << QByteArray("{\"log\": {\"version\": \"1.2\", \"entries\": []}}") << QStringList { u"--no-o"_s }
                               << u"-o SESSION is required"_s;
        QTest::addRow("a bad window") << QByteArray("{\"log\": {\"version\": \"1.2\", \"entries\": []}}")
                                      << QStringList { u"--window"_s, u"soon"_s } << u"--window"_s;
    }
    void refusesBadInput()
    {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString output = dir.filePath(u"s.json"_s);
        QStringList args { u"import"_s };
        if (!input.isEmpty())
            args << write(dir, u"bad.har"_s, input);
        else
            args << extra.takeFirst();
        if (!extra.removeAll(u"--no-o"_s) && !extra.contains(u"-o"_s))
            args << u"-o"_s << output;
        args << extra;
        const Result r = retrylab(args);
        QCOMPARE(r.exit, 2);
        QVERIFY(r.out.isEmpty());
        const QByteArray err = r.err.trimmed();
        QVERIFY2(!err.contains('\n'), err.constData()); // one line
        QVERIFY2(err.startsWith("retrylab import: "), err.constData());
        QVERIFY2(QString::fromUtf8(err).contains(message), err.constData());
        QVERIFY(!QFile::exists(output));
    }

    void helpNamesTheCommand()
    {
        const Result r = retrylab({ u"--help"_s });
        QCOMPARE(r.exit, 0);
        QVERIFY(r.out.contains("  import"));
    }
};

QTEST_GUILESS_MAIN(TestCliImport)
#include "tst_cli_import.moc"
