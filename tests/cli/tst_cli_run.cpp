// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab run` as a user runs it (the real binary through QProcess): exit statuses, the per-attempt lines,
// the summary and the lab's ledger, --json, --export, and the seed rules end to end (issue 4).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

Result run(const QStringList& args, int timeoutMs = 60000)
{
    QProcess process;
    process.setProgram(QStringLiteral(RETRYLAB_BINARY));
    process.setArguments(QStringList { u"run"_s } + args);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s);
    env.insert(u"QT_QPA_PLATFORM"_s, u"minimal"_s);
    process.setProcessEnvironment(env);
    process.start();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        return {};
    }
    return Result { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
        QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError()) };
}

// A one-route scenario: GET /r answering STATUSES in order, the last one forever.
QByteArray scenarioJson(const QList<int>& statuses)
{
    QJsonArray steps;
    for (qsizetype i = 0; i < statuses.size(); ++i) {
        QJsonObject step { { u"kind"_s, u"respond"_s }, { u"status"_s, statuses.at(i) },
            { u"json"_s, QJsonObject { { u"n"_s, u"{{n}}"_s } } } };
        if (i == statuses.size() - 1)
            step[u"repeat"_s] = u"forever"_s;
        steps.append(step);
    }
    const QJsonObject route { { u"name"_s, u"r"_s }, { u"method"_s, u"GET"_s }, { u"path"_s, u"/r"_s }, { u"steps"_s, steps } };
    return QJsonDocument(QJsonObject { { u"format"_s, 1 }, { u"name"_s, u"cli-test"_s },
                             { u"routes"_s, QJsonArray { route } } })
        .toJson();
}

// Session-format attempt fields (resources/docs/session-format.md): `run --json` and `--export` write them.
const QStringList kAttemptFields { u"run"_s, u"index"_s, u"start_ms"_s, u"end_ms"_s, u"status"_s, u"error"_s,
    u"decision"_s, u"delay_ms"_s, u"delay_ceiling_ms"_s, u"delay_source"_s, u"reason"_s, u"idempotency_key"_s,
    u"request_headers"_s, u"response_headers"_s, u"rate_limit_fields"_s };

} // namespace

class TestCliRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void exitStatus_data();
    void exitStatus();
    void linesSummaryAndLedger();
    void jsonOutput();
    void exportRedactsAuthorization();
    void paymongoWaitsRetryAfter();
    void pixLeavesThreeSettlements();
    void quietPrintsOneLineLedger();
    void routeChoice_data();
    void routeChoice();
    void listRoutes();
    void connectionsPerHostQueues();

private:
    QString writeScenario(const QString& name, const QList<int>& statuses);
    QTemporaryDir m_dir;
};

void TestCliRun::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QString TestCliRun::writeScenario(const QString& name, const QList<int>& statuses)
{
    const QString path = m_dir.filePath(name + u".json"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(scenarioJson(statuses));
    return path;
}

void TestCliRun::exitStatus_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    // "%URL%" is replaced by a listening socket that must see no connection when the status is 2.
    QTest::addRow("issue 4: 0 when every run succeeded")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--scenario"_s, u"@ok"_s, u"--repeat"_s, u"2"_s } << 0;
    QTest::addRow("issue 4: 1 when any run failed (200 then 404)")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--scenario"_s, u"@mixed"_s, u"--repeat"_s, u"2"_s } << 1;
    QTest::addRow("issue 4: 2 for an unknown preset")
        << QStringList { u"--policy"_s, u"no-such-preset"_s, u"--url"_s, u"%URL%"_s } << 2;
    QTest::addRow("issue 4: 2 for a bad URL")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--url"_s, u"ht!tp://x"_s } << 2;
    QTest::addRow("issue 4: 2 for an unreadable --data file")
        << QStringList { u"--policy"_s, u"stripe"_s, u"--url"_s, u"%URL%"_s, u"--method"_s, u"POST"_s, u"--data"_s,
               u"@/nonexistent/missing.json"_s }
        << 2;
    QTest::addRow("issue 4: 2 for --repeat 0")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--url"_s, u"%URL%"_s, u"--repeat"_s, u"0"_s } << 2;
    QTest::addRow("issue 4: 2 for --repeat that is not a number")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--url"_s, u"%URL%"_s, u"--repeat"_s, u"many"_s } << 2;
    QTest::addRow("issue 4: 2 for an unknown option")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--url"_s, u"%URL%"_s, u"--frobnicate"_s } << 2;
    QTest::addRow("issue 4: 2 for an unknown scenario")
        << QStringList { u"--policy"_s, u"rfc9110-standard"_s, u"--scenario"_s, u"no-such-scenario"_s } << 2;
}

