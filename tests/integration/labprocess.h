// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `retrylab serve` as a separate process for the integration tests: started on a free loopback port with
// a scenario file, its output lines collected, and its resource use read from /proc (peak RSS, open file
// descriptors) — the lab's own figures, not the test's.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTest>

class LabProcess
{
public:
    bool start(const QString& scenarioPath, const QStringList& extra = {})
    {
        m_process.setProgram(QStringLiteral(RETRYLAB_BINARY));
        m_process.setArguments(QStringList { QStringLiteral("serve"), QStringLiteral("--scenario"), scenarioPath } + extra);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process, [this] { collect(); });
        m_process.start();
        if (!m_process.waitForStarted(10000))
            return false;
        QElapsedTimer t;
        t.start();
        while (m_port == 0 && t.elapsed() < 20000 && m_process.state() == QProcess::Running) {
            m_process.waitForReadyRead(200);
            collect();
        }
        return m_port != 0;
    }

    quint16 port() const { return m_port; }
    QString url(const QString& path) const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port) + path; }
    qint64 pid() const { return m_process.processId(); }
    bool running() const { return m_process.state() == QProcess::Running; }
    QProcess& process() { return m_process; }
    const QStringList& lines() const { return m_lines; }
    int countLines(const QString& needle) const
    {
        int n = 0;
        for (const QString& line : m_lines)
            n += line.contains(needle) ? 1 : 0;
        return n;
    }

    int openFds() const { return int(QDir(QStringLiteral("/proc/%1/fd").arg(pid())).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System).size()); }
    // VmHWM (peak) or VmRSS (now) of the lab, in KiB.
    long memoryKb(const char* field) const
    {
        QFile status(QStringLiteral("/proc/%1/status").arg(pid()));
        if (!status.open(QIODevice::ReadOnly))
            return -1;
        for (const QByteArray& line : status.readAll().split('\n')) {
            if (line.startsWith(field))
                return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').value(0).toLong();
        }
        return -1;
    }

    // SIGTERM (serve stops cleanly on it); returns the exit code, -1 for a crash or a hang.
    int stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
            return -1;
        }
        collect();
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }

private:
    void collect()
    {
        m_pending += m_process.readAllStandardOutput();
        qsizetype nl;
        while ((nl = m_pending.indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(m_pending.left(nl));
            m_pending.remove(0, nl + 1);
            m_lines << line;
            if (m_port == 0 && line.startsWith(QStringLiteral("listening on http://")))
                m_port = quint16(line.section(QLatin1Char(':'), -1).toUInt());
        }
    }

    QProcess m_process;
    QByteArray m_pending;
    QStringList m_lines;
    quint16 m_port = 0;
};
