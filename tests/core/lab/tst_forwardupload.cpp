// SPDX-License-Identifier: GPL-3.0-or-later
// A `forward` step streams the REQUEST body too (issue 12 §1 "bodies streamed both ways"): curl uploads
// hundreds of MiB through the lab to Python's http.server (tests/core/lab/upload_upstream.py, which reads the
// body as it comes, Content-Length or chunked, and prints what it got). The upstream request starts at the
// client's head, the bytes and their SHA-256 are the same at both ends and in the exchange, the lab holds no
// more than its backpressure bound (UploadStream::kHighWater plus a read slice) however large the body, and
// the 1 MiB body_bytes limit of fault answers does not apply. A client that vanishes mid-body aborts the
// upstream request (the upstream sees a broken request, not a short one), a body that breaks its framing or
// the forwarded limit mid-stream is refused 400/413 with the upstream request aborted, a slow upstream holds
// the client back, a slow client is timed between reads, and fault steps still read the body whole.
#include "lab/faultserver.h"
#include "lab/labconnection.h"
#include "lab/uploadstream.h"

#include "forwardtestsupport.h"
#include "labtestsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>

namespace {

// What the lab may hold for one upload: the high-water mark of bytes waiting for the upstream plus one slice
// read from the client (the socket's read buffer and the parser's piece are bounded by the same slice).
constexpr qint64 kBound = UploadStream::kHighWater + LabConnection::kReadSliceBytes;

// The upload upstream, started per test; collects its BODY/ABORTED/EARLY lines.
class UploadUpstream
{
public:
    bool start()
    {
        m_port = startPythonUpstream(m_process, { QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/core/lab/upload_upstream.py") });
        return m_port != 0;
    }
    ~UploadUpstream()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(m_port)); }
    QList<QByteArray> lines()
    {
        m_out += m_process.readAllStandardOutput();
        QList<QByteArray> all = m_out.split('\n');
        all.removeAll(QByteArray());
        return all;
    }

private:
    QProcess m_process;
    QByteArray m_out;
    quint16 m_port = 0;
};

// A file of SIZE pattern bytes, written a MiB at a time (this process never holds it); its SHA-256 in hex.
QByteArray writeBody(const QString& path, qint64 size)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray block(1024 * 1024, Qt::Uninitialized);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (qint64 offset = 0; offset < size; offset += block.size()) {
        for (qsizetype i = 0; i < block.size(); ++i)
            block[i] = char(((offset + i) * 7 + (offset + i) / 4093) & 0xff);
        const QByteArrayView piece = QByteArrayView(block).first(qsizetype(std::min<qint64>(block.size(), size - offset)));
        file.write(piece.data(), piece.size());
        hash.addData(piece);
    }
    return hash.result().toHex();
}

qint64 peakRssKiB() // VmHWM: the most this process (the lab included) ever had resident
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

CurlAnswer curlUpload(const QStringList& args, int timeoutMs = 120000)
{
    CurlAnswer answer;
    QProcess p;
    p.start(u"curl"_s, QStringList { u"-sS"_s, u"-D"_s, u"-"_s } + args);
    if (!p.waitForStarted(5000) || !waitForExit(p, timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return answer;
    }
    answer.exitCode = p.exitCode();
    QByteArray out = p.readAllStandardOutput();
    while (out.startsWith("HTTP/1.1 1") && out.indexOf("\r\n\r\n") > 0)
        out.remove(0, out.indexOf("\r\n\r\n") + 4);
    const qsizetype end = out.indexOf("\r\n\r\n");
    answer.head = out.left(end);
    answer.body = end < 0 ? QByteArray() : out.mid(end + 4);
    return answer;
}

FaultScenario forwardAll() { return oneRoute(R"([{"kind":"forward","repeat":"forever"}])"); }

FaultServerOptions uploadOptions(const UploadUpstream& upstream)
{
    FaultServerOptions options;
    options.upstream.base = upstream.url();
    options.upstream.timeout = std::chrono::minutes(2);
    return options; // body_bytes stays 1 MiB: a forwarded body is not held, so that limit is not its
}

LabExchange only(const QSignalSpy& finished) { return finished.first().first().value<LabExchange>(); }

} // namespace

class TestForwardUpload : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void largeUploadStreamed_data();
    void largeUploadStreamed();
    void slowUpstreamHoldsTheClientBack();
    void slowClientTimedBetweenReads();
    void clientVanishesMidBody_data();
    void clientVanishesMidBody();
    void bodyBreaksMidStream_data();
    void bodyBreaksMidStream();
    void upstreamAnswersBeforeTheBody();
    void faultStepsReadTheBodyWhole();
};