void TestCliRun::exitStatus()
{
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QTcpServer sink;
    QVERIFY(sink.listen(QHostAddress::LocalHost, 0));
    for (QString& a : args) {
        a.replace(u"%URL%"_s, u"http://127.0.0.1:%1/x"_s.arg(sink.serverPort()));
        if (a == u"@ok"_s)
            a = writeScenario(u"ok"_s, { 200 });
        else if (a == u"@mixed"_s)
            a = writeScenario(u"mixed"_s, { 200, 404 });
    }
    const Result r = run(args);
    QVERIFY2(r.exitCode == status, qPrintable(u"exit %1\n%2%3"_s.arg(r.exitCode).arg(r.out, r.err)));
    if (status == 2) {
        QVERIFY2(!r.err.trimmed().isEmpty(), "a bad argument gets a message");
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        QTest::qWait(100);
        QVERIFY2(!sink.hasPendingConnections(), "nothing is sent for bad arguments");
    }
}

void TestCliRun::linesSummaryAndLedger()
{
    const QString scenario = writeScenario(u"flaky"_s, { 503, 200 });
    const QString ledgerPath = m_dir.filePath(u"ledger.json"_s);
    const Result r = run({ u"--policy"_s, u"rfc9110-standard"_s, u"--scenario"_s, scenario, u"--seed"_s, u"7"_s,
        u"--ledger"_s, ledgerPath });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() >= 4, qPrintable(r.out));
    // run, attempt, start offset, duration, status, decision, wait ceiling → chosen (source), reason
    const QRegularExpression first(
        u"^run 1 attempt 1  \\+\\d+\\.\\d ms  \\d+\\.\\d ms  503  retry  wait 500 → (\\d+) ms \\(backoff\\)  503 on GET is retried"_s);
    QVERIFY2(first.match(lines.at(0)).hasMatch(), qPrintable(lines.at(0)));
    QVERIFY2(QRegularExpression(u"^run 1 attempt 2  \\+\\d+\\.\\d ms  \\d+\\.\\d ms  200  success  200 on GET is a success"_s)
                 .match(lines.at(1))
                 .hasMatch(),
        qPrintable(lines.at(1)));
    const QRegularExpressionMatch summary = QRegularExpression(
        u"^1 runs, 2 attempts, 100\\.0% succeeded, amplification 2\\.00, latency p50 ([\\d.]+) ms p95 ([\\d.]+) ms, waiting (\\d+) ms$"_s)
                                                .match(lines.at(2));
    QVERIFY2(summary.hasMatch(), qPrintable(lines.at(2)));
    const qint64 chosen = first.match(lines.at(0)).captured(1).toLongLong();
    QVERIFY2(summary.captured(3).toLongLong() >= chosen, qPrintable(lines.at(2))); // waits are never shorter
    QVERIFY(summary.captured(2).toDouble() >= summary.captured(1).toDouble());
    const QString ledger = lines.mid(3).join(u'\n');
    // The lab applies a 2xx answer as one operation named after the route; the 503 applied nothing.
    QCOMPARE(ledger, u"lab ledger: 2 requests received, 1 operations applied: 1 r"_s);
    // Issue 10 §5: the whole ledger goes to --ledger FILE, not onto the terminal as one long JSON line.
    QFile file(ledgerPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject whole = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(whole.value(u"requests_received"_s).toInt(), 2);
    QCOMPARE(whole.value(u"requests"_s).toArray().size(), 2);
}

