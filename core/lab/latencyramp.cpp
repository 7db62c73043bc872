// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/latencyramp.h"

#include <algorithm>
#include <cmath>

std::chrono::milliseconds LatencyRamp::delayAt(int play, std::chrono::milliseconds sinceFirstPlay) const
{
    double progress = 1.0;
    if (over.count() > 0)
        progress = double(std::max<std::chrono::milliseconds::rep>(0, sinceFirstPlay.count())) / double(over.count());
    else if (overPlays >= 2)
        progress = double(std::max(0, play - 1)) / double(overPlays - 1);
    progress = std::clamp(progress, 0.0, 1.0);
    const double delay = double(from.count()) + double(to.count() - from.count()) * progress;
    return std::chrono::milliseconds(std::llround(delay));
}
