// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's limits set by a scenario (resources/docs/scenario-format.md, "limits"; issue 14 §3): each one
// broken is answered with its status — 414, 431, 413, 408 for the head or the body, 503 past the
// connection cap — and reported as a Rejected lab event with the reason; an idle connection is closed
// and reported. Real loopback sockets against an in-process FaultServer.
#include "lab/faultserver.h"
#include "lab/scenarioloader.h"
#include "labtestsupport.h"

#include <QSignalSpy>

using namespace Qt::StringLiterals;

namespace {

FaultScenario scenarioWith(const QByteArray& limits)
{
    // "ANY" stands for the catch-all path: a slash and two stars in a raw string would end moc's scan.
    const ScenarioLoader::Result r = ScenarioLoader::fromJson(
        QByteArray(R"({"format":1,"name":"limits","limits":)" + limits + R"(,"routes":[{"path":"ANY","steps":[{"kind":"respond","body":"ok"}]}]})")
            .replace("ANY", "/" "**"));
    if (!r.ok())
        qFatal("%s", qPrintable(r.problemText()));
    return *r.scenario;
}

QList<LabEvent> rejections(const QSignalSpy& spy)
{
    QList<LabEvent> out;
    for (const QList<QVariant>& args : spy) {
        const LabEvent e = args.at(0).value<LabEvent>();
        if (e.kind == LabEvent::Kind::Rejected)
            out << e;
    }
    return out;
}

} // namespace

class TestLabLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void brokenLimitAnswered_data()
    {
        QTest::addColumn<QByteArray>("limits");
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        const QByteArray get = "GET / HTTP/1.1\r\nHost: h\r\n";
        QTest::addRow("request_line_bytes → 414") << R"({"request_line_bytes":32})"_ba
                                                 << "GET /" + QByteArray(64, 'a') + " HTTP/1.1\r\n\r\n" << 414 << u"request line too long"_s;
        QTest::addRow("header_bytes → 431") << R"({"header_bytes":64})"_ba << get + "X-A: " + QByteArray(100, 'a') + "\r\n\r\n"
                                           << 431 << u"header section too large"_s;
        QByteArray many = get;
        for (int i = 0; i < 5; ++i)
            many += "X-" + QByteArray::number(i) + ": v\r\n";
        QTest::addRow("header_count → 431") << R"({"header_count":3})"_ba << many + "\r\n" << 431 << u"header"_s;
        QTest::addRow("body_bytes → 413 before the body") << R"({"body_bytes":10})"_ba
                                                         << "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1099511627776\r\n\r\n"_ba << 413
                                                         << u"body larger than 10 bytes"_s;
        QTest::addRow("header_timeout_ms → 408") << R"({"header_timeout_ms":300,"request_timeout_ms":5000})"_ba
                                                << "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: "_ba << 408
                                                << u"request head not received within 300 ms (header timeout)"_s;
        QTest::addRow("request_timeout_ms → 408 for the body") << R"({"header_timeout_ms":5000,"request_timeout_ms":300})"_ba
                                                              << "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc"_ba << 408
                                                              << u"request body not received within 300 ms (request timeout)"_s;
    }
    void brokenLimitAnswered()
    {
        QFETCH(QByteArray, limits);
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QString, reason);
        FaultServer server;
        QVERIFY(server.start());
        server.loadScenario(scenarioWith(limits));
        QSignalSpy events(&server, &FaultServer::labEvent);
        const RawExchange answer = rawExchange(server.port(), request, 5000, true);
        QCOMPARE(answer.status(), status);
        QVERIFY2(answer.body().contains(reason.toUtf8()), answer.bytes.constData());
        QVERIFY(answer.closedByServer);
        QTRY_COMPARE(rejections(events).size(), 1);
        QCOMPARE(rejections(events).first().status, status);
        QVERIFY2(rejections(events).first().detail.contains(reason), qPrintable(rejections(events).first().detail));
    }

    // The cap: connections beyond max_connections get 503 with Retry-After at once, then a close.
    void connectionCapAnswers503()
    {
        FaultServer server;
        QVERIFY(server.start());
        server.loadScenario(scenarioWith(R"({"max_connections":2})"));
        QSignalSpy events(&server, &FaultServer::labEvent);
        QTcpSocket a;
        QTcpSocket b;
        a.connectToHost(QHostAddress::LocalHost, server.port());
        b.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(a.waitForConnected(5000) && b.waitForConnected(5000));
        QTRY_COMPARE(server.openConnectionCount(), 2);
        const RawExchange third = rawExchange(server.port(), "GET / HTTP/1.1\r\nHost: h\r\n\r\n", 5000, true);
        QCOMPARE(third.status(), 503);
        QCOMPARE(third.header("Retry-After"), QByteArray("1"));
        QVERIFY(third.closedByServer);
        QTRY_COMPARE(rejections(events).size(), 1);
        QCOMPARE(rejections(events).first().detail, u"connection limit of 2 reached"_s);
        // Below the cap again: served.
        a.abort();
        QTRY_COMPARE(server.openConnectionCount(), 1);
        QCOMPARE(rawExchange(server.port(), "GET / HTTP/1.1\r\nHost: h\r\n\r\n").status(), 200);
    }

    // idle_timeout_ms: a connection that never asks is closed, and the close is on record.
    void idleConnectionClosed()
    {
        FaultServer server;
        QVERIFY(server.start());
        server.loadScenario(scenarioWith(R"({"idle_timeout_ms":200})"));
        QSignalSpy events(&server, &FaultServer::labEvent);
        QTcpSocket idle;
        idle.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(idle.waitForConnected(5000));
        QTRY_COMPARE_WITH_TIMEOUT(idle.state(), QAbstractSocket::UnconnectedState, 5000);
        QCOMPARE(idle.bytesAvailable(), 0); // nothing was asked, nothing is answered
        QTRY_COMPARE(rejections(events).size(), 1);
        QCOMPARE(rejections(events).first().detail, u"idle for 200 ms (idle timeout)"_s);
    }

    // The scenario's limits are validated like any other field.
    void badLimitsRefused_data()
    {
        QTest::addColumn<QByteArray>("limits");
        QTest::addColumn<QString>("path");
        QTest::addRow("unknown limit") << R"({"header_size":1})"_ba << u"$.limits.header_size"_s;
        QTest::addRow("zero connections") << R"({"max_connections":0})"_ba << u"$.limits.max_connections"_s;
        QTest::addRow("a body limit past 1 GiB") << R"({"body_bytes":1e12})"_ba << u"$.limits.body_bytes"_s;
        QTest::addRow("a fraction of a millisecond") << R"({"idle_timeout_ms":1.5})"_ba << u"$.limits.idle_timeout_ms"_s;
        QTest::addRow("not an object") << R"(5)"_ba << u"$.limits"_s;
    }
    void badLimitsRefused()
    {
        QFETCH(QByteArray, limits);
        QFETCH(QString, path);
        const ScenarioLoader::Result r = ScenarioLoader::fromJson(
            R"({"format":1,"name":"n","limits":)" + limits + R"(,"routes":[{"path":"/","steps":[{"kind":"respond"}]}]})");
        QVERIFY(!r.ok());
        QCOMPARE(r.problems.first().path, path);
    }
};

QTEST_GUILESS_MAIN(TestLabLimits)
#include "tst_lablimits.moc"