void TestCliRun::jsonOutput()
{
    const QString scenario = writeScenario(u"json"_s, { 502, 200 });
    const Result r = run({ u"--policy"_s, u"rfc9110-standard"_s, u"--scenario"_s, scenario, u"--json"_s });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    for (int i = 0; i < 2; ++i) {
        QJsonParseError error;
        const QJsonObject a = QJsonDocument::fromJson(lines.at(i).toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(lines.at(i)));
        for (const QString& field : kAttemptFields)
            QVERIFY2(a.contains(field), qPrintable(field));
        QCOMPARE(a.value(u"index"_s).toInt(), i + 1);
    }
    QJsonParseError error;
    const QJsonObject summary = QJsonDocument::fromJson(lines.at(2).toUtf8(), &error).object().value(u"summary"_s).toObject();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(lines.at(2)));
    QCOMPARE(summary.value(u"runs"_s).toInt(), 1);
    QCOMPARE(summary.value(u"attempts"_s).toInt(), 2);
    QCOMPARE(summary.value(u"succeeded"_s).toInt(), 1);
    QCOMPARE(summary.value(u"amplification"_s).toDouble(), 2.0);
    for (const QString& field : { u"p50_ms"_s, u"p95_ms"_s, u"waiting_ms"_s })
        QVERIFY2(summary.value(field).isDouble(), qPrintable(field));
    QCOMPARE(summary.value(u"ledger"_s).toObject().value(u"requests_received"_s).toInt(), 2);
}

void TestCliRun::exportRedactsAuthorization()
{
    const QString scenario = writeScenario(u"export"_s, { 503, 200 });
    const QString path = m_dir.filePath(u"log.json"_s);
    const Result r = run({ u"--policy"_s, u"rfc9110-standard"_s, u"--scenario"_s, scenario, u"--quiet"_s, u"--header"_s,
        u"Authorization: Bearer sk_live_s3cret"_s, u"--export"_s, path });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY2(!bytes.contains("sk_live_s3cret"), "the secret never reaches the file");
    const QJsonObject log = QJsonDocument::fromJson(bytes).object();
    QCOMPARE(log.value(u"format"_s).toString(), u"retrylab-session"_s); // a session file: `retrylab export` reads it
    const QJsonArray runs = log.value(u"runs"_s).toArray();
    QCOMPARE(runs.size(), 1);
    const QJsonObject runObject = runs.at(0).toObject();
    QCOMPARE(runObject.value(u"outcome"_s).toString(), u"success"_s);
    const QJsonArray attempts = runObject.value(u"attempts"_s).toArray();
    QCOMPARE(attempts.size(), 2);
    for (const QJsonValue& v : attempts) {
        const QJsonObject a = v.toObject();
        for (const QString& field : kAttemptFields)
            QVERIFY2(a.contains(field), qPrintable(field));
        bool sawAuthorization = false;
        for (const QJsonValue& h : a.value(u"request_headers"_s).toArray()) {
            if (h.toArray().at(0).toString().compare(u"authorization"_s, Qt::CaseInsensitive) == 0) {
                sawAuthorization = true;
                QVERIFY2(h.toArray().at(1).toString().startsWith(u"[redacted"_s), qPrintable(h.toArray().at(1).toString()));
            }
        }
        QVERIFY(sawAuthorization);
    }
    QCOMPARE(attempts.at(0).toObject().value(u"status"_s).toInt(), 503);
    QCOMPARE(attempts.at(0).toObject().value(u"decision"_s).toString(), u"retry"_s);
    QCOMPARE(attempts.at(1).toObject().value(u"decision"_s).toString(), u"success"_s);
}

