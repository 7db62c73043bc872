// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab serve` as a user runs it: first line, a request, the ledger, SIGTERM → exit 0.
#include "cliprocess.h"
#include "session/format/sessionfile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {

QByteArray httpGet(quint16 port, const QByteArray& method, const QByteArray& path)
{
    QTcpSocket socket;
    socket.connectToHost(u"127.0.0.1"_s, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    QByteArray got;
    (void)QTest::qWaitFor([&] {
        got += socket.readAll();
        return socket.state() == QAbstractSocket::UnconnectedState;
    }, 5000);
    return got + socket.readAll();
}

} // namespace

class TestCliServe : public QObject
{
    Q_OBJECT
private slots:
    void listNamesBuiltInScenarios();
    void badArgumentsExit2_data();
    void badArgumentsExit2();
    void servesUntilSigterm();
    void durationStopsByItself();
    void observesThroughPythonHttpServer();
    void sessionRecordsCurlRetries();
    void killedSessionIsRecovered();
};

void TestCliServe::listNamesBuiltInScenarios()
{
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--list"_s });
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    for (const QString& name :
        { u"seed-004-pix"_s, u"seed-000-rate-limited"_s, u"flaky-api"_s, u"outage-10s"_s, u"latency-ramp"_s })
        QVERIFY2(out.contains(name), qPrintable(out));
}

void TestCliServe::badArgumentsExit2_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addRow("unknown option") << QStringList { u"serve"_s, u"--frobnicate"_s };
    QTest::addRow("port not a number") << QStringList { u"serve"_s, u"--port"_s, u"http"_s };
    QTest::addRow("unknown scenario") << QStringList { u"serve"_s, u"--scenario"_s, u"no-such-thing"_s };
    QTest::addRow("bind not an address") << QStringList { u"serve"_s, u"--bind"_s, u"localhost.invalid"_s };
    QTest::addRow("max-requests zero") << QStringList { u"serve"_s, u"--max-requests"_s, u"0"_s };
    QTest::addRow("max-requests not a number") << QStringList { u"serve"_s, u"--max-requests"_s, u"many"_s };
    QTest::addRow("max-requests without value") << QStringList { u"serve"_s, u"--max-requests"_s };
    QTest::addRow("duration negative") << QStringList { u"serve"_s, u"--duration"_s, u"-1"_s };
    QTest::addRow("duration not a number") << QStringList { u"serve"_s, u"--duration"_s, u"1m"_s };
    QTest::addRow("json with list") << QStringList { u"serve"_s, u"--list"_s, u"--json"_s };
    QTest::addRow("upstream not http") << QStringList { u"serve"_s, u"--upstream"_s, u"ftp://127.0.0.1/"_s };
    QTest::addRow("upstream not a URL") << QStringList { u"serve"_s, u"--upstream"_s, u"127.0.0.1:80"_s };
    QTest::addRow("upstream-ca without upstream") << QStringList { u"serve"_s, u"--upstream-ca"_s, u"/etc/hostname"_s };
    QTest::addRow("upstream-ca missing file")
        << QStringList { u"serve"_s, u"--upstream"_s, u"https://127.0.0.1"_s, u"--upstream-ca"_s, u"/no/such.pem"_s };
    QTest::addRow("upstream-insecure on http")
        << QStringList { u"serve"_s, u"--upstream"_s, u"http://127.0.0.1"_s, u"--upstream-insecure"_s };
    QTest::addRow("upstream-timeout zero")
        << QStringList { u"serve"_s, u"--upstream"_s, u"http://127.0.0.1"_s, u"--upstream-timeout"_s, u"0"_s };
    QTest::addRow("upstream-max-body zero")
        << QStringList { u"serve"_s, u"--upstream"_s, u"http://127.0.0.1"_s, u"--upstream-max-body"_s, u"0"_s };
    QTest::addRow("upstream-max-body not a number")
        << QStringList { u"serve"_s, u"--upstream"_s, u"http://127.0.0.1"_s, u"--upstream-max-body"_s, u"64MiB"_s };
    QTest::addRow("upstream-max-body past 1 GiB")
        << QStringList { u"serve"_s, u"--upstream"_s, u"http://127.0.0.1"_s, u"--upstream-max-body"_s, u"1073741825"_s };
    QTest::addRow("upstream-max-body without upstream") << QStringList { u"serve"_s, u"--upstream-max-body"_s, u"1024"_s };
    QTest::addRow("session in a missing directory") << QStringList { u"serve"_s, u"--session"_s, u"/no/such/dir/s.json"_s };
    QTest::addRow("session without value") << QStringList { u"serve"_s, u"--session"_s };
    QTest::addRow("window without session") << QStringList { u"serve"_s, u"--window"_s, u"10"_s };
    QTest::addRow("window not a number")
        << QStringList { u"serve"_s, u"--session"_s, u"/tmp/retrylab-unused.json"_s, u"--window"_s, u"soon"_s };
    QTest::addRow("session with list") << QStringList { u"serve"_s, u"--list"_s, u"--session"_s, u"/tmp/x.json"_s };
    QTest::addRow("forwarded-headers without upstream") << QStringList { u"serve"_s, u"--forwarded-headers"_s };
    QTest::addRow("forward scenario without upstream")
        << QStringList { u"serve"_s, u"--scenario"_s, QStringLiteral(RETRYLAB_TEST_DATA "/upstream/forward-503-503.json") };
}

