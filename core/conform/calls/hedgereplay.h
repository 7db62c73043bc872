// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The policy's own hedging (policy/resilience/hedging.h, the pure state machine, never its rules written
// again) replayed over the requests of each call of a case with many calls. A hedged copy is a request of a
// call that went while an earlier one of the same call had no answer yet (the call header says which call a
// request belongs to; without it, its time does, callplacement.h).
//
//   hedge-early       a copy went before the policy sends it: sooner than its delay after the newest
//                     copy, with no failed answer to send it at once (a copy up to the tolerance's early
//                     slack sooner is the policy's)
//   hedge-beyond-max  a copy beyond the policy's last (1 + max_hedges), or any copy from a policy without
//                     hedging
//
// Each answer is told to the machine as it ended: a failure by the hedging strategy's conditions sends the
// next copy at once, anything else ends the call. A request after the call ended, with nothing of it in
// flight, starts it again (an outer retry, not judged here). Findings of one kind are one finding, with the
// calls it covers.

#include "conform/calls/callplacement.h"
#include "conform/conformancefinding.h"
#include "conform/waittolerance.h"

struct HedgeReplayResult
{
    QList<ConformanceFinding> findings;
    int hedges = 0; // requests that went while an earlier one of their call was in flight
};

HedgeReplayResult replayHedges(const RetryPolicy& policy, const QList<AttemptRecord>& attempts,
    const CallPlacement& placement, const WaitTolerance& tolerance);