void TestCliRun::paymongoWaitsRetryAfter()
{
    // Seed 000: "a 429 with Retry-After: 2 is retried after 2 s".
    const QString path = m_dir.filePath(u"paymongo.json"_s);
    const Result r = run({ u"--policy"_s, u"paymongo"_s, u"--scenario"_s, u"seed-000-rate-limited"_s, u"--export"_s, path });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"429  retry  wait "_s) && r.out.contains(u"→ 2000 ms (retry-after)"_s), qPrintable(r.out));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray attempts
        = QJsonDocument::fromJson(f.readAll()).object().value(u"runs"_s).toArray().at(0).toObject().value(u"attempts"_s).toArray();
    QCOMPARE(attempts.size(), 2);
    const QJsonObject first = attempts.at(0).toObject();
    QCOMPARE(first.value(u"status"_s).toInt(), 429);
    QCOMPARE(first.value(u"delay_source"_s).toString(), u"retry-after"_s);
    QCOMPARE(first.value(u"delay_ms"_s).toInteger(), 2000);
    // The wait as recorded on the session's monotonic axis, not the test's wall time.
    const double waited = attempts.at(1).toObject().value(u"start_ms"_s).toDouble() - first.value(u"end_ms"_s).toDouble();
    QVERIFY2(waited >= 1900.0, qPrintable(QString::number(waited)));
}

void TestCliRun::pixLeavesThreeSettlements()
{
    // Seed 004: five payments, each under its own key, per-attempt timeout under 4 s → 3 settlements.
    const Result r = run({ u"--policy"_s, u"pix"_s, u"--scenario"_s, u"seed-004-pix"_s, u"--repeat"_s, u"5"_s, u"--timeout"_s,
                             u"3"_s, u"--seed"_s, u"4"_s },
        120000);
    QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err)); // payments 4 and 5 fail
    const QRegularExpressionMatch m = QRegularExpression(u"lab ledger: (\\d+) requests received, (\\d+) operations applied: (.*)$"_s,
        QRegularExpression::MultilineOption)
                                          .match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(r.out));
    QCOMPARE(m.captured(2).toInt(), 3);
    QCOMPARE(m.captured(3).trimmed(), u"3 settlement"_s);
    const QRegularExpressionMatch summary = QRegularExpression(u"^5 runs, (\\d+) attempts, 60\\.0% succeeded"_s,
        QRegularExpression::MultilineOption)
                                                .match(r.out);
    QVERIFY2(summary.hasMatch(), qPrintable(r.out));
    QCOMPARE(m.captured(1), summary.captured(1)); // one transmission per attempt
}

void TestCliRun::quietPrintsOneLineLedger()
{
    // Issue 10 §5: --quiet printed the whole ledger as one JSON line of thousands of characters.
    const Result r = run({ u"--policy"_s, u"pix"_s, u"--scenario"_s, u"seed-004-pix"_s, u"--repeat"_s, u"5"_s, u"--timeout"_s,
                             u"3"_s, u"--seed"_s, u"4"_s, u"--quiet"_s },
        120000);
    QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err));
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.first().startsWith(u"5 runs, "_s), qPrintable(r.out));
    QVERIFY2(lines.last().startsWith(u"lab ledger: "_s), qPrintable(r.out));
    QCOMPARE(lines.size(), 1 + 2 + 1); // the summary, the two failed runs, the ledger's summary
    for (const QString& line : lines)
        QVERIFY2(line.size() < 300 && !line.contains(u'{'), qPrintable(line));
}

