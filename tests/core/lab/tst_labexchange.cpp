// SPDX-License-Identifier: GPL-3.0-or-later
// Every exchange recorded whole (issue 12 §2): FaultServer::exchangeFinished with curl as the client, over
// real loopback sockets. What curl says it sent (`curl -v`: the "> " lines, `-w %{local_port}`) is what
// the exchange holds; the ledger carries the same exchanges with secrets redacted (http/secretheaders.h).
#include "lab/faultserver.h"
#include "lab/labexchangejson.h"
#include "lab/scenarioloader.h"
#include "http/httpfield.h"
#include "http/secretheaders.h"

#include "labtestsupport.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

FaultScenario scenario(const QByteArray& steps)
{
    return oneRoute(steps); // one route "r" on /x/ and everything under it
}

struct CurlRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    // The request lines and header fields curl reports having sent, one list per request.
    QList<QPair<QByteArray, HttpHeaderList>> sent() const
    {
        QList<QPair<QByteArray, HttpHeaderList>> requests;
        for (QByteArray line : err.split('\n')) {
            if (!line.startsWith("> "))
                continue;
            line = line.mid(2);
            if (line.endsWith('\r'))
                line.chop(1);
            const qsizetype colon = line.indexOf(':');
            if (line.contains(" HTTP/1.1") && (colon < 0 || colon > line.indexOf(' ')))
                requests.append({ line, {} });
            else if (colon > 0 && !requests.isEmpty())
                requests.last().second.append({ line.left(colon), line.mid(colon + 1).trimmed() });
        }
        return requests;
    }
};

// Runs curl with ARGS while the event loop (and so the lab) keeps running.
CurlRun runCurl(const QStringList& args)
{
    CurlRun run;
    QProcess curl;
    curl.start(u"curl"_s, QStringList { u"-v"_s, u"-sS"_s } + args);
    if (!curl.waitForStarted(5000))
        return run;
    if (!QTest::qWaitFor([&] { return curl.state() == QProcess::NotRunning; }, 20000)) {
        curl.kill();
        curl.waitForFinished(2000);
    }
    run.exitCode = curl.exitStatus() == QProcess::NormalExit ? curl.exitCode() : -1;
    run.out = curl.readAllStandardOutput();
    run.err = curl.readAllStandardError();
    return run;
}

} // namespace

class TestLabExchange : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void curlExchangesRecordedWhole();
    void clientHangingUpEndsTheExchange();
    void malformedRequestIsAnExchangeToo();
};

void TestLabExchange::initTestCase()
{
    if (QStandardPaths::findExecutable(u"curl"_s).isEmpty())
        QFAIL("curl is required (packaging/install-deps.sh installs it)");
}

