// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The third-party ends of the proxy tests: Python's http.server as the upstream
// (tests/data/upstream/upstream_server.py) and curl as the client.

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals; // test code only

// Starts `python3 ARGS` (a test upstream that prints "PORT n" once it listens) in PROCESS; its port, 0 when it
// did not start or said nothing.
inline quint16 startPythonUpstream(QProcess& process, const QStringList& args)
{
    process.start(u"python3"_s, args);
    if (!process.waitForStarted(5000))
        return 0;
    (void)QTest::qWaitFor([&] { return process.canReadLine() || process.state() != QProcess::Running; }, 10000);
    const QByteArray line = process.readLine().trimmed();
    return line.startsWith("PORT ") ? quint16(line.mid(5).toUInt()) : 0;
}

// The Python upstream, started per test; counts the requests it received (one "REQ" line each).
class PythonUpstream
{
public:
    bool start(bool tls = false)
    {
        QStringList args { QStringLiteral(RETRYLAB_TEST_DATA "/upstream/upstream_server.py") };
        if (tls) {
            args << u"--tls"_s << QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-cert.pem")
                 << QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-key.pem");
        }
        m_port = startPythonUpstream(m_process, args);
        return m_port != 0;
    }
    ~PythonUpstream()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
    quint16 port() const { return m_port; }
    int requestsReceived()
    {
        m_out += m_process.readAllStandardOutput();
        return int(m_out.count("REQ "));
    }

private:
    QProcess m_process;
    QByteArray m_out;
    quint16 m_port = 0;
};

// Runs the event loop (the lab in this process) until P exits: a signal wait, not qWaitFor's polling, whose
// 10 ms sleeps would starve the lab of its turns while the client streams.
inline bool waitForExit(QProcess& p, int timeoutMs)
{
    if (p.state() == QProcess::NotRunning)
        return true;
    QSignalSpy exited(&p, &QProcess::finished);
    return exited.wait(timeoutMs) || p.state() == QProcess::NotRunning;
}

struct CurlAnswer
{
    int exitCode = -1;
    QByteArray head;
    QByteArray body;
    QByteArray header(const QByteArray& name) const
    {
        for (const QByteArray& line : head.split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).compare(name, Qt::CaseInsensitive) == 0)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
    int status() const { return head.startsWith("HTTP/1.1 ") ? head.mid(9, 3).toInt() : 0; }
};

// curl as the client, the event loop (and so the lab) running meanwhile.
inline CurlAnswer curl(const QStringList& args)
{
    CurlAnswer answer;
    QProcess p;
    p.start(u"curl"_s, QStringList { u"-sS"_s, u"-D"_s, u"-"_s } + args);
    if (!p.waitForStarted(5000) || !waitForExit(p, 20000)) {
        p.kill();
        p.waitForFinished(2000);
        return answer;
    }
    answer.exitCode = p.exitCode();
    QByteArray out = p.readAllStandardOutput();
    while (out.startsWith("HTTP/1.1 1") && out.indexOf("\r\n\r\n") > 0) // interim answers (100 Continue)
        out.remove(0, out.indexOf("\r\n\r\n") + 4);
    const qsizetype end = out.indexOf("\r\n\r\n");
    answer.head = out.left(end);
    answer.body = end < 0 ? QByteArray() : out.mid(end + 4);
    return answer;
}

