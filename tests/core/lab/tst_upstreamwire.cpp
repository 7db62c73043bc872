// SPDX-License-Identifier: GPL-3.0-or-later
// The proxy's wire rules, without sockets: what goes upstream (RFC 9110 §7.6.1 hop-by-hop fields, Host,
// the target under the base path, framing) and how an upstream's answer is read (RFC 9112 §6.3).
#include "lab/labrequest.h"
#include "lab/upstreamresponsereader.h"
#include "lab/upstreamtarget.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestUpstreamWire : public QObject
{
    Q_OBJECT
private slots:
    void hopByHopFieldsDropped_data();
    void hopByHopFieldsDropped();
    void requestGoesOnlyToTheUpstream_data();
    void requestGoesOnlyToTheUpstream();
    void targetProblems_data();
    void targetProblems();
    void readsAnswers_data();
    void readsAnswers();
    void reusableOnlyWhenNothingFollows_data();
    void reusableOnlyWhenNothingFollows();
    void tooLargeIsNotGarbage_data();
    void tooLargeIsNotGarbage();
};

void TestUpstreamWire::hopByHopFieldsDropped_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<bool>("kept");
    // RFC 9110 §7.6.1: Connection, the fields it names, and Proxy-Connection, Keep-Alive, TE,
    // Transfer-Encoding, Upgrade are hop-by-hop; end-to-end fields pass.
    QTest::addRow("Connection") << "Connection"_ba << false;
    QTest::addRow("named by Connection") << "X-Drop-Me"_ba << false;
    QTest::addRow("named by Connection, other case") << "x-also-drop"_ba << false;
    QTest::addRow("Proxy-Connection") << "Proxy-Connection"_ba << false;
    QTest::addRow("Keep-Alive") << "keep-alive"_ba << false;
    QTest::addRow("TE") << "TE"_ba << false;
    QTest::addRow("Transfer-Encoding") << "Transfer-Encoding"_ba << false;
    QTest::addRow("Upgrade") << "Upgrade"_ba << false;
    QTest::addRow("Authorization") << "Authorization"_ba << true;
    QTest::addRow("Idempotency-Key") << "Idempotency-Key"_ba << true;
    QTest::addRow("Retry-After") << "Retry-After"_ba << true;
    QTest::addRow("Trailer (end-to-end)") << "Trailer"_ba << true;
}

void TestUpstreamWire::hopByHopFieldsDropped()
{
    QFETCH(QByteArray, name);
    QFETCH(bool, kept);
    const HttpHeaderList headers { { "Connection", "keep-alive, X-Drop-Me" }, { "Connection", "X-Also-Drop" },
        { name, "v" }, { "X-Stay", "s" } };
    const HttpHeaderList out = withoutHopByHop(headers);
    QCOMPARE(hasHeader(out, name), kept);
    QVERIFY(hasHeader(out, "X-Stay"));
    QVERIFY(!hasHeader(out, "Connection"));
}

void TestUpstreamWire::requestGoesOnlyToTheUpstream_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QByteArray>("expectedHead");
    QTest::addRow("origin-form") << u"http://127.0.0.1:8080"_s << "/v1/pay?x=1"_ba
                                 << "GET /v1/pay?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"_ba;
    QTest::addRow("base path prefix") << u"https://api.example.com/base/"_s << "/v1/pay"_ba
                                      << "GET /base/v1/pay HTTP/1.1\r\nHost: api.example.com\r\n"_ba;
    QTest::addRow("absolute-form names another host: ignored") << u"http://127.0.0.1:9"_s
                                                               << "http://evil.example/steal?q=2"_ba
                                                               << "GET /steal?q=2 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n"_ba;
    QTest::addRow("IPv6 upstream") << u"http://[::1]:81"_s << "/"_ba << "GET / HTTP/1.1\r\nHost: [::1]:81\r\n"_ba;
}

void TestUpstreamWire::requestGoesOnlyToTheUpstream()
{
    QFETCH(QString, base);
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, expectedHead);
    UpstreamTarget upstream;
    upstream.base = QUrl(base);
    QVERIFY(upstream.problem().isEmpty());
    LabRequest request;
    request.method = "GET";
    request.target = target;
    request.headers = { { "Host", "127.0.0.1:5555" }, { "Accept", "*/*" }, { "Connection", "keep-alive" } };
    const QByteArray bytes = upstream.requestBytes(request);
    QVERIFY2(bytes.startsWith(expectedHead), bytes.constData());
    QVERIFY(bytes.contains("\r\nAccept: */*\r\n"));
    QVERIFY(bytes.endsWith("\r\nConnection: close\r\n\r\n"));
    QVERIFY(upstream.requestBytes(request, true).endsWith("\r\nConnection: keep-alive\r\n\r\n"));
    QCOMPARE(bytes.count("Host:"), 1);
    QVERIFY(!bytes.contains("Content-Length")); // no body, no framing sent
}

void TestUpstreamWire::targetProblems_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("insecure");
    QTest::addColumn<QString>("problem");
    QTest::addRow("ok http") << u"http://127.0.0.1:1"_s << false << QString();
    QTest::addRow("ftp") << u"ftp://example.org"_s << false << u"http:// or https://"_s;
    QTest::addRow("no scheme") << u"example.org"_s << false << u"http:// or https://"_s;
    QTest::addRow("query") << u"http://example.org/?a=1"_s << false << u"query"_s;
    QTest::addRow("credentials") << u"http://u:p@example.org"_s << false << u"credentials"_s;
    QTest::addRow("insecure on http") << u"http://example.org"_s << true << u"https:// upstream only"_s;
}

