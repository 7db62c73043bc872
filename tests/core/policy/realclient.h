// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a client nobody here wrote (Debian's curl, python3-stripe …) against a fault lab that answers on
// this thread's event loop: the wait never blocks that loop.

#include <QProcess>
#include <QTest>

namespace presettest {

struct ClientRun
{
    bool finished = false; // ended by itself within the time limit
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline ClientRun runClient(const QString& program, const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.start(program, args);
    ClientRun run;
    if (!p.waitForStarted(5000))
        return run;
    if (!QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return run;
    }
    run.finished = true;
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

} // namespace presettest
