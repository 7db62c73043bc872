// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the benchmarks that run servers as child processes share (bench_proxy, bench_proxytls): a free loopback
// port, waiting for a server to listen, the CPU time a process has used, and nginx in one process with a
// throw-away configuration as the peer or the origin.

#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <unistd.h>

namespace BenchProcess {

inline quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    return probe.serverPort();
}

// True once something accepts connections on loopback PORT (up to about 15 s).
inline bool waitForPort(quint16 port)
{
    for (int i = 0; i < 100; ++i) {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, port);
        if (s.waitForConnected(100))
            return true;
        QThread::msleep(50);
    }
    return false;
}

// The CPU time (user + system) process PID has used so far, in microseconds (/proc/PID/stat, clock ticks); -1
// when it cannot be read.
inline double cpuMicros(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    // Fields after the command (which may hold spaces, inside parentheses): state is field 3, utime 14, stime 15.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return -1;
    const double ticks = double(fields.at(11).toLongLong() + fields.at(12).toLongLong());
    return ticks * 1e6 / double(::sysconf(_SC_CLK_TCK));
}

// Debian's nginx (nginx-light is enough), or empty.
inline QString findNginx()
{
    return QStandardPaths::findExecutable(QStringLiteral("nginx"), { QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin") });
}

// An nginx in one process (no master: its CPU time is this process's) serving SERVER_BLOCK, from DIR/NAME.conf;
// HTTP_EXTRA goes in its http block before the server (TLS settings, say).
inline bool startNginx(QProcess& process, const QString& nginx, const QTemporaryDir& dir, const QString& name,
    const QString& serverBlock, const QString& httpExtra = QString())
{
    QFile conf(dir.filePath(name + QStringLiteral(".conf")));
    if (!conf.open(QIODevice::WriteOnly))
        return false;
    conf.write(QStringLiteral("daemon off; master_process off; worker_processes 1; pid %1/%2.pid; error_log stderr error;\n"
                              "events { worker_connections 4096; }\n"
                              "http { access_log off; keepalive_requests 1000000;\n"
                              "  client_body_temp_path %1; proxy_temp_path %1; fastcgi_temp_path %1;\n"
                              "  uwsgi_temp_path %1; scgi_temp_path %1;\n"
                              "  %3\n"
                              "  %4 }\n")
                   .arg(dir.path(), name, httpExtra, serverBlock)
                   .toUtf8());
    conf.close();
    process.start(nginx, { QStringLiteral("-c"), conf.fileName(), QStringLiteral("-p"), dir.path() });
    return process.waitForStarted(5000);
}

} // namespace BenchProcess