void TestCliRun::connectionsPerHostQueues()
{
    // Issue 10 §3: a client's pool of 2 connections; 6 runs at once against answers that take 300 ms. Four
    // attempts wait for a connection (and say so), none times out although the 800 ms timeout is shorter
    // than the 3 waves, and the lab received exactly the 6 attempts.
    const QString path = m_dir.filePath(u"slow.json"_s);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(R"({"format": 1, "name": "slow", "routes": [ { "path": "/r", "steps": [
        { "kind": "respond", "status": 200, "delay_ms": 300, "repeat": "forever" } ] } ]})");
    f.close();
    const Result r = run({ u"--policy"_s, u"slen"_s, u"--scenario"_s, path, u"--repeat"_s, u"6"_s, u"--concurrency"_s,
        u"6"_s, u"--connections-per-host"_s, u"2"_s, u"--timeout"_s, u"0.8"_s });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.filter(u"(queued "_s).size(), 4);
    QCOMPARE(lines.filter(QRegularExpression(u"^run \\d+ attempt 1 .*  200  success"_s)).size(), 6);
    QVERIFY2(lines.last().startsWith(u"lab ledger: 6 requests"_s), qPrintable(lines.last()));
}

void TestCliRun::routeChoice_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("route"); // as the lab's ledger names the route the request reached
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    // seed-000-rate-limited: GET /v1/payments/*, PUT|PATCH /v1/payments/*, POST /v1/payments, DELETE /v1/customers/*
    QTest::addRow("issue 15: --method POST reaches the POST route, not the first (GET) one")
        << QStringList { u"--method"_s, u"POST"_s } << u"create-payment"_s << u"POST"_s << u"/v1/payments"_s;
    QTest::addRow("no --method or --path: the first route, its method and a sample path")
        << QStringList {} << u"retrieve-payment"_s << u"GET"_s << u"/v1/payments/x"_s;
    QTest::addRow("--path alone: the route's first method")
        << QStringList { u"--path"_s, u"/v1/customers/cus_1"_s } << u"delete-customer"_s << u"DELETE"_s << u"/v1/customers/cus_1"_s;
    QTest::addRow("--path and --method pick the second of two routes on one path")
        << QStringList { u"--path"_s, u"/v1/payments/pay_9"_s, u"--method"_s, u"patch"_s } << u"update-payment"_s << u"PATCH"_s
        << u"/v1/payments/pay_9"_s;
    QTest::addRow("a query is sent as given")
        << QStringList { u"--path"_s, u"/v1/payments/p?expand=1"_s } << u"retrieve-payment"_s << u"GET"_s << u"/v1/payments/p"_s;
}

void TestCliRun::routeChoice()
{
    QFETCH(QStringList, args);
    QFETCH(QString, route);
    QFETCH(QString, method);
    QFETCH(QString, path);
    const QString ledgerPath = m_dir.filePath(u"route-ledger.json"_s);
    QFile::remove(ledgerPath);
    const Result r = run(QStringList { u"--policy"_s, u"paymongo"_s, u"--scenario"_s, u"seed-000-rate-limited"_s, u"--quiet"_s,
                             u"--ledger"_s, ledgerPath }
        + args);
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.out + r.err));
    QFile file(ledgerPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray requests = QJsonDocument::fromJson(file.readAll()).object().value(u"requests"_s).toArray();
    QVERIFY(!requests.isEmpty());
    for (const QJsonValue& v : requests) {
        const QJsonObject request = v.toObject();
        QCOMPARE(request.value(u"route"_s).toString(), route);
        QCOMPARE(request.value(u"method"_s).toString(), method);
        QCOMPARE(request.value(u"path"_s).toString(), path);
    }
}

void TestCliRun::listRoutes()
{
    const Result r = run({ u"--scenario"_s, u"seed-000-rate-limited"_s, u"--list-routes"_s });
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 4);
    QVERIFY2(QRegularExpression(u"^create-payment +POST +/v1/payments +--method POST --path /v1/payments$"_s).match(lines.at(3)).hasMatch(),
        qPrintable(lines.at(3)));
    QVERIFY2(QRegularExpression(u"^update-payment +PUT\\|PATCH +/v1/payments/\\* +--method PUT --path /v1/payments/x$"_s)
                 .match(lines.at(2))
                 .hasMatch(),
        qPrintable(lines.at(2)));
}

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
