// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whether a run recovered from its trigger, and where it collapsed, read from its series (issue 29 §1, §3).
// The trigger is whatever the experiment does to the server or its load: an outage, a capacity cut, a latency
// spike, a load spike. Open loop only: a closed-loop herd ends when its clients are done.

#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <optional>

// When the experiment's trigger ends; nullopt when it has none.
std::optional<Millis> herdTriggerEnd(const HerdExperiment& experiment);
std::optional<Millis> herdTriggerStart(const HerdExperiment& experiment);

// RECOVERED: over the last fifth of the run (after the trigger ended), goodput was at least 80 % of the offered
// load. COLLAPSED_AT: the start of the bucket from which goodput stayed under 20 % of the offered load to the
// end of the run (nullopt when it did not).
void judgeRecovery(const HerdExperiment& experiment, const HerdSeries& series, std::optional<bool>& recovered,
    std::optional<Millis>& collapsedAt);
