// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One logical request as a client made it, seen from outside: its attempts (what was sent, what came back,
// when), and how long the observation lasted after them. The judge needs nothing else.

#include "engine/runrecord.h"

#include <optional>

struct JudgedRun
{
    // The attempts in the order they were sent, on one monotonic axis (the session's). Of each attempt the
    // judge reads the method, URL and request headers, the status, headers and body excerpt or the error,
    // and `at.started` (sent) and `at.finished` (answered, or broken); `decision` is ignored. An attempt
    // without `at.finished` was still open when the observation ended.
    RunRecord record;
    // Until when anything the client sent would have been seen; nullopt: the end of its last attempt.
    std::optional<MonoTime> observedUntil;
    // The client's exit status, when it exited by itself (a client that was stopped has none).
    std::optional<int> exitCode;
};
