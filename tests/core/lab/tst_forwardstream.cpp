// SPDX-License-Identifier: GPL-3.0-or-later
// A plain `forward` streams the upstream's answer (issue 12 §1): Python's http.server
// (tests/data/upstream/upstream_server.py) sends hundreds of MiB, curl (or a socket here) receives them, and
// the lab holds no more than its backpressure bound (ForwardStream::kHighWater plus one read slice) at any
// time; the bytes and their SHA-256 are the same at both ends; Content-Length goes through, chunked and
// close-delimited bodies are re-chunked for HTTP/1.1 (RFC 9112 §7.1) and close-delimited for HTTP/1.0
// (RFC 9112 §6.3). A client that vanishes and an upstream that dies mid-body are recorded with their reasons,
// a limit broken after the head went out cuts the answer, and the lab stays up. Uploads (the request
// direction) are tst_forwardupload's.
#include "lab/faultserver.h"

#include "forwardtestsupport.h"
#include "labtestsupport.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>

namespace {

constexpr qint64 kBound = 1024 * 1024; // far below every body streamed here

FaultScenario forwardAll() { return oneRoute(R"([{"kind":"forward","repeat":"forever"}])"); }

QByteArray patternSha256(qint64 size) // what the upstream sends: bytes 0..255 repeated
{
    QByteArray block;
    for (int i = 0; i < 256 * 256; ++i)
        block += char(i & 0xff);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (qint64 offset = 0; offset < size; offset += block.size())
        hash.addData(QByteArrayView(block).first(qsizetype(std::min<qint64>(block.size(), size - offset))));
    return hash.result().toHex();
}

// curl, its body piped through sha256sum: the client's view, without holding the body anywhere.
struct PipedCurl
{
    int curlExit = -1;
    QByteArray head;
    QByteArray sha256;
    QByteArray header(const QByteArray& name) const { return CurlAnswer { 0, head, {} }.header(name); }
    int status() const { return head.startsWith("HTTP/1.") ? head.mid(9, 3).toInt() : 0; }
};

PipedCurl curlHashed(const QString& url, const QStringList& extra = {})
{
    PipedCurl out;
    QTemporaryDir dir;
    const QString headFile = dir.filePath(u"head"_s);
    QProcess p;
    QString args;
    for (const QString& a : extra)
        args += u" '"_s + a + u"'"_s;
    // POSIX sh has no PIPESTATUS: curl's exit status goes to a file.
    const QString statusFile = dir.filePath(u"status"_s);
    p.start(u"sh"_s, { u"-c"_s, u"{ curl -sS -D '%1'%2 '%3'; echo $? > '%4'; } | sha256sum"_s.arg(headFile, args, url, statusFile) });
    if (!p.waitForStarted(5000) || !waitForExit(p, 120000)) {
        p.kill();
        p.waitForFinished(2000);
        return out;
    }
    out.sha256 = p.readAllStandardOutput().left(64);
    QFile head(headFile);
    if (head.open(QIODevice::ReadOnly))
        out.head = head.readAll();
    QFile status(statusFile);
    if (status.open(QIODevice::ReadOnly))
        out.curlExit = status.readAll().trimmed().toInt();
    return out;
}

// What every case forwards through: the lab in front of PYTHON, no body limit short of the largest, forwarding
// everything.
FaultServerOptions streamingOptions(const PythonUpstream& python)
{
    FaultServerOptions options;
    options.upstream.base = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(python.port()));
    options.upstream.maxBodyBytes = UpstreamTarget::kMaxBodyLimit;
    return options;
}

} // namespace

class TestForwardStream : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void largeAnswerStreamed_data();
    void largeAnswerStreamed();
    void slowClientSlowsTheUpstream();
    void clientVanishesMidStream();
    void brokenMidStream_data();
    void brokenMidStream();
};

void TestForwardStream::initTestCase()
{
    for (const QString& tool : { u"curl"_s, u"python3"_s, u"sha256sum"_s }) {
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QFAIL(qPrintable(tool + u" is required (packaging/install-deps.sh)"_s));
    }
}