void TestForwardUpload::initTestCase()
{
    for (const QString& tool : { u"curl"_s, u"python3"_s }) {
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QFAIL(qPrintable(tool + u" is required (packaging/install-deps.sh)"_s));
    }
}

void TestForwardUpload::largeUploadStreamed_data()
{
    QTest::addColumn<qint64>("size");
    QTest::addColumn<bool>("chunked");
    QTest::addColumn<int>("uploads"); // on one connection (curl reuses it for a second URL)
    QTest::addRow("Content-Length, 256 MiB") << qint64(256) * 1024 * 1024 << false << 1;
    QTest::addRow("chunked, 128 MiB") << qint64(128) * 1024 * 1024 << true << 1;
    QTest::addRow("two 32 MiB uploads on one kept connection") << qint64(32) * 1024 * 1024 << false << 2;
}

void TestForwardUpload::largeUploadStreamed()
{
    QFETCH(qint64, size);
    QFETCH(bool, chunked);
    QFETCH(int, uploads);
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"body"_s);
    const QByteArray sha = writeBody(path, size);
    QVERIFY(!sha.isEmpty());
    FaultServer server;
    FaultServerOptions options = uploadOptions(upstream);
    options.keepBodyBytes = 1000;
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const qint64 rssBefore = peakRssKiB();
    QStringList args { u"--data-binary"_s, u"@"_s + path };
    if (chunked)
        args << u"-H"_s << u"Transfer-Encoding: chunked"_s;
    for (int i = 0; i < uploads; ++i)
        args << server.url().toString() + u"/x/echo"_s;
    QElapsedTimer clock;
    clock.start();
    const CurlAnswer a = curlUpload(args);
    const qint64 ms = clock.elapsed();
    qInfo("%lld MiB x %d through the lab in %lld ms: %.0f MiB/s; peak unsent %lld bytes; peak RSS +%lld KiB",
        size >> 20, uploads, ms, double(size * uploads) / 1048576.0 / (double(std::max<qint64>(ms, 1)) / 1000.0),
        server.uploadPeakUnsentBytes(), peakRssKiB() - rssBefore);
    QCOMPARE(a.exitCode, 0);
    QCOMPARE(a.status(), 200);
    // The last answer's JSON (with two uploads curl prints both heads and bodies; the last follows the last head).
    const QJsonObject echo = QJsonDocument::fromJson(a.body.mid(a.body.lastIndexOf("\r\n\r\n") + 1).trimmed()).object();
    const QJsonObject last = echo.isEmpty() ? QJsonDocument::fromJson(a.body).object() : echo;
    QCOMPARE(last.value(u"body_size"_s).toInteger(), size);
    QCOMPARE(last.value(u"body_sha256"_s).toString().toLatin1(), sha);
    QCOMPARE(last.value(u"framing"_s).toString(), chunked ? u"chunked"_s : u"length"_s);
    QVERIFY(last.value(u"expect"_s).isNull()); // the lab answered curl's 100-continue itself
    QTRY_COMPARE(finished.size(), uploads);
    for (int i = 0; i < uploads; ++i) {
        const LabExchange x = finished.at(i).first().value<LabExchange>();
        QCOMPARE(x.outcome, u"answered"_s);
        QCOMPARE(x.status, 200);
        QCOMPARE(x.requestBodySize, size);
        QCOMPARE(x.requestBodySha256, sha);
        QCOMPARE(x.requestBody.size(), 1000);
        QVERIFY(x.requestBodyTruncated);
        QCOMPARE(x.requestOnConnection, i + 1);
        QVERIFY(x.requestCompleteMs && x.upstreamConnectedMs && x.upstreamFirstByteMs);
        // Streamed: the upstream was connected at the head, long before the body was in.
        QVERIFY2(*x.upstreamConnectedMs < *x.requestCompleteMs,
            qPrintable(u"connected %1, body complete %2"_s.arg(*x.upstreamConnectedMs).arg(*x.requestCompleteMs)));
        QVERIFY(x.arrivedMs <= *x.requestCompleteMs && *x.requestCompleteMs <= *x.upstreamFirstByteMs);
    }
    const QList<QByteArray> got = upstream.lines();
    QCOMPARE(got.size(), uploads);
    for (const QByteArray& line : got)
        QCOMPARE(line, QByteArray("BODY " + QByteArray(chunked ? "chunked " : "length ") + QByteArray::number(size) + ' ' + sha));
    QVERIFY2(server.uploadPeakUnsentBytes() <= kBound, qPrintable(QString::number(server.uploadPeakUnsentBytes())));
    // The whole process (lab, test, Qt) grew by far less than the body: it was never held. Under
    // AddressSanitizer (dev-asan) freed blocks wait in its 256 MiB quarantine before their pages are reused,
    // so the bound there is that quarantine on top; the peak of unsent bytes above holds either way.
