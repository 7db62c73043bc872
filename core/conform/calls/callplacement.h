// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The requests of a case with many calls, placed on the calls of its plan (conformancesuite.h, CallPlan).
// The server never sees a call the client refused by itself, so where the calls were is known from the plan:
// call n is due (n − 1) × interval after call 1. Call 1's time on the lab's axis is the median of what the
// requests say (each call's first request, less its place in the plan): a client's timer is late by a few
// milliseconds, more on a loaded machine, and a call whose first try the client refused and a later try
// went through says nothing about the beat, so no single request sets it.
//
// Requests are placed by the call header (RETRYLAB_CALL_HEADER), the number of their call; a client that
// sends none has each request placed on the nearest call's time, a second one near the same time taken as
// another request of that call.

#include "conform/conformancesuite.h"
#include "engine/attemptrecord.h"

#include <QList>

#include <optional>

struct PlacedCall
{
    int number = 0; // 1 = the first call of the plan
    Millis due { 0 }; // when the plan puts its start, on the lab's axis
    QList<int> requests; // indices into the run's attempts, in arrival order
};

struct CallPlacement
{
    QList<PlacedCall> calls; // the plan's calls due before the observation ended (and any with a request)
    Millis origin { 0 }; // when call 1 was due
    // How far a call's first request may be from its time and still be its start: twice the spread of the
    // requests around the beat (90th percentile), from 10 ms to half the interval.
    Millis slack { 10 };
    bool byHeader = false;
    QList<int> strays; // requests whose call header names no call of the plan
};

// The number of the call ATTEMPT belongs to by its call header; nullopt when it carries none (or no number).
std::optional<int> callNumberOf(const AttemptRecord& attempt);

// ATTEMPTS (in arrival order, at.started set) placed on PLAN; UNTIL: when the observation ended (calls due
// after it, less the slack, were never made: a call due just before a client was stopped may not have gone).
CallPlacement placeCalls(const QList<AttemptRecord>& attempts, const CallPlan& plan, std::optional<Millis> until);
