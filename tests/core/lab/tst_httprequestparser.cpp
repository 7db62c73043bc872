// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/httprequestparser.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestHttpRequestParser : public QObject
{
    Q_OBJECT
private slots:
    void wellFormed_data();
    void wellFormed();
    void malformed_data();
    void malformed();
    void byteByByte();
    void pipelined();
    void headThenBody_data();
    void headThenBody();
};

void TestHttpRequestParser::wellFormed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("keepAlive");
    QTest::addRow("GET, keep-alive by default") << "GET /a/b?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"_ba << "GET"_ba << u"/a/b"_s << QByteArray() << true;
    QTest::addRow("Connection: close") << "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"_ba << "GET"_ba << u"/"_s << QByteArray() << false;
    QTest::addRow("HTTP/1.0 closes") << "GET / HTTP/1.0\r\n\r\n"_ba << "GET"_ba << u"/"_s << QByteArray() << false;
    QTest::addRow("Content-Length body") << "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"_ba << "POST"_ba << u"/p"_s << "hello"_ba << true;
    QTest::addRow("chunked body with extension and trailer")
        << "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n"_ba
        << "POST"_ba << u"/p"_s << "abcde"_ba << true;
    QTest::addRow("percent-decoded path") << "GET /a%20b HTTP/1.1\r\n\r\n"_ba << "GET"_ba << u"/a b"_s << QByteArray() << true;
    QTest::addRow("bare LF line ends") << "GET /lf HTTP/1.1\nHost: h\n\n"_ba << "GET"_ba << u"/lf"_s << QByteArray() << true;
}

void TestHttpRequestParser::wellFormed()
{
    QFETCH(QByteArray, bytes);
    HttpRequestParser parser;
    QByteArray buffer = bytes;
    QCOMPARE(parser.feed(buffer), HttpRequestParser::State::Complete);
    const LabRequest request = parser.takeRequest();
    QTEST(request.method, "method");
    QTEST(request.path, "path");
    QTEST(request.body, "body");
    QTEST(request.keepAlive, "keepAlive");
    QVERIFY(buffer.isEmpty());
}

void TestHttpRequestParser::malformed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("status");
    QTest::addRow("two-part request line") << "GET /\r\n\r\n"_ba << 400;
    QTest::addRow("bad version") << "GET / HTTX/1.1\r\n\r\n"_ba << 400;
    QTest::addRow("HTTP/2.0 over 1.1 syntax") << "GET / HTTP/2.0\r\n\r\n"_ba << 505;
    QTest::addRow("NUL in header value") << QByteArray("GET / HTTP/1.1\r\nX: a\0b\r\n\r\n", 26) << 400;
    QTest::addRow("NUL in request target") << QByteArray("GET /a\0 HTTP/1.1\r\n\r\n", 20) << 400;
    QTest::addRow("space before colon") << "GET / HTTP/1.1\r\nX : a\r\n\r\n"_ba << 400;
    QTest::addRow("obsolete folding") << "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n"_ba << 400;
    QTest::addRow("CL and TE together") << "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"_ba << 400;
    QTest::addRow("conflicting Content-Length") << "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"_ba << 400;
    QTest::addRow("negative Content-Length") << "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"_ba << 400;
    QTest::addRow("bad chunk size") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"_ba << 400;
    QTest::addRow("huge chunk size") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffff\r\n"_ba << 400;
    QTest::addRow("chunk not followed by CRLF") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY"_ba << 400;
    QTest::addRow("unknown transfer coding") << "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"_ba << 501;
    QTest::addRow("body too large") << "POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"_ba << 413;
    QTest::addRow("request line too long") << ("GET /" + QByteArray(9000, 'a') + " HTTP/1.1\r\n\r\n") << 414;
    QTest::addRow("header section too large") << ("GET / HTTP/1.1\r\nX: " + QByteArray(40000, 'a') + "\r\n\r\n") << 431;
}

void TestHttpRequestParser::malformed()
{
    QFETCH(QByteArray, bytes);
    HttpRequestParser parser;
    QByteArray buffer = bytes;
    QCOMPARE(parser.feed(buffer), HttpRequestParser::State::Failed);
    QTEST(parser.errorStatus(), "status");
    QVERIFY(!parser.errorReason().isEmpty());
}

void TestHttpRequestParser::byteByByte()
{
    const QByteArray bytes = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"_ba;
    HttpRequestParser parser;
    QByteArray buffer;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        buffer += bytes.at(i);
        const auto state = parser.feed(buffer);
        QCOMPARE(state, i + 1 == bytes.size() ? HttpRequestParser::State::Complete : HttpRequestParser::State::NeedMore);
    }
    QCOMPARE(parser.takeRequest().body, "abc"_ba);
}

void TestHttpRequestParser::pipelined()
{
    QByteArray buffer = "GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n"_ba;
    HttpRequestParser parser;
    QCOMPARE(parser.feed(buffer), HttpRequestParser::State::Complete);
    QCOMPARE(parser.takeRequest().path, u"/1"_s);
    QCOMPARE(parser.feed(buffer), HttpRequestParser::State::Complete);
    QCOMPARE(parser.takeRequest().path, u"/2"_s);
}

