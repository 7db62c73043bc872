// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a policy's pipeline composes, read once, for everything that runs a policy: the engine (one request on
// the wire) and the herd simulator (a million on virtual time) read it the same way (issue 28 §2, 29 §1).
// The pipeline's timeouts become limits: outside the retry (or the hedging, the strategy that makes several
// attempts) a total timeout is the run's deadline; inside it, or with neither, either one bounds each
// attempt (an attempt timeout outside the retry bounds the whole call). They are then removed from the
// pipeline, so a policy never states a timeout twice.

#include "policy/retrypolicy.h"

struct PipelineShape
{
    RetryPolicy policy; // the timeouts folded into limits and out of the pipeline; hedging alone: one attempt a copy
    int retryIndex = -1; // in policy.pipeline, -1: none
    int hedgingIndex = -1;
    int breakerIndex = -1;
    int limiterIndex = -1; // a rate limiter or a bulkhead
    bool breakerPerAttempt = true; // inside the retry (or no retry): every attempt asks it; outside: the run is one call
    bool breakerInsideRetry = false; // a call it refuses is the retry's to decide on (else the run ends)
    bool breakerPerCopy = false; // the breaker is inside the hedging
    bool limiterPerCopy = false; // the limiter is inside the hedging

    const ResilienceStrategy* breaker() const { return breakerIndex >= 0 ? &policy.pipeline.at(breakerIndex) : nullptr; }
    const ResilienceStrategy* hedging() const { return hedgingIndex >= 0 ? &policy.pipeline.at(hedgingIndex) : nullptr; }
};

PipelineShape readPipeline(const RetryPolicy& policy);