#if defined(__SANITIZE_ADDRESS__)
    constexpr long kGrowthKiB = (48 + 256 + 32) * 1024;
#else
    constexpr long kGrowthKiB = 48 * 1024;
#endif
    QVERIFY2(peakRssKiB() - rssBefore < kGrowthKiB, qPrintable(QString::number(peakRssKiB() - rssBefore)));
}

// The upstream reads 4 MiB a second: the lab stops reading the client while 256 KiB wait for the upstream, so
// the client's bytes wait in the kernels (and curl) instead of in the lab.
void TestForwardUpload::slowUpstreamHoldsTheClientBack()
{
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    QTemporaryDir dir;
    constexpr qint64 size = 16 * 1024 * 1024;
    const QByteArray sha = writeBody(dir.filePath(u"body"_s), size);
    FaultServer server;
    QVERIFY(server.start(uploadOptions(upstream)));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    QElapsedTimer clock;
    clock.start();
    const CurlAnswer a = curlUpload({ u"--data-binary"_s, u"@"_s + dir.filePath(u"body"_s),
        server.url().toString() + u"/x/slow/"_s + QString::number(4 * 1024 * 1024) });
    QCOMPARE(a.status(), 200);
    QVERIFY2(clock.elapsed() >= 3000, qPrintable(QString::number(clock.elapsed()))); // paced by the upstream
    QCOMPARE(QJsonDocument::fromJson(a.body).object().value(u"body_sha256"_s).toString().toLatin1(), sha);
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(only(finished).requestBodySha256, sha);
    QVERIFY2(server.uploadPeakUnsentBytes() <= kBound, qPrintable(QString::number(server.uploadPeakUnsentBytes())));
    QVERIFY(server.uploadPeakUnsentBytes() > UploadStream::kHighWater / 2); // the upstream was the slow end
}

// A streamed body is timed between two reads, not as a whole: curl sending 8 MiB at 2 MiB/s (4 s) passes a
// 1.5 s request timeout that would cut any collected body after 1.5 s.
void TestForwardUpload::slowClientTimedBetweenReads()
{
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    QTemporaryDir dir;
    constexpr qint64 size = 8 * 1024 * 1024;
    const QByteArray sha = writeBody(dir.filePath(u"body"_s), size);
    FaultServer server;
    FaultServerOptions options = uploadOptions(upstream);
    options.timeouts.request = std::chrono::milliseconds(1500);
    options.timeouts.headers = std::chrono::milliseconds(1500);
    QVERIFY(server.start(options));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    QElapsedTimer clock;
    clock.start();
    const CurlAnswer a = curlUpload({ u"--limit-rate"_s, u"2M"_s, u"--data-binary"_s, u"@"_s + dir.filePath(u"body"_s),
        server.url().toString() + u"/x/echo"_s });
    QCOMPARE(a.status(), 200);
    QVERIFY2(clock.elapsed() >= 3000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(QJsonDocument::fromJson(a.body).object().value(u"body_sha256"_s).toString().toLatin1(), sha);
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(only(finished).outcome, u"answered"_s);
}

void TestForwardUpload::clientVanishesMidBody_data()
{
    QTest::addColumn<bool>("chunked");
    QTest::addRow("Content-Length") << false;
    QTest::addRow("chunked") << true;
}

// The client sends 8 MiB of a 64 MiB body and is gone: the upstream request is reset (the upstream's reader
// fails, it never answers a short body as if whole), the exchange says how far the body came.
void TestForwardUpload::clientVanishesMidBody()
{
    QFETCH(bool, chunked);
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    FaultServer server;
    QVERIFY(server.start(uploadOptions(upstream)));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    constexpr qint64 declared = 64 * 1024 * 1024;
    constexpr qint64 sent = 8 * 1024 * 1024;
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(client.waitForConnected(5000));
        client.write("PUT /x/echo HTTP/1.1\r\nHost: lab\r\n"
            + (chunked ? QByteArray("Transfer-Encoding: chunked\r\n") : "Content-Length: " + QByteArray::number(declared) + "\r\n")
            + "\r\n");
        const QByteArray piece(64 * 1024, 'u');
        for (qint64 done = 0; done < sent; done += piece.size())
            client.write(chunked ? "10000\r\n" + piece + "\r\n" : piece);
        QVERIFY(QTest::qWaitFor([&] { return client.bytesToWrite() == 0; }, 20000));
        QTRY_VERIFY_WITH_TIMEOUT(!upstream.lines().isEmpty() || server.ledger().requestsReceived() == 1, 5000);
        QTest::qWait(200); // the lab relays what it got
        client.abort();
    }
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = only(finished);
    QCOMPARE(x.outcome, u"client-gone"_s);
    QVERIFY(x.clientGoneMs);
    QVERIFY(!x.requestCompleteMs);
    QVERIFY(x.requestBodySize > 0 && x.requestBodySize <= sent);
    const QString progress = chunked ? u"%1 body bytes (chunked)"_s.arg(x.requestBodySize)
                                     : u"%1 of %2 body bytes"_s.arg(x.requestBodySize).arg(declared);
    QCOMPARE(x.upstreamError, u"abandoned: the client left after %1 of its request; the upstream request was aborted"_s.arg(progress));
    QTRY_VERIFY_WITH_TIMEOUT(!upstream.lines().isEmpty(), 5000);
    const QList<QByteArray> got = upstream.lines();
    QCOMPARE(got.size(), 1);
    QVERIFY2(got.first().startsWith(chunked ? "ABORTED chunked" : "ABORTED length"), got.first().constData());
    QVERIFY(got.first().split(' ').at(2).toLongLong() <= x.requestBodySize);
    // The lab stays up.
    QCOMPARE(curl({ u"--data-binary"_s, u"hello"_s, server.url().toString() + u"/x/echo"_s }).status(), 200);
    QTRY_COMPARE(finished.size(), 2);
    QCOMPARE(server.openConnectionCount(), 0);
}