void TestCliServe::badArgumentsExit2()
{
    QFETCH(QStringList, args);
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY), args);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 2);
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(err.count('\n'), 1); // one line
    QVERIFY2(err.startsWith("retrylab serve: "), err.constData());
    QVERIFY(p.readAllStandardOutput().isEmpty());
}

void TestCliServe::durationStopsByItself()
{
    QProcess p;
    QElapsedTimer clock;
    clock.start();
    p.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--duration"_s, u"0.5"_s, u"--json"_s });
    QVERIFY(p.waitForFinished(15000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(clock.elapsed() >= 450);
    QVERIFY(p.readAllStandardOutput().isEmpty()); // --json: stdout is for exchanges only, and there were none
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.startsWith(u"listening on http://127.0.0.1:"_s), qPrintable(err));
    QVERIFY2(err.contains(u"--duration elapsed"_s), qPrintable(err));
}

void TestCliServe::servesUntilSigterm()
{
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--scenario"_s, u"seed-003-declines"_s });
    QVERIFY(p.waitForStarted(5000));
    QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine(), 10000);
    const QString first = QString::fromUtf8(p.readLine()).trimmed();
    const QRegularExpressionMatch m = QRegularExpression(u"^listening on http://127\\.0\\.0\\.1:(\\d+)$"_s).match(first);
    QVERIFY2(m.hasMatch(), qPrintable(first));
    const quint16 port = quint16(m.captured(1).toUInt());

    // seed-003: the first POST /charge is reset, the third succeeds.
    QVERIFY(httpGet(port, "POST", "/charge").isEmpty());
    httpGet(port, "POST", "/charge");
    QVERIFY(httpGet(port, "POST", "/charge").startsWith("HTTP/1.1 200"));
    const QByteArray ledger = httpGet(port, "GET", "/_lab/ledger");
    const QJsonObject json = QJsonDocument::fromJson(ledger.mid(ledger.indexOf("\r\n\r\n") + 4)).object();
    QCOMPARE(json.value(u"requests_received"_s).toInt(), 3);
    QCOMPARE(json.value(u"operations_applied"_s).toInt(), 1);

    ::kill(p.processId(), SIGTERM);
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    const QString log = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(log.contains(u"POST /charge"_s), qPrintable(log));
    QVERIFY2(log.contains(u"reset"_s), qPrintable(log));
}

