// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How far an observed wait may fall outside the policy's range and still count as the policy's wait: the
// gap the lab measures (its answer written → the next request read) also holds the client's own work, a new
// connection and a loaded machine's scheduling, so it is a little longer than the sleep, rarely shorter.
// The slack on each side is the larger of an absolute amount and a share of the bound it widens.

#include "policy/retrypolicy.h"

#include <QString>

#include <optional>

struct WaitTolerance
{
    Millis early { 250 }; // a wait may be this much shorter than the range's low end
    Millis late { 500 }; // or this much longer than its high end
    double ratio = 0.1; // or this share of the bound, when that is more

    Millis earlySlack(Millis low) const;
    Millis lateSlack(Millis high) const;
    // "−250 ms / +500 ms or 10 %"
    QString describe() const;
    friend bool operator==(const WaitTolerance&, const WaitTolerance&) = default;
};

// "0.25" (both sides), "0.25:1.5" (early:late), in seconds; nullopt (and ERROR) when malformed.
std::optional<WaitTolerance> parseWaitTolerance(const QString& text, WaitTolerance base, QString* error);
