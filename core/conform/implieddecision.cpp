// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/implieddecision.h"

#include "policy/randomsource.h"

namespace {

RetryDecision decideWithDraw(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& state, double u)
{
    FixedRandomSource random({ u });
    return decide(policy, answer, context, state, random);
}

bool stateRemembersDraw(const Backoff& backoff)
{
    return backoff.kind == BackoffKind::Decorrelated || backoff.kind == BackoffKind::DecorrelatedV2;
}

} // namespace

RetryDecision decideAsObserved(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& backoff, std::optional<Millis> observedWait)
{
    BackoffState typical = backoff;
    const RetryDecision middle = decideWithDraw(policy, answer, context, typical, 0.5);
    if (!stateRemembersDraw(policy.backoff) || !observedWait || middle.verdict != Verdict::Retry
        || middle.delayLow == middle.delayHigh) {
        backoff = typical;
        return middle;
    }
    // Every draw gives a delay that grows with it: the smallest draw reaching the observed wait reproduces it
    // (or the range's end nearest to it).
    double low = 0.0;
    double high = 1.0;
    for (int i = 0; i < 40; ++i) {
        const double mid = (low + high) / 2.0;
        BackoffState probe = backoff;
        if (decideWithDraw(policy, answer, context, probe, mid).delay < *observedWait)
            low = mid;
        else
            high = mid;
    }
    return decideWithDraw(policy, answer, context, backoff, high);
}