// `serve --upstream` in front of Python's own `python3 -m http.server`, no scenario: pure observation.
void TestCliServe::observesThroughPythonHttpServer()
{
    const CliProcess::PythonHttpServer python(QStringLiteral(RETRYLAB_TEST_DATA "/upstream"));
    QVERIFY(python.isRunning());
    QProcess lab;
    lab.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--upstream"_s, python.url(),
                                                    u"--json"_s, u"--max-requests"_s, u"2"_s, u"--duration"_s, u"30"_s });
    QVERIFY(lab.waitForStarted(5000));
    lab.setReadChannel(QProcess::StandardError);
    QTRY_VERIFY_WITH_TIMEOUT(lab.canReadLine(), 10000);
    const QRegularExpressionMatch lm = QRegularExpression(u"listening on http://127\\.0\\.0\\.1:(\\d+)"_s)
                                           .match(QString::fromUtf8(lab.readLine()));
    QVERIFY(lm.hasMatch());
    const quint16 port = quint16(lm.captured(1).toUInt());
    const QByteArray file = httpGet(port, "GET", "/forward-503-503.json");
    QVERIFY2(file.startsWith("HTTP/1.1 200"), file.constData());
    QVERIFY(file.contains("\"forward\"")); // the file python served, relayed
    QVERIFY(httpGet(port, "GET", "/no-such-file").startsWith("HTTP/1.1 404"));
    QTRY_COMPARE_WITH_TIMEOUT(lab.state(), QProcess::NotRunning, 10000); // --max-requests 2: it stops by itself
    QCOMPARE(lab.exitCode(), 0);
    const QList<QByteArray> lines = lab.readAllStandardOutput().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QJsonObject first = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(first.value(u"step"_s).toString(), u"forward"_s);
    QCOMPARE(first.value(u"status"_s).toInt(), 200);
    QCOMPARE(first.value(u"upstream"_s).toString(), python.url());
    QVERIFY(first.value(u"upstream_first_byte_ms"_s).isDouble());
    QCOMPARE(QJsonDocument::fromJson(lines.last()).object().value(u"status"_s).toInt(), 404);
}

namespace {

// The port from `serve`'s first line ("listening on http://127.0.0.1:PORT"), on the channel it is on.
quint16 listeningPort(QProcess& lab)
{
    if (!QTest::qWaitFor([&] { return lab.canReadLine(); }, 10000))
        return 0;
    const QRegularExpressionMatch m = QRegularExpression(u"listening on http://127\\.0\\.0\\.1:(\\d+)"_s)
                                          .match(QString::fromUtf8(lab.readLine()));
    return m.hasMatch() ? quint16(m.captured(1).toUInt()) : 0;
}

int journalledAttempts(const QString& journal)
{
    QFile f(journal);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    int n = 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        n += line.startsWith("{\"event\":\"attempt\"") && line.endsWith('}');
    return n;
}

} // namespace

