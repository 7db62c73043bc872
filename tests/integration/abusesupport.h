// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The pieces of tst_lababuse and tst_proxyabuse: the well-behaved client (a thread with blocking sockets),
// one abusive connection, and for the proxy the Python upstream as a process that counts what it received.

#include <QElapsedTimer>
#include <QProcess>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

namespace Abuse {

// tests/data/upstream/upstream_server.py: prints "PORT n", then "REQ METHOD TARGET" per request received.
class PythonUpstream
{
public:
    bool start()
    {
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process,
            [this] { m_out += m_process.readAllStandardOutput(); });
        m_process.start(QStringLiteral("python3"), { QStringLiteral(RETRYLAB_TEST_DATA "/upstream/upstream_server.py") });
        if (!m_process.waitForStarted(5000))
            return false;
        (void)QTest::qWaitFor([&] { return m_out.contains('\n') || m_process.state() != QProcess::Running; }, 10000);
        m_port = m_out.startsWith("PORT ") ? quint16(m_out.mid(5, m_out.indexOf('\n') - 5).toUInt()) : 0;
        return m_port != 0;
    }
    ~PythonUpstream()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    quint16 port() const { return m_port; }
    // Requests received whose target starts with PREFIX (counted in the raw output: lines from the
    // server's threads may interleave).
    int received(const QByteArray& prefix) const
    {
        return int(m_out.count(QByteArray("REQ GET " + prefix)) + m_out.count(QByteArray("REQ POST " + prefix)));
    }

private:
    QProcess m_process;
    QByteArray m_out;
    quint16 m_port = 0;
};

inline QByteArray get(const QByteArray& target)
{
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
}

// A POST announcing LENGTH bytes and sending BODY (all of it, or the start).
inline QByteArray post(const QByteArray& target, const QByteArray& body, qsizetype length)
{
    return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: "
        + QByteArray::number(length) + "\r\n\r\n" + body;
}

// The well-behaved client: one GET TARGET per connection, its latency recorded under the current phase; an
// answer other than 200 is a failure, and so is one that does not echo TARGET when ECHOES is set (the
// Python upstream's /echo).
struct Prober
{
    quint16 port = 0;
    QByteArray target;
    bool echoes = false;
    std::atomic<bool> stop { false };
    std::atomic<int> phase { 0 };
    std::atomic<int> failures { 0 };
    std::atomic<int> sent { 0 };
    std::mutex mutex;
    QList<double> samples[2]; // ms, per phase: 0 before the abuse, 1 under it
    QByteArray lastFailure;

    void run()
    {
        while (!stop) {
            const int p = phase;
            QElapsedTimer t;
            t.start();
            ++sent;
            const QByteArray answer = exchange(get(target));
            const double ms = double(t.nsecsElapsed()) / 1e6;
            std::lock_guard lock(mutex);
            if (!answer.startsWith("HTTP/1.1 200 ") || (echoes && !answer.contains(QByteArray("\"target\": \"" + target + '"')))) {
                ++failures;
                lastFailure = answer.left(300);
            } else {
                samples[p].append(ms);
            }
            ::usleep(20000);
        }
    }

    QByteArray exchange(const QByteArray& request) const
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        timeval timeout { 10, 0 };
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QByteArray got;
        if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0
            && ::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL) == qint64(request.size())) {
            char buffer[4096];
            qint64 n;
            while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0)
                got.append(buffer, qsizetype(n));
        }
        ::close(fd);
        return got.isEmpty() ? QByteArrayLiteral("no answer") : got;
    }
};

inline double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return -1;
    std::sort(values.begin(), values.end());
    return values.at(std::min(values.size() - 1, qsizetype(p * double(values.size()))));
}

// One abusive connection on the test's event loop: sends REQUEST (if any) once connected, keeps what it
// receives and whether the other side closed it.
struct Raw
{
    std::unique_ptr<QTcpSocket> socket = std::make_unique<QTcpSocket>();
    QByteArray got;
    bool closed = false;
    bool connected = false;

    explicit Raw(quint16 port, const QByteArray& request = {})
    {
        QTcpSocket* s = socket.get();
        QObject::connect(s, &QTcpSocket::connected, s, [this, s, request] {
            connected = true;
            if (!request.isEmpty())
                s->write(request);
        });
        QObject::connect(s, &QTcpSocket::readyRead, s, [this] { got += socket->readAll(); });
        QObject::connect(s, &QTcpSocket::disconnected, s, [this] { closed = true; });
        QObject::connect(s, &QTcpSocket::errorOccurred, s, [this](QAbstractSocket::SocketError) {
            got += socket->readAll();
            closed = true;
        });
        s->connectToHost(QHostAddress::LocalHost, port);
    }
    int status() const { return got.startsWith("HTTP/1.1 ") ? got.mid(9, 3).toInt() : 0; }
    int answers() const { return int(got.count("HTTP/1.1 200 ")); }
    QByteArray header(const QByteArray& name) const
    {
        const qsizetype end = got.indexOf("\r\n\r\n");
        for (const QByteArray& line : got.left(end).split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).compare(name, Qt::CaseInsensitive) == 0)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
    QByteArray body() const
    {
        const qsizetype end = got.indexOf("\r\n\r\n");
        return end < 0 ? QByteArray() : got.mid(end + 4);
    }
};

} // namespace Abuse
