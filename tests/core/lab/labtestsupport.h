// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small helpers for fault-lab tests: a raw HTTP/1.1 exchange over a plain QTcpSocket.

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QTest>

struct RawExchange
{
    QByteArray bytes; // everything the server sent
    bool closedByServer = false;
    QAbstractSocket::SocketError error = QAbstractSocket::UnknownSocketError;
    qint64 firstByteMs = -1;
    qint64 elapsedMs = 0;
    bool connected = false;

    int status() const
    {
        if (!bytes.startsWith("HTTP/1.1 "))
            return 0;
        return bytes.mid(9, 3).toInt();
    }
    QByteArray head() const { return bytes.left(bytes.indexOf("\r\n\r\n")); }
    QByteArray body() const
    {
        const qsizetype end = bytes.indexOf("\r\n\r\n");
        return end < 0 ? QByteArray() : bytes.mid(end + 4);
    }
    QByteArray header(const QByteArray& name) const
    {
        const QList<QByteArray> lines = head().split('\n');
        for (const QByteArray& line : lines) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
    // A complete answer by Content-Length.
    bool complete() const
    {
        const qsizetype end = bytes.indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        const QByteArray length = header("Content-Length");
        return !length.isEmpty() && bytes.size() - end - 4 >= length.toLongLong();
    }
};

// Sends REQUEST (in pieces, if CHUNKS > 1) and reads until the server closes or, unless WAITCLOSE, a
// complete answer arrived; gives up after TIMEOUTMS.
inline RawExchange rawExchange(quint16 port, const QByteArray& request, int timeoutMs = 5000, bool waitClose = false,
    const QString& host = QStringLiteral("127.0.0.1"))
{
    RawExchange result;
    QTcpSocket socket;
    QElapsedTimer clock;
    clock.start();
    QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [&] {
        if (result.firstByteMs < 0)
            result.firstByteMs = clock.elapsed();
        result.bytes += socket.readAll();
    });
    QObject::connect(&socket, &QTcpSocket::disconnected, &socket, [&] { result.closedByServer = true; });
    QObject::connect(&socket, &QAbstractSocket::errorOccurred, &socket, [&](QAbstractSocket::SocketError e) {
        result.error = e;
        if (e == QAbstractSocket::RemoteHostClosedError)
            result.closedByServer = true;
    });
    socket.connectToHost(host, port);
    if (!socket.waitForConnected(timeoutMs)) {
        result.elapsedMs = clock.elapsed();
        return result;
    }
    result.connected = true;
    socket.write(request);
    (void)QTest::qWaitFor(
        [&] {
            return result.closedByServer || socket.state() == QAbstractSocket::UnconnectedState
                || (!waitClose && result.complete());
        },
        timeoutMs);
    result.bytes += socket.readAll();
    result.elapsedMs = clock.elapsed();
    QObject::disconnect(&socket, nullptr, nullptr, nullptr); // closing our end below is not the server's doing
    return result;
}

inline QByteArray simpleRequest(const QByteArray& method, const QByteArray& path, const QByteArray& body = {},
    const QList<QPair<QByteArray, QByteArray>>& headers = {}, bool close = true)
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (const auto& [name, value] : headers)
        r += name + ": " + value + "\r\n";
    if (!body.isEmpty() || method == "POST" || method == "PUT")
        r += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (close)
        r += "Connection: close\r\n";
    return r + "\r\n" + body;
}

#include "lab/scenarioloader.h"

// A scenario from inline JSON; fails the test (and returns the default scenario) when it does not load.
inline FaultScenario scenarioFrom(const QByteArray& json)
{
    const ScenarioLoader::Result result = ScenarioLoader::fromJson(json);
    if (!result.ok()) {
        qWarning("%s", qPrintable(result.problemText()));
        return FaultScenario::defaultScenario();
    }
    return *result.scenario;
}

// One route playing STEPSJSON (a JSON list) for any method on /x/**.
inline FaultScenario oneRoute(const QByteArray& stepsJson, const QByteArray& extraRouteJson = {})
{
    return scenarioFrom(R"({"format":1,"name":"t","routes":[{"name":"r","path":"/x/**",)" + extraRouteJson
        + R"("steps":)" + stepsJson + "}]}");
}
