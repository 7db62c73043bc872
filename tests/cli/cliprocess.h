// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the CLI tests that run the real binary (RETRYLAB_BINARY) and real third-party servers.

#include <QProcess>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>

namespace CliProcess {

struct Result
{
    int exit = -1; // -1: it crashed or did not finish in time (and was killed)
    QByteArray out;
    QByteArray err;
};

#ifdef RETRYLAB_BINARY
// Runs `retrylab ARGS…` to its end.
inline Result retrylab(const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY), args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return r;
    }
    r.exit = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
#endif

// Python's own `python3 -m http.server` serving DIRECTORY on a free loopback port, for as long as it lives:
// a real upstream nobody here wrote.
class PythonHttpServer
{
public:
    explicit PythonHttpServer(const QString& directory)
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(QStringLiteral("python3"), { QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"),
                                                       QStringLiteral("0"), QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                                                       QStringLiteral("--directory"), directory });
        if (!m_process.waitForStarted(5000))
            return;
        // "Serving HTTP on 127.0.0.1 port 43251 (http://127.0.0.1:43251/) ..."
        QTRY_VERIFY_WITH_TIMEOUT(m_process.canReadLine(), 10000);
        const QRegularExpressionMatch m
            = QRegularExpression(QStringLiteral("port (\\d+)")).match(QString::fromUtf8(m_process.readLine()));
        if (m.hasMatch())
            m_port = m.captured(1);
    }
    ~PythonHttpServer()
    {
        m_process.kill();
        m_process.waitForFinished(3000);
    }

    bool isRunning() const { return !m_port.isEmpty(); }
    QString url() const { return QStringLiteral("http://127.0.0.1:") + m_port; }

private:
    QProcess m_process;
    QString m_port;
};

} // namespace CliProcess
