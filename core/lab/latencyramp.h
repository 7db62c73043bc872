// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

// A step's delay that moves in a straight line from `from` to `to` and then stays at `to` (a falling ramp,
// `to` below `from`, is a recovery). The line runs either over a span of time counted from the step's
// first play (`over` > 0), or over a number of its plays (`overPlays` >= 2: the first play waits `from`, the
// overPlays-th and every later one `to`). Scenario key "latency_ramp" (resources/docs/scenario-format.md).
struct LatencyRamp
{
    std::chrono::milliseconds from { 0 };
    std::chrono::milliseconds to { 0 };
    std::chrono::milliseconds over { 0 };
    int overPlays = 0;

    // The delay of the step's PLAY-th play (from 1), SINCEFIRSTPLAY after its first: rounded to the
    // nearest millisecond, never outside [from, to].
    std::chrono::milliseconds delayAt(int play, std::chrono::milliseconds sinceFirstPlay) const;

    bool operator==(const LatencyRamp&) const = default;
};
