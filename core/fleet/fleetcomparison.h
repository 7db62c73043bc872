// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `retrylab fleet --compare-herd` (issue 32 §3): the herd simulator run with the fleet's policy, clients and
// arrival model against a server model fitted from what the fleet measured before the outage (its latency;
// no concurrency limit unless the fleet saturated it) with the same outage, and the two side by side.

#include "fleet/fleetmeasure.h"
#include "policy/retrypolicy.h"
#include "sim/herdexperiment.h"

#include <QJsonObject>
#include <QString>

struct FleetClients
{
    bool open = false;
    double rate = 0; // open: logical requests a second
    int users = 1;
    Millis think { 0 };
    Millis duration { 10000 };
    QString method = QStringLiteral("GET");
};

struct FleetComparison
{
    HerdExperiment experiment; // what was simulated
    HerdPolicyResult simulated;
    // Measured against simulated, (simulated − measured) / measured: attempts a second, goodput a second,
    // amplification; and the largest gap in any one second of attempts/s.
    double attemptsGap = 0, goodputGap = 0, amplificationGap = 0;
    double worstSecondGap = 0; // attempts a second
    int worstSecond = 0;

    static FleetComparison run(const FleetMeasure& measured, const RetryPolicy& policy, const FleetClients& clients);
    QString table(const FleetMeasure& measured) const; // the terminal's side-by-side summary
    QJsonObject json(const FleetMeasure& measured) const;
};