void TestLabExchange::curlExchangesRecordedWhole()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenario(R"([{"kind":"respond","status":201,"headers":{"X-Step":"one"},"body":"created"}])"));
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const QString base = server.url().toString();
    const qint64 before = server.nowMs();
    // Two URLs in one curl run: one connection, two requests on it, the second sent after the first answer.
    const CurlRun run = runCurl({ u"-o"_s, u"/dev/null"_s, u"-o"_s, u"/dev/null"_s, u"-w"_s,
        u"%{local_port} %{time_total}\\n"_s, u"-H"_s, u"Authorization: Bearer sekrit-token"_s, u"-H"_s,
        u"X-Custom:  spaced value"_s, u"--data-binary"_s, u"payload"_s, base + u"/x/a?q=1"_s, base + u"/x/b"_s });
    const qint64 after = server.nowMs();
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QTRY_COMPARE(finished.size(), 2);

    const QList<QPair<QByteArray, HttpHeaderList>> sent = run.sent();
    QCOMPARE(sent.size(), 2);
    const QList<QByteArray> written = run.out.trimmed().split('\n');
    QCOMPARE(written.size(), 2);
    const quint16 curlPort = quint16(written.first().split(' ').first().toUInt());
    const qint64 curlTotalMs = qint64(written.last().split(' ').last().toDouble() * 1000.0) + 1;
    QVERIFY(curlPort > 0);

    QList<LabExchange> got;
    for (const QList<QVariant>& args : std::as_const(finished))
        got << args.first().value<LabExchange>();
    for (qsizetype i = 0; i < 2; ++i) {
        const LabExchange& x = got.at(i);
        QCOMPARE(x.method + ' ' + x.target + " HTTP/1.1", sent.at(i).first);
        QCOMPARE(x.requestHeaders, sent.at(i).second); // every field, in order, value as sent
        QCOMPARE(x.clientAddress, u"127.0.0.1"_s);
        QCOMPARE(x.clientPort, curlPort);
        QCOMPARE(x.connectionId, got.first().connectionId);
        QCOMPARE(x.requestOnConnection, int(i + 1));
        QCOMPARE(x.requestBodySize, 7);
        QCOMPARE(x.requestBodySha256, QCryptographicHash::hash("payload", QCryptographicHash::Sha256).toHex());
        QCOMPARE(x.route, u"r"_s);
        QCOMPARE(x.stepKind, u"respond"_s);
        QCOMPARE(x.status, 201);
        QCOMPARE(x.responseBodyBytes, 7);
        QCOMPARE(combinedHeader(x.responseHeaders, "X-Step"), "one"_ba);
        QCOMPARE(combinedHeader(x.responseHeaders, "Content-Length"), "7"_ba);
        QCOMPARE(x.outcome, u"answered"_s);
        QVERIFY(!x.clientGoneMs);
        // Times lie on the lab's axis, in order, inside the window curl ran in.
        QVERIFY(x.requestCompleteMs && x.responseStartedMs && x.responseFinishedMs);
        QVERIFY(before <= x.arrivedMs);
        QVERIFY(x.arrivedMs <= *x.requestCompleteMs);
        QVERIFY(*x.requestCompleteMs <= *x.responseStartedMs);
        QVERIFY(*x.responseStartedMs <= *x.responseFinishedMs);
        QVERIFY(*x.responseFinishedMs <= after);
    }
    QCOMPARE(got.at(0).target, "/x/a?q=1"_ba);
    QVERIFY(got.at(1).requestId > got.at(0).requestId);
    QVERIFY(got.at(1).arrivedMs >= *got.at(0).responseFinishedMs);
    QVERIFY2(*got.at(1).responseFinishedMs - got.at(0).arrivedMs <= curlTotalMs,
        qPrintable(u"lab saw %1 ms, curl %2 ms"_s.arg(*got.at(1).responseFinishedMs - got.at(0).arrivedMs).arg(curlTotalMs)));

    // The ledger: the same exchanges, the secret redacted with the one list and form, the rest as sent.
    const RawExchange ledger = rawExchange(server.port(), "GET /_lab/ledger HTTP/1.1\r\nHost: l\r\nConnection: close\r\n\r\n");
    const QJsonObject json = QJsonDocument::fromJson(ledger.body()).object();
    QCOMPARE(json.value(u"exchanges_recorded"_s).toInteger(), 2);
    const QJsonArray exchanges = json.value(u"exchanges"_s).toArray();
    QCOMPARE(exchanges.size(), 2);
    QCOMPARE(server.ledger().exchangesRecorded(), 2); // the control request is not an exchange
    const QByteArray text = QJsonDocument(exchanges.first().toObject()).toJson(QJsonDocument::Compact);
    QVERIFY2(!text.contains("sekrit"), text.constData());
    const QByteArray redacted = SecretHeaders::redactedValue("Bearer sekrit-token", server.redactionSalt());
    QVERIFY2(text.contains(QByteArray(R"(["Authorization",")" + redacted + "\"]")), text.constData());
    QVERIFY2(text.contains(R"(["X-Custom","spaced value"])"), text.constData());

    // JSON round trip (as `serve --json` and sessions write it).
    LabExchange back;
    QString problem;
    QVERIFY2(LabExchangeJson::fromJson(LabExchangeJson::toJson(got.at(1)), &back, &problem), qPrintable(problem));
    QCOMPARE(back.requestHeaders, got.at(1).requestHeaders);
    QCOMPARE(back.responseFinishedMs, got.at(1).responseFinishedMs);
    QCOMPARE(back.clientPort, got.at(1).clientPort);
    QCOMPARE(back.outcome, got.at(1).outcome);
}

void TestLabExchange::clientHangingUpEndsTheExchange()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(scenario(R"([{"kind":"respond","status":200,"delay_ms":5000,"body":"late"}])"));
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlRun run = runCurl({ u"-o"_s, u"/dev/null"_s, u"--max-time"_s, u"0.4"_s, server.url().toString() + u"/x/slow"_s });
    QCOMPARE(run.exitCode, 28); // curl: operation timed out
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 3000); // when curl left, not when the delay ran out
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"client-gone"_s);
    QCOMPARE(x.status, 0);
    QVERIFY(x.clientGoneMs);
    QVERIFY2(*x.clientGoneMs - x.arrivedMs >= 300, qPrintable(QString::number(*x.clientGoneMs - x.arrivedMs)));
    QVERIFY(!x.responseStartedMs);
    QCOMPARE(server.ledger().exchangesRecorded(), 1);
}

void TestLabExchange::malformedRequestIsAnExchangeToo()
{
    FaultServer server;
    QVERIFY(server.start());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const RawExchange r = rawExchange(server.port(), "GET /x/a HTTP/1.1\r\nHost: l\r\nBad Header\r\n\r\n", 5000, true);
    QCOMPARE(r.status(), 400);
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"rejected"_s);
    QCOMPARE(x.status, 400);
    QCOMPARE(x.method, "GET"_ba);
    QVERIFY(x.responseBodyBytes > 0);
    QCOMPARE(server.ledger().exchangesRecorded(), 1);
}

QTEST_GUILESS_MAIN(TestLabExchange)
#include "tst_labexchange.moc"
