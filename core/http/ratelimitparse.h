// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/ratelimitsnapshot.h"

#include <QList>
#include <QStringList>

#include <optional>

// Everything a response said about rate limits: every quota found in every dialect, the one that constrains
// the client most, and what was ignored or guessed on the way.
struct RateLimitParse
{
    QList<RateLimitSnapshot> snapshots; // in dialect order, then field order
    // Index into `snapshots` of the most restrictive quota (see mostRestrictiveIndex() in ratelimitparser.h);
    // absent when there are no snapshots.
    std::optional<qsizetype> mostRestrictiveIndex;
    // Response-level warnings: malformed fields ignored whole, an Age header, heuristics used. Each snapshot's
    // own warnings are repeated here so a caller can show one list.
    QStringList warnings;
    bool ignoredAsCached = false; // an Age header made every rate-limit field be ignored (draft §7.3)
    // Some reset was a point in time, read against the caller's "now" (kept or not: a snapshot left with
    // nothing known is dropped, its warnings kept). When false, the same fields read the same against any
    // "now", so a caller may reuse this parse for them.
    bool dependsOnNow = false;

    const RateLimitSnapshot* mostRestrictive() const
    {
        return mostRestrictiveIndex ? &snapshots.at(*mostRestrictiveIndex) : nullptr;
    }
    bool isEmpty() const { return snapshots.isEmpty(); }
};
