// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What `retrylab fleet --compare-herd --json` printed (its "compare_herd" object, FleetComparison::json), read
// back for the Herd tab: the fleet's measured series and the herd simulator's, a sample a second, their
// totals, and how far apart they are ((simulated − measured) / measured).

#include <QJsonObject>
#include <optional>
#include <QList>
#include <QString>

struct FleetComparisonResult
{
    struct Side
    {
        double attemptsPerS = 0;
        double goodputPerS = 0;
        double amplification = 0;
        QList<double> attemptsSeries; // per second from the start
        QList<double> goodputSeries;
    };
    Side measured;
    Side simulated;
    double attemptsGap = 0, goodputGap = 0, amplificationGap = 0;
    int worstSecond = 0;
    double worstSecondGap = 0; // attempts a second
    QString policy; // the fleet report's policy name, when it has one

    // The whole fleet report or its "compare_herd" object alone. A problem (no comparison: the fleet ran
    // without --compare-herd) is returned in ERROR.
    static std::optional<FleetComparisonResult> fromJson(const QJsonObject& json, QString* error);
    static std::optional<FleetComparisonResult> read(const QString& path, QString* error);
    // One sentence: how far the simulation is from what was measured.
    QString gapText() const;
};