void TestForwardUpload::bodyBreaksMidStream_data()
{
    QTest::addColumn<QByteArray>("limits"); // the scenario's
    QTest::addColumn<QByteArray>("tail"); // after 2 MiB of good chunks
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<qint64>("received"); // de-chunked body bytes the lab took before the break
    constexpr qint64 good = 2 * 1024 * 1024;
    QTest::addRow("malformed chunk size") << "{}"_ba << "zz\r\n"_ba << 400 << u"invalid chunk size"_s << good;
    QTest::addRow("chunk data without its CRLF") << "{}"_ba << "4\r\nabcdXY"_ba << 400 << u"chunk data not followed by CRLF"_s
                                                 << good + 4;
    QTest::addRow("past forward_body_bytes") << R"({"forward_body_bytes": 2097152})"_ba << "10\r\n0123456789abcdef\r\n"_ba
                                             << 413 << u"body larger than 2097152 bytes"_s << good;
}

// A chunked body that breaks after the upstream request started: the lab answers the 4xx itself (nothing was
// answered yet), the upstream request is reset, the exchange is `rejected` and says how far the body came.
void TestForwardUpload::bodyBreaksMidStream()
{
    QFETCH(QByteArray, limits);
    QFETCH(QByteArray, tail);
    QFETCH(int, status);
    QFETCH(QString, reason);
    QFETCH(qint64, received);
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    FaultServer server;
    QVERIFY(server.start(uploadOptions(upstream)));
    const FaultScenario loaded = scenarioFrom(R"({"format":1,"name":"up","limits":)" + limits
        + R"(,"routes":[{"path":"/**","steps":[{"kind":"forward","repeat":"forever"}]}]})");
    QVERIFY(!loaded.routes.isEmpty());
    server.loadScenario(loaded);
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, server.port());
    QVERIFY(client.waitForConnected(5000));
    client.write("POST /x/echo HTTP/1.1\r\nHost: lab\r\nTransfer-Encoding: chunked\r\n\r\n");
    const QByteArray piece(64 * 1024, 'c');
    for (int i = 0; i < 32; ++i)
        client.write("10000\r\n" + piece + "\r\n");
    client.write(tail);
    QByteArray answer;
    QVERIFY(QTest::qWaitFor([&] {
        answer += client.readAll();
        return client.state() != QAbstractSocket::ConnectedState || answer.contains("}");
    }, 20000));
    QVERIFY2(answer.startsWith(QByteArray("HTTP/1.1 " + QByteArray::number(status))), answer.constData());
    QVERIFY2(answer.contains(reason.toLatin1()), answer.constData());
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = only(finished);
    QCOMPARE(x.outcome, u"rejected"_s);
    QCOMPARE(x.status, status);
    QCOMPARE(x.requestBodySize, received);
    QVERIFY2(x.note.startsWith(u"the request body broke after %1 body bytes (chunked): "_s.arg(received) + reason),
        qPrintable(x.note));
    QVERIFY2(x.upstreamError.startsWith(u"request_body: "_s), qPrintable(x.upstreamError));
    QTRY_VERIFY_WITH_TIMEOUT(!upstream.lines().isEmpty(), 5000);
    QVERIFY2(upstream.lines().first().startsWith("ABORTED chunked"), upstream.lines().first().constData());
}

// An upstream that answers before reading the body: its answer reaches the client, the rest of the body is
// read and dropped (no RST that could destroy the answer), and the exchange says so.
void TestForwardUpload::upstreamAnswersBeforeTheBody()
{
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    QTemporaryDir dir;
    const QByteArray sha = writeBody(dir.filePath(u"body"_s), 32 * 1024 * 1024);
    FaultServer server;
    QVERIFY(server.start(uploadOptions(upstream)));
    server.loadScenario(forwardAll());
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const CurlAnswer a = curlUpload({ u"--data-binary"_s, u"@"_s + dir.filePath(u"body"_s), server.url().toString() + u"/x/early"_s });
    QCOMPARE(a.status(), 413);
    QVERIFY(a.body.contains("said before reading"));
    QTRY_COMPARE(finished.size(), 1);
    const LabExchange x = only(finished);
    QCOMPARE(x.outcome, u"answered"_s);
    QCOMPARE(x.status, 413);
    QVERIFY2(x.note.startsWith(u"the answer ended after "_s), qPrintable(x.note));
    QVERIFY(x.requestBodySize < 32 * 1024 * 1024);
    QCOMPARE(server.ledger().exchangesRecorded(), 1);
    QCOMPARE(curl({ u"--data-binary"_s, u"hello"_s, server.url().toString() + u"/x/echo"_s }).status(), 200);
}

// Fault steps decide on the whole request as before: a 512 KiB body answered 503 is read whole (the next
// request, forwarded, streams), and a 2 MiB one for a fault is refused 413 by body_bytes (1 MiB).
void TestForwardUpload::faultStepsReadTheBodyWhole()
{
    UploadUpstream upstream;
    QVERIFY(upstream.start());
    QTemporaryDir dir;
    const QByteArray small = writeBody(dir.filePath(u"small"_s), 512 * 1024);
    const QByteArray big = writeBody(dir.filePath(u"big"_s), 2 * 1024 * 1024);
    FaultServer server;
    QVERIFY(server.start(uploadOptions(upstream)));
    server.loadScenario(oneRoute(R"([{"kind":"respond","status":503,"repeat":1},{"kind":"forward","repeat":1},
                                     {"kind":"respond","status":200,"repeat":"forever"}])"));
    QSignalSpy finished(&server, &FaultServer::exchangeFinished);
    const QString url = server.url().toString() + u"/x/echo"_s;
    QCOMPARE(curlUpload({ u"--data-binary"_s, u"@"_s + dir.filePath(u"small"_s), url }).status(), 503);
    const CurlAnswer forwarded = curlUpload({ u"--data-binary"_s, u"@"_s + dir.filePath(u"big"_s), url });
    QCOMPARE(forwarded.status(), 200);
    QCOMPARE(QJsonDocument::fromJson(forwarded.body).object().value(u"body_sha256"_s).toString().toLatin1(), big);
    QCOMPARE(curlUpload({ u"--data-binary"_s, u"@"_s + dir.filePath(u"big"_s), url }).status(), 413);
    QTRY_COMPARE(finished.size(), 3);
    const LabExchange fault = finished.at(0).first().value<LabExchange>();
    QCOMPARE(fault.stepKind, u"respond"_s);
    QCOMPARE(fault.requestBodySha256, small);
    QVERIFY(fault.upstream.isEmpty());
    const LabExchange streamed = finished.at(1).first().value<LabExchange>();
    QCOMPARE(streamed.stepKind, u"forward"_s);
    QCOMPARE(streamed.requestBodySha256, big);
    QCOMPARE(finished.at(2).first().value<LabExchange>().outcome, u"rejected"_s);
    QCOMPARE(upstream.lines().size(), 1); // only the forward step reached the upstream
}

QTEST_GUILESS_MAIN(TestForwardUpload)
#include "tst_forwardupload.moc"