void TestForwardStream::largeAnswerStreamed_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<qint64>("size");
    QTest::addColumn<bool>("http10");
    QTest::addColumn<QByteArray>("framing"); // what the client sees
    QTest::addRow("Content-Length passed through") << u"/x/bytes/"_s << qint64(128) * 1024 * 1024 << false << "length"_ba;
    QTest::addRow("chunked re-chunked") << u"/x/chunkedbytes/"_s << qint64(32) * 1024 * 1024 << false << "chunked"_ba;
    QTest::addRow("close-delimited re-chunked for HTTP/1.1") << u"/x/closebytes/"_s << qint64(32) * 1024 * 1024 << false
                                                             << "chunked"_ba;
    QTest::addRow("chunked to an HTTP/1.0 client: close-delimited") << u"/x/chunkedbytes/"_s << qint64(32) * 1024 * 1024
                                                                     << true << "close"_ba;
}

void TestForwardStream::largeAnswerStreamed()
{
    QFETCH(QString, path);
    QFETCH(qint64, size);
    QFETCH(bool, http10);
    QFETCH(QByteArray, framing);
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options = streamingOptions(python);
    options.upstream.timeout = std::chrono::minutes(2);
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const PipedCurl a = curlHashed(server.url().toString() + path + QString::number(size),
        http10 ? QStringList { u"--http1.0"_s } : QStringList {});
    QCOMPARE(a.curlExit, 0);
    QCOMPARE(a.status(), 200);
    QCOMPARE(a.header("X-Body-Sha256"), patternSha256(size)); // the upstream's hash of what it sent…
    QCOMPARE(a.sha256, patternSha256(size)); // …is the hash of what the client got
    if (framing == "length")
        QCOMPARE(a.header("Content-Length").toLongLong(), size);
    else
        QVERIFY(a.header("Content-Length").isEmpty());
    QCOMPARE(a.header("Transfer-Encoding"), framing == "chunked" ? "chunked"_ba : QByteArray());
    if (framing == "close")
        QCOMPARE(a.header("Connection"), "close"_ba);

    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"answered"_s);
    QCOMPARE(x.status, 200);
    QCOMPARE(x.responseBodyBytes, size);
    QCOMPARE(x.responseBodyExcerpt.size(), LabExchange::responseExcerptCap);
    QCOMPARE(x.responseBodyExcerpt.at(255), char(255));
    QVERIFY(x.upstreamFirstByteMs && x.upstreamEndMs && x.responseStartedMs && x.responseFinishedMs);
    QVERIFY(*x.upstreamFirstByteMs <= *x.responseStartedMs); // the head went out when the upstream's came
    QVERIFY(x.upstreamError.isEmpty());
    QCOMPARE(server.ledger().exchangesRecorded(), 1);
    QVERIFY2(server.streamPeakBufferedBytes() <= kBound, qPrintable(QString::number(server.streamPeakBufferedBytes())));
}

// A client that does not read: the lab stops reading the upstream (its bytes wait in the kernel), so the lab's
// own buffer stays near the high-water mark instead of taking the whole answer in.
void TestForwardStream::slowClientSlowsTheUpstream()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options = streamingOptions(python);
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    constexpr qint64 size = 128 * 1024 * 1024;
    QTcpSocket client;
    client.setReadBufferSize(64 * 1024);
    client.connectToHost(QHostAddress::LocalHost, server.port());
    QVERIFY(client.waitForConnected(5000));
    client.write("GET /x/bytes/" + QByteArray::number(size) + " HTTP/1.1\r\nHost: lab\r\n\r\n");
    QTest::qWait(1500); // the client reads nothing meanwhile (its 64 KiB buffer fills, then the kernel's)
    QVERIFY2(server.streamPeakBufferedBytes() <= kBound, qPrintable(QString::number(server.streamPeakBufferedBytes())));
    QCOMPARE(finished.size(), 0);
    QByteArray head;
    qint64 body = 0;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto drain = [&] {
        QByteArray bytes = client.readAll();
        if (!head.endsWith("\r\n\r\n")) {
            head += bytes;
            const qsizetype end = head.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            bytes = head.mid(end + 4);
            head.truncate(end + 4);
        }
        body += bytes.size();
        hash.addData(bytes);
    };
    connect(&client, &QIODevice::readyRead, this, drain);
    drain();
    QTRY_VERIFY_WITH_TIMEOUT(body >= size, 120000);
    QCOMPARE(body, size);
    QCOMPARE(hash.result().toHex(), patternSha256(size));
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(finished.first().first().value<LabExchange>().responseBodyBytes, size);
    QVERIFY2(server.streamPeakBufferedBytes() <= kBound, qPrintable(QString::number(server.streamPeakBufferedBytes())));
}