// With setPauseAtHead the parser stops once after the head of a request with a body (HeadComplete); the caller
// then collects the body (feed on) or streams it (streamBody(): the de-chunked bytes come out of takeBodyChunk()
// as they are parsed, up to maxStreamedBodyBytes, and the request's own body stays empty). Each row is fed in
// pieces of PIECE bytes; the streamed chunks must concatenate to the collected body.
void TestHttpRequestParser::headThenBody_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("stream"); // at HeadComplete: stream (else collect)
    QTest::addColumn<int>("piece"); // bytes fed at a time (0: all at once)
    QTest::addColumn<QByteArray>("body"); // the body the caller ends up with (streamed or collected)
    QTest::addColumn<int>("status"); // 0: completes; else the failure's status
    QTest::addColumn<bool>("pauses"); // HeadComplete was seen
    const QByteArray chunked = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n"_ba;
    const QByteArray length = "PUT /p HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world"_ba;
    QTest::addRow("RFC 9112 §6.2: Content-Length, streamed at once") << length << true << 0 << "hello world"_ba << 0 << true;
    QTest::addRow("Content-Length, streamed byte by byte") << length << true << 1 << "hello world"_ba << 0 << true;
    QTest::addRow("Content-Length, collected after the pause") << length << false << 3 << "hello world"_ba << 0 << true;
    QTest::addRow("RFC 9112 §7.1: chunked with extension and trailer, streamed") << chunked << true << 0 << "abcde"_ba << 0 << true;
    QTest::addRow("chunked, streamed byte by byte") << chunked << true << 1 << "abcde"_ba << 0 << true;
    QTest::addRow("chunked, collected in 5-byte pieces") << chunked << false << 5 << "abcde"_ba << 0 << true;
    QTest::addRow("no body: no pause") << "GET / HTTP/1.1\r\n\r\n"_ba << true << 0 << QByteArray() << 0 << false;
    QTest::addRow("Content-Length 0: no pause") << "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"_ba << true << 0 << QByteArray() << 0 << false;
    // body_bytes (1 MiB by default) is for collected bodies; a streamed one is never held.
    QTest::addRow("2 MiB declared: collected, 413 at the head") << "POST / HTTP/1.1\r\nContent-Length: 2097152\r\n\r\n"_ba
                                                              << false << 0 << QByteArray() << 413 << true;
    QTest::addRow("2 MiB declared: streamed, no limit")
        << "POST / HTTP/1.1\r\nContent-Length: 2097152\r\n\r\n"_ba + QByteArray(2097152, 'z') << true << 65536
        << QByteArray(2097152, 'z') << 0 << true;
    QTest::addRow("streamed past maxStreamedBodyBytes (16): 413") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                                     "a\r\n0123456789\r\na\r\n0123456789\r\n0\r\n\r\n"_ba
                                                                  << true << 1 << "0123456789"_ba << 413 << true;
    QTest::addRow("malformed chunk mid-stream: 400 after the good bytes")
        << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\nzz\r\n"_ba << true << 0 << "ok"_ba << 400 << true;
}

void TestHttpRequestParser::headThenBody()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, stream);
    QFETCH(int, piece);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(bool, pauses);
    HttpParserLimits limits;
    if (QByteArrayView(QTest::currentDataTag()).contains("maxStreamedBodyBytes"))
        limits.maxStreamedBodyBytes = 16;
    HttpRequestParser parser(limits);
    parser.setPauseAtHead(true);
    QByteArray buffer;
    QByteArray streamed;
    bool paused = false;
    HttpRequestParser::State state = HttpRequestParser::State::NeedMore;
    const qsizetype step = piece > 0 ? piece : bytes.size();
    for (qsizetype at = 0; at < bytes.size() && state != HttpRequestParser::State::Failed && state != HttpRequestParser::State::Complete;) {
        buffer += bytes.mid(at, step);
        at += step;
        for (;;) {
            state = parser.feed(buffer);
            streamed += parser.takeBodyChunk();
            if (state != HttpRequestParser::State::HeadComplete)
                break;
            QVERIFY(!paused); // once per request
            paused = true;
            QCOMPARE(parser.partial().method.isEmpty(), false);
            QCOMPARE(parser.bodyBytesRead(), 0); // nothing of the body taken yet
            if (stream)
                parser.streamBody();
        }
    }
    QCOMPARE(paused, pauses);
    if (status != 0) {
        QCOMPARE(state, HttpRequestParser::State::Failed);
        QCOMPARE(parser.errorStatus(), status);
        QCOMPARE(streamed, body);
        return;
    }
    QCOMPARE(state, HttpRequestParser::State::Complete);
    QCOMPARE(parser.bodyBytesRead(), body.size());
    const LabRequest request = parser.takeRequest();
    QCOMPARE(stream && pauses ? streamed : request.body, body);
    if (stream && pauses)
        QVERIFY(request.body.isEmpty());
    QVERIFY(buffer.isEmpty());
    // The same bytes, parsed the old way (no pause), make the same body.
    HttpRequestParser whole;
    QByteArray all = bytes;
    if (status == 0 && body.size() <= HttpParserLimits {}.maxBodyBytes) {
        QCOMPARE(whole.feed(all), HttpRequestParser::State::Complete);
        QCOMPARE(whole.takeRequest().body, body);
    }
}

QTEST_GUILESS_MAIN(TestHttpRequestParser)
#include "tst_httprequestparser.moc"
