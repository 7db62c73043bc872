// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a fleet measured, in the herd simulator's terms (sim/herdresult.h) so the two sit side by side:
// per-second attempts, goodput and offered load, the totals, and the server as it looked before the outage
// (its latency and the rate it sustained), from which the simulation's server model is fitted.

#include "fleet/fleetattempt.h"
#include "sim/herdresult.h"

#include <QList>

#include <optional>

struct FleetOutage
{
    double fromS = 0; // seconds from the first attempt
    double untilS = 0;
    int status = 0; // the status most failures answered (0: they were errors)
};

struct FleetMeasure
{
    double originS = 0; // wall clock of the first attempt
    HerdTotals totals;
    HerdSeries series; // one-second buckets from the first attempt
    double spanS = 0; // first attempt to last answer
    std::optional<FleetOutage> outage; // the span of failed attempts, when there was one
    // Before the outage (or over the whole run without one): the answers' latency and the attempts a second
    // the server sustained.
    double latencyMeanMs = 0;
    double latencySdMs = 0;
    double rateBefore = 0;
    // How far the waits the policy drew were from the waits taken: the largest |taken − drawn| in ms.
    double worstWaitSlipMs = 0;

    double attemptsPerSecond() const { return spanS > 0 ? totals.attempts / spanS : 0; }
    double goodputPerSecond() const { return spanS > 0 ? totals.succeeded / spanS : 0; }

    static FleetMeasure of(const QList<FleetAttempt>& attempts);
};