void TestForwardStream::clientVanishesMidStream()
{
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options = streamingOptions(python);
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(client.waitForConnected(5000));
        client.write("GET /x/chunkedbytes/268435456 HTTP/1.1\r\nHost: lab\r\n\r\n");
        qint64 got = 0;
        QVERIFY(QTest::qWaitFor([&] { return (got += client.readAll().size()) > 1024 * 1024; }, 20000));
        client.abort(); // gone, 1 MiB into a 256 MiB answer
    }
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"client-gone"_s);
    QCOMPARE(x.status, 200);
    QVERIFY(x.clientGoneMs);
    QVERIFY2(x.upstreamError.startsWith(u"abandoned: the client left after"_s), qPrintable(x.upstreamError));
    QVERIFY(x.responseBodyBytes > 1024 * 1024 && x.responseBodyBytes < 268435456);
    QCOMPARE(x.responseBodyExcerpt.size(), LabExchange::responseExcerptCap);
    QCOMPARE(x.responseHeaders.isEmpty(), false);
    // The lab stays up and the ledger counts every exchange.
    QCOMPARE(curl({ server.url().toString() + u"/x/echo"_s }).status(), 200);
    QTRY_COMPARE(finished.size(), 2);
    QCOMPARE(server.ledger().exchangesRecorded(), 2);
    QCOMPARE(server.openConnectionCount(), 0);
}

void TestForwardStream::brokenMidStream_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("error");
    QTest::addColumn<int>("curlExit"); // 18: "partial file" (short of the framing); 56: "failure receiving" (RST)
    QTest::addRow("upstream dies mid-body") << u"/x/dies/8388608"_s << "reset"_ba << 18;
    // Past the max body (256 KiB here) once the head went out: the client cannot get the 502 any more.
    QTest::addRow("endless chunked body past the max body") << u"/x/endless"_s << "too_large"_ba << 18;
    // Close-delimited to the upstream, re-chunked to the client: the missing last chunk shows the cut.
    QTest::addRow("trickling body past the upstream timeout") << u"/x/trickle"_s << "timeout"_ba << 18;
}

void TestForwardStream::brokenMidStream()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, error);
    QFETCH(int, curlExit);
    PythonUpstream python;
    QVERIFY(python.start());
    FaultServer server;
    FaultServerOptions options;
    options.upstream.base = QUrl(u"http://127.0.0.1:%1"_s.arg(python.port()));
    options.upstream.maxBodyBytes = 256 * 1024;
    if (error == "reset")
        options.upstream.maxBodyBytes = UpstreamTarget::kMaxBodyLimit;
    options.upstream.timeout = std::chrono::milliseconds(800);
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy events(&server, &FaultServer::labEvent);
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const PipedCurl a = curlHashed(server.url().toString() + path);
    QCOMPARE(a.status(), 200);
    QCOMPARE(a.curlExit, curlExit);
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = finished.first().first().value<LabExchange>();
    QCOMPARE(x.outcome, u"truncated"_s);
    QCOMPARE(x.status, 200);
    QVERIFY2(x.upstreamError.startsWith(QString::fromLatin1(error)), qPrintable(x.upstreamError));
    QVERIFY2(x.note.startsWith(u"cut after "_s), qPrintable(x.note));
    QVERIFY(x.labClosedMs && !x.responseFinishedMs);
    bool reported = false;
    for (const QList<QVariant>& args : std::as_const(events)) {
        const LabEvent e = args.first().value<LabEvent>();
        reported = reported || (e.kind == LabEvent::Kind::UpstreamFailed && e.detail.contains(QString::fromLatin1(error)));
    }
    QVERIFY(reported);
    QCOMPARE(curl({ server.url().toString() + u"/x/echo"_s }).status(), 200); // the lab stays up
    QTRY_COMPARE(server.ledger().exchangesRecorded(), 2);
}

QTEST_GUILESS_MAIN(TestForwardStream)
#include "tst_forwardstream.moc"