void TestUpstreamWire::targetProblems()
{
    QFETCH(QString, url);
    QFETCH(bool, insecure);
    QFETCH(QString, problem);
    UpstreamTarget upstream;
    upstream.base = QUrl(url);
    upstream.insecure = insecure;
    if (problem.isEmpty())
        QCOMPARE(upstream.problem(), QString());
    else
        QVERIFY2(upstream.problem().contains(problem), qPrintable(upstream.problem()));
}

void TestUpstreamWire::readsAnswers_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::addColumn<bool>("eof");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body"); // empty with status 0: garbage expected
    QTest::addRow("content-length") << "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"_ba << false << 200 << "hello"_ba;
    QTest::addRow("chunked with extension and trailer")
        << "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n1\r\n!\r\n0\r\nT: v\r\n\r\n"_ba
        << false << 201 << "hello!"_ba;
    QTest::addRow("until close (HTTP/1.0)") << "HTTP/1.0 200 OK\r\n\r\nall of it"_ba << true << 200 << "all of it"_ba;
    QTest::addRow("interim 100 skipped") << "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"_ba << false
                                         << 204 << QByteArray();
    QTest::addRow("not HTTP") << "SURPRISE this is not HTTP\r\n\r\n"_ba << true << 0 << QByteArray();
    QTest::addRow("cut inside the body") << "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhal"_ba << true << 0 << QByteArray();
    QTest::addRow("two different lengths") << "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"_ba
                                           << false << 0 << QByteArray();
    QTest::addRow("bad chunk size") << "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"_ba << false << 0
                                    << QByteArray();
    QTest::addRow("closed before anything") << QByteArray() << true << 0 << QByteArray();
}

void TestUpstreamWire::readsAnswers()
{
    QFETCH(QByteArray, wire);
    QFETCH(bool, eof);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    // Byte by byte, so no boundary is special.
    UpstreamResponseReader reader;
    UpstreamResponseReader::State state = UpstreamResponseReader::State::NeedMore;
    for (qsizetype i = 0; i < wire.size() && state == UpstreamResponseReader::State::NeedMore; ++i)
        state = reader.feed(wire.mid(i, 1));
    if (eof)
        state = reader.finishAtEof();
    if (status == 0) {
        QCOMPARE(state, UpstreamResponseReader::State::Garbage);
        QVERIFY(!reader.problem().isEmpty());
        return;
    }
    QCOMPARE(state, UpstreamResponseReader::State::Complete);
    QCOMPARE(reader.status(), status);
    QCOMPARE(reader.body(), body);
}

// Whether the proxy may send another request on the connection, the answer read in one piece. Bytes after a
// framed answer are not part of it: reusing that connection would read the next answer from the wrong place
// (found by fuzz_upstreamresponse: after a Content-Length body they were dropped and the connection kept).
void TestUpstreamWire::reusableOnlyWhenNothingFollows_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::addColumn<bool>("reusable");
    QTest::addRow("content-length, nothing after") << "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"_ba << true;
    QTest::addRow("content-length, bytes after") << "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200"_ba << false;
    QTest::addRow("chunked, nothing after") << "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"_ba
                                            << true;
    QTest::addRow("chunked, bytes after") << "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nextra"_ba << false;
    QTest::addRow("Connection: close") << "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"_ba << false;
    QTest::addRow("HTTP/1.0") << "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"_ba << false;
}

void TestUpstreamWire::reusableOnlyWhenNothingFollows()
{
    QFETCH(QByteArray, wire);
    QFETCH(bool, reusable);
    UpstreamResponseReader reader;
    QCOMPARE(reader.feed(wire), UpstreamResponseReader::State::Complete);
    QCOMPARE(reader.connectionReusable(), reusable);
}

// An answer longer than the max body (--upstream-max-body, 8 bytes here) is TooLarge — a well-formed
// answer the lab will not hold, said apart from bytes that are not HTTP — whichever framing says so, and
// however the bytes are cut; one that fits exactly is read whole.
void TestUpstreamWire::tooLargeIsNotGarbage_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::addColumn<bool>("eof");
    QTest::addColumn<bool>("tooLarge");
    QTest::addRow("content-length announces more") << "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n"_ba << false << true;
    QTest::addRow("content-length exactly the max") << "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n12345678"_ba << false << false;
    QTest::addRow("chunks adding up past it")
        << "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n4\r\n6789\r\n"_ba << false << true;
    QTest::addRow("until close, past it") << "HTTP/1.1 200 OK\r\n\r\n123456789"_ba << false << true;
    QTest::addRow("until close, exactly the max") << "HTTP/1.1 200 OK\r\n\r\n12345678"_ba << true << false;
}

void TestUpstreamWire::tooLargeIsNotGarbage()
{
    QFETCH(QByteArray, wire);
    QFETCH(bool, eof);
    QFETCH(bool, tooLarge);
    for (const qsizetype step : { wire.size(), qsizetype(1) }) { // whole, then byte by byte
        UpstreamResponseReader reader(8);
        UpstreamResponseReader::State state = UpstreamResponseReader::State::NeedMore;
        for (qsizetype i = 0; i < wire.size() && state == UpstreamResponseReader::State::NeedMore; i += step)
            state = reader.feed(wire.mid(i, step));
        if (eof && state == UpstreamResponseReader::State::NeedMore)
            state = reader.finishAtEof();
        if (tooLarge) {
            QCOMPARE(state, UpstreamResponseReader::State::TooLarge);
            QVERIFY2(reader.problem().contains(u"8 bytes"_s), qPrintable(reader.problem()));
        } else {
            QCOMPARE(state, UpstreamResponseReader::State::Complete);
            QCOMPARE(reader.body(), "12345678"_ba);
        }
    }
}

QTEST_GUILESS_MAIN(TestUpstreamWire)
#include "tst_upstreamwire.moc"
