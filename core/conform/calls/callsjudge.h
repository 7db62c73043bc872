// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The judge of a case with many calls (`calls` in a suite case): the requests placed on the plan's calls
// (callplacement.h), then the policy's circuit breaker (breakerreplay.h) and hedging (hedgereplay.h)
// replayed along them. What a retry does inside one call is not judged here: the breaker refuses a retry
// the lab never sees, so its attempts and waits cannot be told from what the lab saw; the one-request cases
// (the standard suite) judge it.

#include "conform/conformancejudge.h"
#include "conform/conformancesuite.h"

RunJudgement judgeCalls(
    const RetryPolicy& policy, const JudgedRun& run, const CallPlan& plan, const JudgeOptions& options);

// The plan CASE is judged by judgeCalls() with: its own calls; or, for a policy that hedges and has no
// retry, its one request as one call (every request a copy of it, none a retry); nullopt: the one-request
// judge (ConformanceJudge).
std::optional<CallPlan> judgedAsCalls(const SuiteCase& suiteCase, const RetryPolicy& policy);
