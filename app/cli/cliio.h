// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTextStream>

class Clock;
class QIODevice;
class Scheduler;

// The streams a subcommand talks through (tests substitute buffers for stdin/stdout/stderr), and the
// program's clock and scheduler (app/main.cpp builds the real pair; nothing else does).
struct CliIo
{
    QTextStream& out;
    QTextStream& err;
    QIODevice& in;
    const Clock& clock;
    Scheduler& scheduler;
};

// Exit statuses shared by every subcommand.
namespace CliExit {
inline constexpr int Ok = 0;
inline constexpr int Failed = 1;
inline constexpr int Usage = 2;
inline constexpr int Lossy = 3; // policy export/import: the target cannot express all of the policy
}
