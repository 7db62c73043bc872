// SPDX-License-Identifier: GPL-3.0-or-later
// The request headers an attempt records are the ones a real server received (issue 15 item 10): Python's
// http.server answers every request with the header lines it parsed, in order, and the engine's record of
// the attempt must list exactly those. Covers the engine's defaults, each of them turned off (Accept is then
// absent; for Connection, Accept-Encoding, Accept-Language and User-Agent Qt 6.4 adds its own value, which
// the record must show), an empty value, a custom attempt-id header and none.
#include "engine/clock.h"
#include "engine/requestheaders.h"
#include "engine/retryengine.h"
#include "runcollector.h"
#include "engine/timerscheduler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// Prints its port, then answers each request with a JSON list of the [name, value] header lines received.
const char* kEchoServer = R"py(
import http.server, json, sys
class Echo(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def answer(self):
        n = int(self.headers.get('Content-Length') or 0)
        if n: self.rfile.read(n)
        body = json.dumps([[k, v] for k, v in self.headers.items()]).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = answer
    def log_message(self, *args): pass
server = http.server.HTTPServer(('127.0.0.1', 0), Echo)
print(server.server_address[1], flush=True)
server.serve_forever()
)py";

QStringList lines(const QList<SentHeader>& headers)
{
    QStringList out;
    for (const SentHeader& h : headers)
        out << QString::fromLatin1(h.name.toLower()) + u": "_s + QString::fromUtf8(h.value);
    return out;
}

} // namespace

class TestDefaultHeaders : public QObject
{
    Q_OBJECT
    QProcess m_server;
    quint16 m_port = 0;

private Q_SLOTS:
    void initTestCase()
    {
        const QString python = QStandardPaths::findExecutable(u"python3"_s);
        QVERIFY2(!python.isEmpty(), "python3 is needed (packaging/install-deps.sh)");
        m_server.start(python, { u"-c"_s, QString::fromLatin1(kEchoServer) });
        QVERIFY(m_server.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(m_server.canReadLine(), 10000);
        m_port = quint16(m_server.readLine().trimmed().toUInt());
        QVERIFY(m_port > 0);
    }
    void cleanupTestCase()
    {
        m_server.kill();
        m_server.waitForFinished();
    }

    // What Qt itself adds to a request that has none of these headers is what qtOwnHeaderValue() says.
    void qtOwnValuesAreQts()
    {
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        const QUrl url(u"http://127.0.0.1:%1/bare"_s.arg(m_port));
        QNetworkRequest request(url);
        QNetworkReply* reply = nam.get(request);
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 15000);
        const QJsonArray echoed = QJsonDocument::fromJson(reply->readAll()).array();
        reply->deleteLater();
        QStringList names;
        for (const QJsonValue& v : echoed) {
            const QByteArray name = v.toArray().at(0).toString().toLatin1();
            names << QString::fromLatin1(name.toLower());
            if (isQtAddedHeader(name))
                QCOMPARE(v.toArray().at(1).toString().toLatin1(), qtOwnHeaderValue(name, url));
        }
        for (const char* added : { "connection", "accept-encoding", "accept-language", "user-agent", "host" })
            QVERIFY2(names.contains(QLatin1String(added)), added);
    }

