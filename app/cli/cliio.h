// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTextStream>

class QIODevice;

// The streams a subcommand talks through; tests substitute buffers for stdin/stdout/stderr.
struct CliIo
{
    QTextStream& out;
    QTextStream& err;
    QIODevice& in;
};

// Exit statuses shared by every subcommand.
namespace CliExit {
inline constexpr int Ok = 0;
inline constexpr int Failed = 1;
inline constexpr int Usage = 2;
}