// `serve --session` in front of python's http.server, faults on top (503, 503, forward), Debian's curl as
// the client: the session holds curl's one logical request as an observed run of three attempts, with
// curl's own waits (curl --retry: 1 s, then doubled — here Retry-After 1 asks for 1 s each time).
void TestCliServe::sessionRecordsCurlRetries()
{
    const CliProcess::PythonHttpServer python(QStringLiteral(RETRYLAB_TEST_DATA "/upstream"));
    QVERIFY(python.isRunning());
    QTemporaryDir dir;
    const QString session = dir.filePath(u"served.json"_s);
    QProcess lab;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, dir.path()); // the journal registry of this test only
    lab.setProcessEnvironment(env);
    lab.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--scenario"_s,
                                                    QStringLiteral(RETRYLAB_TEST_DATA "/upstream/forward-503-503.json"),
                                                    u"--upstream"_s, python.url(), u"--session"_s, session,
                                                    u"--max-requests"_s, u"3"_s, u"--duration"_s, u"60"_s });
    QVERIFY(lab.waitForStarted(5000));
    const quint16 port = listeningPort(lab);
    QVERIFY(port);
    QProcess curl;
    curl.start(u"curl"_s, { u"-sS"_s, u"--retry"_s, u"2"_s, u"-o"_s, dir.filePath(u"body"_s),
                              u"http://127.0.0.1:%1/forward-503-503.json"_s.arg(port) });
    QVERIFY(curl.waitForFinished(30000));
    QCOMPARE(curl.exitCode(), 0);
    QVERIFY(lab.waitForFinished(15000)); // --max-requests 3
    QCOMPARE(lab.exitCode(), 0);
    const QString log = QString::fromUtf8(lab.readAllStandardOutput());
    QVERIFY2(log.contains(u"session written to "_s + session + u": 3 exchanges in 1 inferred runs"_s), qPrintable(log));
    QVERIFY(!QFile::exists(session + u".journal"_s));

    QString error;
    const std::unique_ptr<Session> s = SessionFile::open(session, {}, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->meta.source, u"serve"_s);
    QCOMPARE(s->runs.size(), qsizetype(1));
    QCOMPARE(s->attemptCount(), qsizetype(3));
    QList<int> statuses;
    for (qsizetype i = 0; i < s->attemptCount(); ++i)
        statuses << s->attempts.record(i).status.value_or(0);
    QCOMPARE(statuses, (QList<int> { 503, 503, 200 }));
    QVERIFY(!s->scenario.isEmpty());
    // curl honours Retry-After: 1 — each retry waited about a second after the 503 ended.
    for (qsizetype i = 1; i < s->attemptCount(); ++i) {
        const AttemptRecord a = s->attempts.record(i);
        QVERIFY(a.observed && a.observed->clientWait);
        const qint64 waited = std::chrono::duration_cast<std::chrono::milliseconds>(*a.observed->clientWait).count();
        QVERIFY2(waited >= 900 && waited <= 2500, qPrintable(u"attempt %1 waited %2 ms"_s.arg(i + 1).arg(waited)));
        QCOMPARE(a.observed->askedBy, u"retry-after"_s);
    }
    // The lab's own events are recorded beside the exchanges, so the opened session's lab panel counts the
    // three requests curl sent and how each was answered (two faults, then the upstream's file).
    QList<quint64> received;
    QList<int> answered;
    for (qsizetype i = 0; i < s->labEvents.size(); ++i) {
        const LabEvent e = s->labEvents.at(i);
        if (e.kind == LabEvent::Kind::RequestReceived) {
            QCOMPARE(e.method, QByteArray("GET"));
            QCOMPARE(e.path, u"/forward-503-503.json"_s);
            received << e.requestId;
        } else if (e.kind == LabEvent::Kind::ResponseFinished) {
            QCOMPARE(e.requestId, received.value(answered.size()));
            answered << e.status;
        }
    }
    QCOMPARE(received.size(), 3);
    QCOMPARE(answered, (QList<int> { 503, 503, 200 }));
}

// A serve --session killed with SIGKILL: `recover` restores every exchange its journal had, at once.
void TestCliServe::killedSessionIsRecovered()
{
    QTemporaryDir dir;
    const QString session = dir.filePath(u"killed.json"_s);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, dir.path());
    QProcess lab;
    lab.setProcessEnvironment(env);
    lab.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--scenario"_s, u"flaky-api"_s, u"--session"_s, session });
    QVERIFY(lab.waitForStarted(5000));
    const quint16 port = listeningPort(lab);
    QVERIFY(port);
    for (int i = 0; i < 5; ++i)
        httpGet(port, "GET", "/api/items/" + QByteArray::number(i));
    QTRY_COMPARE_WITH_TIMEOUT(journalledAttempts(session + u".journal"_s), 5, 10000);
    lab.kill();
    QVERIFY(lab.waitForFinished(5000));
    QVERIFY(!QFile::exists(session));

    QProcess recover;
    recover.setProcessEnvironment(env);
    recover.start(QStringLiteral(RETRYLAB_BINARY), { u"recover"_s, u"--dir"_s, dir.path() });
    QVERIFY(recover.waitForFinished(30000));
    QCOMPARE(recover.exitCode(), 0);
    QString error;
    const std::unique_ptr<Session> s = SessionFile::open(session, {}, &error);
    QVERIFY2(s, qPrintable(error));
    QCOMPARE(s->attemptCount(), qsizetype(5));
    QSet<QString> paths;
    for (qsizetype i = 0; i < s->attemptCount(); ++i)
        paths.insert(s->attempts.record(i).url.path());
    QCOMPARE(paths.size(), 5);
}

QTEST_GUILESS_MAIN(TestCliServe)
#include "tst_cli_serve.moc"
