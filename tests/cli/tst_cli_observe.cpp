// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab observe [OPTIONS] -- COMMAND` as a real process: the command gets RETRYLAB_URL, its exit status
// comes back as observe's, what it sent is recorded as a session of observed runs, and bad input is one line
// on stderr with exit 2 before anything runs.
#include "cliprocess.h"
#include "session/format/sessionfile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using CliProcess::Result;
using CliProcess::retrylab;

namespace {

} // namespace

class TestCliObserve : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusesBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("no --") << QStringList { u"curl"_s } << u"after --"_s;
        QTest::addRow("nothing after --") << QStringList { u"--"_s } << u"after --"_s;
        QTest::addRow("an unknown option") << QStringList { u"--upstraem"_s, u"x"_s, u"--"_s, u"true"_s } << u"upstraem"_s;
        QTest::addRow("a port out of range") << QStringList { u"--port"_s, u"70000"_s, u"--"_s, u"true"_s } << u"--port"_s;
        QTest::addRow("a scenario that does not exist") << QStringList { u"--scenario"_s, u"no-such-scenario"_s, u"--"_s, u"true"_s }
                                                       << u"no-such-scenario"_s;
        QTest::addRow("a session in a missing folder") << QStringList { u"--session"_s, u"/nonexistent/s.json"_s, u"--"_s, u"true"_s }
                                                      << u"--session: "_s;
        QTest::addRow("a word before --") << QStringList { u"curl"_s, u"--"_s, u"true"_s } << u"before --"_s;
        QTest::addRow("a bad window") << QStringList { u"--window"_s, u"-1"_s, u"--"_s, u"true"_s } << u"--window"_s;
        QTest::addRow("--upstream-insecure alone") << QStringList { u"--upstream-insecure"_s, u"--"_s, u"true"_s } << u"--upstream"_s;
        QTest::addRow("an upstream that is not a URL") << QStringList { u"--upstream"_s, u"127.0.0.1:9"_s, u"--"_s, u"true"_s }
                                                      << u"--upstream"_s;
        QTest::addRow("a forwarding scenario, no upstream")
            << QStringList { u"--scenario"_s, QStringLiteral(RETRYLAB_TEST_DATA "/upstream/forward-503-503.json"), u"--"_s, u"true"_s }
            << u"names no upstream"_s;
    }
    void refusesBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString marker = dir.filePath(u"ran"_s);
        // The command would leave a mark if it ran; it must not.
        for (QString& a : args) {
            if (a == u"true"_s)
                a = u"touch"_s;
        }
        if (args.endsWith(u"touch"_s))
            args << marker;
        const Result r = retrylab(QStringList { u"observe"_s } + args);
        QCOMPARE(r.exit, 2);
        const QByteArray err = r.err.trimmed();
        QVERIFY2(!err.contains('\n'), err.constData());
        QVERIFY2(err.startsWith("retrylab observe: "), err.constData());
        QVERIFY2(QString::fromUtf8(err).contains(message), err.constData());
        QVERIFY(!QFile::exists(marker));
    }

    void aPortInUse()
    {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost));
        QTemporaryDir dir;
        const QString session = dir.filePath(u"s.json"_s);
        const Result r = retrylab({ u"observe"_s, u"--port"_s, QString::number(taken.serverPort()), u"--session"_s, session,
            u"--"_s, u"touch"_s, dir.filePath(u"ran"_s) });
        QCOMPARE(r.exit, 2);
        QVERIFY2(r.err.startsWith("retrylab observe: ") && r.err.trimmed().count('\n') == 0, r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath(u"ran"_s)));
        QVERIFY(!QFile::exists(session + u".journal"_s));
    }

    void passesTheCommandsExitStatus()
    {
        // The lab runs on Qt's poll() dispatcher (QT_NO_GLIB, app/main.cpp); the command's environment is the user's.
        const Result r = retrylab({ u"observe"_s, u"--"_s, u"sh"_s, u"-c"_s,
            u"echo \"url=$RETRYLAB_URL no_glib=${QT_NO_GLIB-unset}\"; exit 7"_s });
        QCOMPARE(r.exit, 7);
        QVERIFY2(r.err.startsWith("url=http://127.0.0.1:"), r.err.constData()); // the command's output goes to stderr
        QVERIFY2(r.err.contains(" no_glib=unset"), r.err.constData());
        QVERIFY2(r.out.startsWith("0 exchanges → 0 logical requests, 0 retries; sh exited 7"), r.out.constData());
    }

    void aCommandThatCannotStart()
    {
        const Result r = retrylab({ u"observe"_s, u"--"_s, u"/nonexistent/client"_s });
        QCOMPARE(r.exit, 127);
        QVERIFY2(r.err.contains("retrylab observe: cannot run /nonexistent/client"), r.err.constData());
    }

    // The lab in front of Python's own http.server, faults on top (503, 503, then forward): Debian's curl
    // retries twice, waiting the Retry-After of 1 s each time, and gets the file python served.
    void observesAClientAgainstARealUpstream()
    {
        const CliProcess::PythonHttpServer python(QStringLiteral(RETRYLAB_TEST_DATA "/upstream"));
        QVERIFY(python.isRunning());
        QTemporaryDir dir;
        const QString body = dir.filePath(u"body"_s);
        const Result r = retrylab({ u"observe"_s, u"--upstream"_s, python.url(), u"--scenario"_s,
            QStringLiteral(RETRYLAB_TEST_DATA "/upstream/forward-503-503.json"), u"--json"_s, u"--"_s, u"sh"_s, u"-c"_s,
            u"curl -sS --retry 2 -o '%1' \"$RETRYLAB_URL/forward-503-503.json\""_s.arg(body) });
        QVERIFY2(r.exit == 0, r.err.constData());
        QFile served(body);
        QVERIFY(served.open(QIODevice::ReadOnly));
        QVERIFY(served.readAll().contains("\"forward\"")); // the upstream's file, relayed on the third attempt
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4); // three attempts, the summary
        QList<int> statuses;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject a = QJsonDocument::fromJson(lines.at(i)).object();
            QCOMPARE(a.value(u"run"_s).toInt(), 1);
            QCOMPARE(a.value(u"attempt"_s).toInt(), i + 1);
            statuses << a.value(u"status"_s).toInt();
            if (i > 0) {
                QCOMPARE(a.value(u"asked_for_ms"_s).toInteger(), 1000); // Retry-After: 1
                const double waited = a.value(u"client_wait_ms"_s).toDouble();
                QVERIFY2(waited >= 940 && waited < 3000, qPrintable(QString::number(waited)));
            }
        }
        QCOMPARE(statuses, (QList<int> { 503, 503, 200 }));
        QCOMPARE(QJsonDocument::fromJson(lines.at(3)).object().value(u"retries"_s).toInt(), 2);
    }

    void recordsASession()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(u"observed.json"_s);
        // flaky-api's first route, twice with the same Idempotency-Key: one logical request of two attempts.
        const QString curl = u"curl -sS -o /dev/null -X POST -H 'Idempotency-Key: k-1' -d '{}' \"$RETRYLAB_URL/api/orders\""_s;
        const Result r = retrylab({ u"observe"_s, u"--scenario"_s, u"flaky-api"_s, u"--session"_s, session, u"--"_s, u"sh"_s,
            u"-c"_s, curl + u"; sleep 0.2; "_s + curl });
        QVERIFY2(r.exit == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QVERIFY2(lines.size() == 4, r.out.constData()); // two attempts, the summary, where the session went
        QVERIFY2(lines.at(1).startsWith("run 1 attempt 2  POST http://127.0.0.1:"), lines.at(1).constData());
        QVERIFY2(lines.at(1).contains("[idempotency-key: Idempotency-Key k-1]"), lines.at(1).constData());
        QString error;
        const std::unique_ptr<Session> s = SessionFile::open(session, {}, &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->meta.source, u"observe"_s);
        QCOMPARE(s->runs.size(), 1);
        QCOMPARE(s->attemptCount(), 2);
        QCOMPARE(s->runRecord(0).observed->rule, u"idempotency-key"_s);
        // Curl's two requests are in the lab's events too, with the key they carried (the lab panel of the
        // opened session counts them).
        int received = 0;
        for (qsizetype i = 0; i < s->labEvents.size(); ++i) {
            if (s->labEvents.kind(i) != LabEvent::Kind::RequestReceived)
                continue;
            ++received;
            QCOMPARE(s->labEvents.at(i).path, u"/api/orders"_s);
            QCOMPARE(s->labEvents.idempotencyKeyUtf8(i), QByteArrayView("k-1"));
        }
        QCOMPARE(received, 2);
        QVERIFY(!s->scenario.isEmpty());
        QVERIFY(!QFile::exists(session + u".journal"_s));
    }
};

QTEST_GUILESS_MAIN(TestCliObserve)
#include "tst_cli_observe.moc"
