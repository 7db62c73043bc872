// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The decision function: given what an attempt ended with, say retry-after-d, stop or success, and why.
// Pure: everything it needs comes in as arguments; the only mutation is the backoff state it is handed.

#include "policy/attemptoutcome.h"
#include "policy/retrydecision.h"
#include "policy/retrypolicy.h"

#include <QDateTime>

#include <optional>

struct BackoffState;
class RandomSource;

// Read-only view of the shared budgets at decision time (the engine owns the real state: retrybudget.h).
struct BudgetView
{
    std::optional<int> quotaTokens; // retry-quota tokens available now (when the policy has a quota)
    std::optional<double> throttlingTokens; // gRPC retry-throttling tokens now
    std::optional<Millis> hostResetIn; // the per-host throttle's reported reset, from now
};

struct DecisionContext
{
    int attempt = 1; // the attempt that just ended, 1 = the first
    Millis elapsed { 0 }; // since the logical request started, up to the end of this attempt
    QDateTime now; // wall clock, for HTTP-date Retry-After values (UTC)
    BudgetView budget; // the shared budgets before this outcome is accounted
    bool followRedirects = false; // the request follows 3xx answers (as new attempts)
    int redirectsFollowed = 0; // by this logical request so far
    int maxRedirects = 10;
    // false: the decision's reason is left empty and never formatted (the herd simulator decides millions
    // of times and shows none of them); everything else is the same.
    bool explain = true;
};

struct AnswerFacts;

// Every verdict about an attempt: success, stop or retry after d — the deadline that ended it, a redirect
// followed, the retry quota and throttling included — with its reason and the effects the caller applies
// to the shared budgets (RetryDecision::effects). The engine applies and schedules; it decides nothing.
RetryDecision decide(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& backoff, RandomSource& random);
// The same, reading OUTCOME first (readAnswer, answerfacts.h).
RetryDecision decide(const RetryPolicy& policy, const RequestFacts& request, const AttemptOutcome& outcome,
    const DecisionContext& context, BackoffState& backoff, RandomSource& random);

// The retry-quota cost a retry after this outcome takes (0 when the policy has no quota).
int retryQuotaCost(const RetryPolicy& policy, const AttemptOutcome& outcome, bool throttling);
