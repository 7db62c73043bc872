// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whether the process that wrote a journal still runs. A pid alone does not say: after kill -9 the pid
// stays "alive" (kill(pid, 0) succeeds) as a zombie until its parent reaps it, and later the number can
// belong to an unrelated process. The journal's header therefore records the recorder's identity — pid,
// the kernel's start time of that process (/proc/PID/stat field 22, clock ticks since boot) and the boot
// id — and a recorder counts as alive only when a running, non-zombie process with that pid has that
// start time in this boot.

#include <QByteArray>
#include <QDateTime>

namespace SessionJournalProcess {

struct Identity
{
    qint64 pid = 0;
    qint64 startTicks = -1; // -1: unknown (a journal written before these fields existed, or no /proc)
    QByteArray bootId; // empty: unknown
};

Identity current();

enum class State { Alive, Gone, Zombie, OtherProcess, OtherBoot };
// What became of the process WHO. STARTED_UTC (the journal's start) is used for journals without a
// start time: a process that started after the journal did cannot have written it.
State state(const Identity& who, const QDateTime& startedUtc);
const char* stateName(State state); // "alive", "gone", "zombie", "pid reused", "rebooted"

}