    void recordedIsReceived_data()
    {
        QTest::addColumn<QList<QByteArray>>("omitted");
        QTest::addColumn<HttpHeaderList>("headers");
        QTest::addColumn<bool>("attemptId");
        QTest::addColumn<QByteArray>("attemptIdHeader");
        QTest::addColumn<QStringList>("expected"); // lines that must be received (lower-case name)
        QTest::addColumn<QStringList>("absent"); // names that must not be
        const QUrl url(u"http://127.0.0.1:%1/"_s.arg(m_port));
        const QString qtAgent = u"user-agent: "_s + QString::fromLatin1(qtOwnHeaderValue("user-agent", url));
        QTest::addRow("the engine's defaults")
            << QList<QByteArray>() << HttpHeaderList() << true << QByteArray("X-Retrylab-Attempt")
            << QStringList { u"user-agent: retrylab/" RETRYLAB_VERSION ""_s, u"accept: */*"_s, u"accept-encoding: identity"_s,
                   u"accept-language: en"_s, u"connection: keep-alive"_s }
            << QStringList();
        QTest::addRow("Accept off: not sent")
            << QList<QByteArray> { "accept" } << HttpHeaderList() << true << QByteArray("X-Retrylab-Attempt")
            << QStringList() << QStringList { u"accept"_s };
        QTest::addRow("User-Agent off: Qt's Mozilla/5.0")
            << QList<QByteArray> { "user-agent" } << HttpHeaderList() << true << QByteArray("X-Retrylab-Attempt")
            << QStringList { u"user-agent: Mozilla/5.0"_s } << QStringList();
        QTest::addRow("Accept-Encoding, Accept-Language, Connection off: Qt's own")
            << QList<QByteArray> { "accept-encoding", "accept-language", "connection" } << HttpHeaderList() << true
            << QByteArray("X-Retrylab-Attempt")
            << QStringList { u"accept-encoding: "_s + QString::fromLatin1(qtOwnHeaderValue("accept-encoding", url)),
                   u"accept-language: "_s + QString::fromLatin1(qtOwnHeaderValue("accept-language", url)),
                   u"connection: Keep-Alive"_s }
            << QStringList();
        QTest::addRow("an empty User-Agent is Qt's") << QList<QByteArray>() << HttpHeaderList { { "User-Agent", "" } }
                                                     << true << QByteArray("X-Retrylab-Attempt") << QStringList { qtAgent }
                                                     << QStringList();
        QTest::addRow("a custom User-Agent") << QList<QByteArray>() << HttpHeaderList { { "User-Agent", "shop-client/2.1" } }
                                             << true << QByteArray("X-Retrylab-Attempt")
                                             << QStringList { u"user-agent: shop-client/2.1"_s } << QStringList();
        QTest::addRow("no attempt id") << QList<QByteArray>() << HttpHeaderList() << false << QByteArray("X-Retrylab-Attempt")
                                       << QStringList() << QStringList { u"x-retrylab-attempt"_s };
        QTest::addRow("attempt id under another name") << QList<QByteArray>() << HttpHeaderList() << true
                                                       << QByteArray("X-Request-Attempt") << QStringList()
                                                       << QStringList { u"x-retrylab-attempt"_s };
    }
    void recordedIsReceived()
    {
        QFETCH(QList<QByteArray>, omitted);
        QFETCH(HttpHeaderList, headers);
        QFETCH(bool, attemptId);
        QFETCH(QByteArray, attemptIdHeader);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, absent);

        ElapsedClock clock;
        TimerScheduler scheduler(clock);
        RetryEngine engine(clock, scheduler);
        RequestSpec spec;
        spec.url = QUrl(u"http://127.0.0.1:%1/echo"_s.arg(m_port));
        spec.omittedDefaults = omitted;
        spec.headers = headers;
        spec.attemptIdEnabled = attemptId;
        spec.attemptIdHeader = attemptIdHeader;
        RetryPolicy policy;
        policy.limits.maxAttempts = 1;
        RunCollector runs(&engine);
        engine.submit(spec, policy);
        QTRY_COMPARE_WITH_TIMEOUT(runs.size(), 1, 15000);
        QCOMPARE(runs.first().attempts.size(), 1);
        const AttemptRecord& a = runs.first().attempts.first();
        QCOMPARE(a.status, 200);

        QList<SentHeader> received;
        for (const QJsonValue& v : QJsonDocument::fromJson(a.bodyExcerpt).array())
            received.append({ v.toArray().at(0).toString().toLatin1(), v.toArray().at(1).toString().toUtf8(), false });
        QVERIFY2(!received.isEmpty(), a.bodyExcerpt.constData());
        // The record is the wire: same lines, same order.
        QCOMPARE(lines(a.requestHeaders), lines(received));
        const QStringList got = lines(received);
        for (const QString& line : expected)
            QVERIFY2(got.contains(line), qPrintable(line + u" not in "_s + got.join(u" | "_s)));
        for (const QString& name : absent) {
            for (const QString& line : got)
                QVERIFY2(!line.startsWith(name + u':'), qPrintable(line));
        }
        if (attemptId)
            QVERIFY(got.contains(QString::fromLatin1(attemptIdHeader.toLower()) + u": "_s + a.attemptId));
    }
};

QTEST_GUILESS_MAIN(TestDefaultHeaders)
#include "tst_defaultheaders.moc"
