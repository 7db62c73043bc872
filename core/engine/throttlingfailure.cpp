// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/throttlingfailure.h"

#include "policy/hintreader.h"
#include "policy/rulematcher.h"

#include <algorithm>

namespace {

bool pushbackSaysStop(const DelayHint& hint, const AttemptOutcome& outcome, const QDateTime& now)
{
    if (!hint.negativeMeansStop && !hint.invalidMeansStop)
        return false;
    if (!hintAppliesTo(hint, outcome))
        return false;
    const auto value = readDelayHint(hint, outcome, now);
    if (!value)
        return false;
    if (!value->delay)
        return hint.invalidMeansStop;
    return hint.negativeMeansStop && value->delay->count() < 0;
}

} // namespace

bool takesThrottlingToken(const RetryPolicy& policy, const RequestFacts& request, const AttemptOutcome& outcome,
    const QDateTime& now)
{
    if (const RetryRule* rule = firstMatchingRule(policy, request, outcome); rule && rule->action == RuleAction::Retry)
        return true;
    return std::any_of(policy.hints.begin(), policy.hints.end(),
        [&](const DelayHint& hint) { return pushbackSaysStop(hint, outcome, now); });
}
