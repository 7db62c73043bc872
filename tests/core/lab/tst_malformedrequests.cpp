// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile and broken clients: no crash, no hang, no leaked connection.
#include "lab/faultserver.h"

#include "labtestsupport.h"

#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

class TestMalformedRequests : public QObject
{
    Q_OBJECT
private slots:
    void answeredAndClosed_data();
    void answeredAndClosed();
    void truncatedRequestThenClientCloses();
    void slowlorisIsCutOff();
    void serverStillServesAfterAbuse();
};

void TestMalformedRequests::answeredAndClosed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("status");
    QTest::addRow("not HTTP") << "\x16\x03\x01\x02\x00 hello\r\n\r\n"_ba << 400;
    QTest::addRow("NUL bytes in a header") << QByteArray("GET / HTTP/1.1\r\nX: \0\0\r\n\r\n", 24) << 400;
    QTest::addRow("huge header section") << ("GET / HTTP/1.1\r\nX: " + QByteArray(100000, 'a') + "\r\n\r\n") << 431;
    QTest::addRow("too many headers") << ("GET / HTTP/1.1\r\n" + QByteArray("A: b\r\n").repeated(150) + "\r\n") << 431;
    QTest::addRow("huge request line") << ("GET /" + QByteArray(20000, 'a') + " HTTP/1.1\r\n\r\n") << 414;
    QTest::addRow("bad chunk size") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n"_ba << 400;
    QTest::addRow("chunk size overflow") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n"_ba << 400;
    QTest::addRow("declared body too large") << "POST / HTTP/1.1\r\nContent-Length: 10000000000\r\n\r\n"_ba << 413;
    QTest::addRow("Content-Length over 15 digits") << "POST / HTTP/1.1\r\nContent-Length: 10000000000000000000\r\n\r\n"_ba << 400;
    QTest::addRow("body over the limit") << "POST / HTTP/1.1\r\nContent-Length: 5000000\r\n\r\n"_ba << 413;
    QTest::addRow("smuggling: CL + TE") << "POST / HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"_ba << 400;
}

void TestMalformedRequests::answeredAndClosed()
{
    QFETCH(QByteArray, bytes);
    FaultServer server;
    QVERIFY(server.start());
    const RawExchange r = rawExchange(server.port(), bytes, 5000, true);
    QTEST(r.status(), "status");
    QCOMPARE(r.header("Connection"), "close"_ba);
    QVERIFY(r.closedByServer);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
    QCOMPARE(server.ledger().requestsReceived(), 0);
}

void TestMalformedRequests::truncatedRequestThenClientCloses()
{
    FaultServer server;
    QVERIFY(server.start());
    for (const QByteArray& partial : { "GET / HT"_ba, "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"_ba,
             "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"_ba }) {
        QTcpSocket socket;
        socket.connectToHost(u"127.0.0.1"_s, server.port());
        QVERIFY(socket.waitForConnected(3000));
        socket.write(partial);
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 1, 3000);
        socket.abort();
    }
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
}

void TestMalformedRequests::slowlorisIsCutOff()
{
    FaultServer server;
    FaultServerOptions options;
    options.timeouts.request = milliseconds(800);
    QVERIFY(server.start(options));
    QTcpSocket socket;
    QByteArray got;
    connect(&socket, &QTcpSocket::readyRead, &socket, [&] { got += socket.readAll(); });
    socket.connectToHost(u"127.0.0.1"_s, server.port());
    QVERIFY(socket.waitForConnected(3000));
    QTimer trickle;
    const QByteArray request = "GET / HTTP/1.1\r\nX-Slow: " + QByteArray(200, 'a');
    qsizetype sent = 0;
    connect(&trickle, &QTimer::timeout, &socket, [&] {
        if (sent < request.size() && socket.state() == QAbstractSocket::ConnectedState)
            socket.write(request.mid(sent++, 1));
    });
    trickle.start(50);
    QTRY_COMPARE_WITH_TIMEOUT(socket.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY(got.startsWith("HTTP/1.1 408"));
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
}

void TestMalformedRequests::serverStillServesAfterAbuse()
{
    FaultServer server;
    QVERIFY(server.start());
    for (int i = 0; i < 20; ++i)
        rawExchange(server.port(), QByteArray(64, char(i)) + "\r\n\r\n", 2000, true);
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/ok")).status(), 200);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, 5000);
}

QTEST_GUILESS_MAIN(TestMalformedRequests)
#include "tst_malformedrequests.moc"
