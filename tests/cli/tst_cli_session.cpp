// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab run --session`, `recover` and `export` as real processes: a recording killed with SIGKILL
// mid-way is recovered with every attempt its journal had; exports of the result validate.
#include "../core/session/harcheck.h"
#include "session/format/sessionfile.h"

#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestCliSession : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_DATA_HOME"_s, m_home.path()); // the journal registry of this test only
        return env;
    }

    int run(const QStringList& args, QByteArray* out = nullptr)
    {
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(QStringLiteral(RETRYLAB_BINARY), args);
        if (!p.waitForFinished(120000))
            return -1;
        if (out)
            *out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitCode();
    }

    static int completeAttemptLines(const QString& journal)
    {
        QFile f(journal);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        int n = 0;
        for (const QByteArray& line : f.readAll().split('\n')) {
            if (line.startsWith("{\"event\":\"attempt\"") && line.endsWith('}'))
                ++n;
        }
        return n;
    }

private Q_SLOTS:
    void killedRecordingIsRecovered()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(u"killed.json"_s);
        const QString journal = session + u".journal"_s;
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(QStringLiteral(RETRYLAB_BINARY), { u"run"_s, u"--policy"_s, u"slen"_s, u"--scenario"_s, u"flaky-api"_s,
                                                     u"--repeat"_s, u"200"_s, u"--quiet"_s, u"--session"_s, session });
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(completeAttemptLines(journal) >= 20, 60000);
        p.kill(); // SIGKILL: no handler runs, nothing is flushed on the way out
        QVERIFY(p.waitForFinished());
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QVERIFY(!QFile::exists(session));
        const int journalled = completeAttemptLines(journal);

        QByteArray out;
        QCOMPARE(run({ u"recover"_s, u"--list"_s }, &out), 0); // found through the registry
        QVERIFY2(out.contains("interrupted"), out.constData());
        QCOMPARE(run({ u"recover"_s, u"--dir"_s, dir.path() }, &out), 0);
        QVERIFY2(out.contains("recovered"), out.constData());
        QVERIFY(!QFile::exists(journal));
        QString error;
        const std::unique_ptr<Session> s = SessionFile::open(session, {}, &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->attemptCount(), qsizetype(journalled));
        QCOMPARE(s->meta.source, u"recovered"_s);
        QVERIFY(!s->scenario.isEmpty());
        QVERIFY(!s->labEvents.isEmpty());
        // Every attempt id the journal held is in the recovered session.
        QSet<QString> ids;
        for (qsizetype i = 0; i < s->attemptCount(); ++i)
            ids.insert(s->attempts.record(i).attemptId);
        QCOMPARE(ids.size(), journalled);

        QCOMPARE(run({ u"recover"_s }, &out), 0);
        QVERIFY2(out.contains("no interrupted sessions"), out.constData());
    }

    void recordThenExport()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(u"s.json"_s);
        QByteArray out;
        run({ u"run"_s, u"--policy"_s, u"slen"_s, u"--scenario"_s, u"seed-001-slen"_s, u"--repeat"_s, u"3"_s, u"--quiet"_s,
                u"--header"_s, u"Authorization: Bearer topsecret-123"_s, u"--session"_s, session },
            &out);
        QVERIFY2(QFile::exists(session), out.constData());
        QVERIFY(!QFile::exists(session + u".journal"_s));
        const std::unique_ptr<Session> s = SessionFile::open(session);
        QVERIFY(s);

        QCOMPARE(run({ u"export"_s, session, u"--format"_s, u"har"_s, u"-o"_s, dir.filePath(u"s.har"_s) }, &out), 0);
        QFile har(dir.filePath(u"s.har"_s));
        QVERIFY(har.open(QIODevice::ReadOnly));
        const QByteArray harText = har.readAll();
        QVERIFY(!harText.contains("topsecret-123"));
        const QJsonObject doc = QJsonDocument::fromJson(harText).object();
        const QStringList problems = HarCheck::problems(doc);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(doc[u"log"_s][u"entries"_s].toArray().size(), s->attemptCount());

        QCOMPARE(run({ u"export"_s, session, u"--format"_s, u"csv"_s, u"-o"_s, dir.filePath(u"s.csv"_s) }, &out), 0);
        QFile csv(dir.filePath(u"s.csv"_s));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count("\r\n"), s->attemptCount() + 1);

        QCOMPARE(run({ u"export"_s, session, u"--curl"_s, u"1:1"_s }, &out), 0);
        QVERIFY2(out.startsWith("curl -X 'POST' 'http://127.0.0.1:"), out.constData());
        QVERIFY(out.contains("[redacted:"));
        QCOMPARE(run({ u"export"_s, session, u"--format"_s, u"xml"_s, u"-o"_s, dir.filePath(u"x"_s) }), 2);
    }

    void liveReplayPutsTheBasePathInFront()
    {
        // Issue 15: --base-url 'http://h/with/path' dropped the path silently. It is a prefix now (a service
        // behind a reverse proxy at /with/path), checked against a server Retrylab did not write.
        QTemporaryDir dir;
        const QString session = dir.filePath(u"s.json"_s);
        QByteArray out;
        QCOMPARE(run({ u"run"_s, u"--policy"_s, u"paymongo"_s, u"--scenario"_s, u"seed-000-rate-limited"_s, u"--path"_s,
                          u"/v1/payments/pay_1?expand=customer"_s, u"--quiet"_s, u"--session"_s, session },
                     &out),
            0);
        QProcess server; // python3 http.server logs each request line to stderr
        server.setWorkingDirectory(dir.path());
        server.start(u"python3"_s, { u"-u"_s, u"-m"_s, u"http.server"_s, u"0"_s, u"--bind"_s, u"127.0.0.1"_s });
        QVERIFY2(server.waitForStarted(), "python3 is in packaging/install-deps.sh");
        QByteArray banner;
        QTRY_VERIFY_WITH_TIMEOUT((banner += server.readAllStandardOutput()).contains(" port "), 10000);
        const QByteArray port = banner.mid(banner.indexOf(" port ") + 6).split(' ').first();
        QCOMPARE(run({ u"replay"_s, session, u"--live"_s, u"--base-url"_s, u"http://127.0.0.1:%1/with/path/"_s.arg(QString::fromLatin1(port)) },
                     &out),
            0);
        QByteArray log;
        QTRY_VERIFY_WITH_TIMEOUT((log += server.readAllStandardError()).contains("HTTP/1.1\" 404"), 10000);
        server.kill();
        server.waitForFinished();
        QVERIFY2(log.contains("\"GET /with/path/v1/payments/pay_1?expand=customer HTTP/1.1\" 404"), log.constData());
        QVERIFY2(!log.contains("\"GET /v1/"), log.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliSession)
#include "tst_cli_session.moc"
