// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/journal/sessionjournalprocess.h"

#include <QCoreApplication>
#include <QFile>

#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace SessionJournalProcess {

namespace {

QByteArray readProc(const QByteArray& path)
{
    QFile file(QString::fromLatin1(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

struct ProcStat
{
    bool exists = false;
    char state = '?';
    qint64 startTicks = -1;
};

// /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and ')', so fields count from the last ')'.
ProcStat procStat(qint64 pid)
{
    ProcStat out;
    const QByteArray text = readProc("/proc/" + QByteArray::number(pid) + "/stat");
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return out;
    out.exists = true;
    const QList<QByteArray> fields = text.mid(close + 2).split(' '); // fields[0] is field 3 (state)
    if (!fields.isEmpty() && !fields.at(0).isEmpty())
        out.state = fields.at(0).at(0);
    if (fields.size() > 19) { // field 22: starttime
        bool ok = false;
        const qint64 ticks = fields.at(19).toLongLong(&ok);
        if (ok)
            out.startTicks = ticks;
    }
    return out;
}

bool haveProc()
{
    return QFile::exists(QStringLiteral("/proc/self/stat"));
}

QByteArray bootId()
{
    return readProc("/proc/sys/kernel/random/boot_id").trimmed();
}

// The wall-clock time the kernel says process ticks TICKS after boot began; invalid when unknown.
QDateTime wallTimeOfTicks(qint64 ticks)
{
    const QByteArray stat = readProc("/proc/stat");
    const qsizetype at = stat.indexOf("\nbtime ");
    const long hz = ::sysconf(_SC_CLK_TCK);
    if (at < 0 || hz <= 0)
        return {};
    const qint64 boot = stat.mid(at + 7, stat.indexOf('\n', at + 7) - at - 7).toLongLong();
    return QDateTime::fromMSecsSinceEpoch(boot * 1000 + ticks * 1000 / hz, Qt::UTC);
}

} // namespace

Identity current()
{
    Identity who;
    who.pid = QCoreApplication::applicationPid();
    who.startTicks = procStat(who.pid).startTicks;
    who.bootId = bootId();
    return who;
}

State state(const Identity& who, const QDateTime& startedUtc)
{
    if (who.pid <= 0)
        return State::Gone;
    if (!haveProc()) // no /proc: all that can be asked is whether the pid exists
        return ::kill(pid_t(who.pid), 0) == 0 || errno == EPERM ? State::Alive : State::Gone;
    if (!who.bootId.isEmpty() && who.bootId != bootId())
        return State::OtherBoot;
    const ProcStat stat = procStat(who.pid);
    if (!stat.exists)
        return State::Gone;
    if (stat.state == 'Z' || stat.state == 'X' || stat.state == 'x')
        return State::Zombie;
    if (who.startTicks >= 0)
        return stat.startTicks == who.startTicks ? State::Alive : State::OtherProcess;
    // A journal without the start time: the process must have been running when the journal began.
    const QDateTime processStart = wallTimeOfTicks(stat.startTicks);
    if (processStart.isValid() && startedUtc.isValid() && processStart > startedUtc.addSecs(2))
        return State::OtherProcess;
    return State::Alive;
}

const char* stateName(State state)
{
    switch (state) {
    case State::Alive: return "alive";
    case State::Gone: return "gone";
    case State::Zombie: return "zombie";
    case State::OtherProcess: return "pid reused";
    case State::OtherBoot: return "rebooted";
    }
    return "?";
}

} // namespace SessionJournalProcess
