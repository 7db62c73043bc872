// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The policy's own circuit breaker (policy/resilience/circuitbreaker.h: the pure state machine the engine
// and the herd simulator are built on, never its rules written again) replayed along the calls a client made, at the lab's
// times: each request that reached the lab asks it for admission when it arrived and tells it its result
// (a failure as the breaker strategy's `failures` say) when its answer ended; each call of the plan that
// reached the lab at no request by its time (the client refused it, or held it) asks too, at the time the
// plan gives it. Where the two differ:
//
//   breaker-opened-late      a request the policy refuses, before the client had kept any call to itself
//                            since the policy opened: its breaker opened later (or not at all)
//   breaker-sent-while-open  a request the policy refuses after the client had refused calls: it probed or
//                            closed before the policy's break ended
//   breaker-too-many-probes  a request while the policy is half-open with every probe out
//   breaker-opened-early     a call kept while the policy is closed (the window's counts are the evidence)
//   breaker-too-few-probes   a call kept where the policy sends a probe (its break is over)
//
// Moments decided by the client's own clock are given room, and only there: a request may arrive up to the
// placement's slack after the answer that opened the policy's breaker (the client had not heard it yet),
// and a break may end up to the tolerance's early slack sooner or late slack later than the policy's
// (measured from when the client heard the failure, on its timer); a kept call whose time is within the
// slack of the policy's closing or opening is not judged, nor one whose request came later where the
// policy would have sent it (a timer that fired late). Findings of one kind in one state of the breaker
// are one finding, with the calls it covers. Where the breaker sits: inside the retry (or with no retry),
// every request passes it; outside the retry, every call does (admitted at its first request, its result
// the last one's).

#include "conform/calls/callplacement.h"
#include "conform/conformancefinding.h"
#include "conform/waittolerance.h"
#include "policy/resilience/circuitbreaker.h"

struct BreakerReplayResult
{
    QList<ConformanceFinding> findings; // in time order of their first call
    QList<CircuitBreaker::Change> changes; // the policy's breaker along the calls
    int failures = 0; // requests (or calls) its strategy counts as failures
    int kept = 0; // calls that reached the lab at no request
    int late = 0; // calls whose first request came after their time (and its slack)
    bool hasBreaker = false;
};

BreakerReplayResult replayBreaker(const RetryPolicy& policy, const QList<AttemptRecord>& attempts,
    const CallPlacement& placement, const WaitTolerance& tolerance);

// Whether ATTEMPT is a failure by STRATEGY's `failures` conditions (and its slow-call limit) under POLICY.
bool strategyFailure(const ResilienceStrategy& strategy, const RetryPolicy& policy, const AttemptRecord& attempt);
