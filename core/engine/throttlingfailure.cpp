// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/throttlingfailure.h"

#include "http/retryafter.h"
#include "policy/rulematcher.h"

#include <algorithm>

namespace {

HintValueFormat valueFormat(HintFormat format)
{
    switch (format) {
    case HintFormat::RetryAfter:
        return HintValueFormat::RetryAfter;
    case HintFormat::Milliseconds:
        return HintValueFormat::Milliseconds;
    case HintFormat::Seconds:
        return HintValueFormat::Seconds;
    }
    return HintValueFormat::RetryAfter;
}

bool pushbackSaysStop(const DelayHint& hint, const AttemptOutcome& outcome, const QDateTime& now)
{
    if (!hint.negativeMeansStop && !hint.invalidMeansStop)
        return false;
    if (!hint.statuses.isEmpty()) {
        const int status = outcome.status.value_or(0);
        if (outcome.isError() || !std::any_of(hint.statuses.begin(), hint.statuses.end(),
                [status](const StatusRange& r) { return r.contains(status); }))
            return false;
    }
    const auto value = parseHintHeader(outcome.headers, hint.header.toLatin1(), valueFormat(hint.format), now);
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
