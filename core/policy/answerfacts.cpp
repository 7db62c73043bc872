// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/answerfacts.h"

#include "policy/hintreader.h"
#include "policy/rulematcher.h"

#include <algorithm>

AnswerFacts readAnswer(const RetryPolicy& policy, const RequestFacts& request, AttemptOutcome outcome, const QDateTime& now)
{
    AnswerFacts facts;
    facts.outcome = std::move(outcome);
    facts.request = request;
    if (const RetryRule* rule = firstMatchingRule(policy, request, facts.outcome))
        facts.ruleIndex = rule - policy.rules.constData();
    facts.hints.reserve(policy.hints.size());
    for (const DelayHint& hint : policy.hints) {
        HintReading reading;
        reading.applies = hintAppliesTo(hint, facts.outcome);
        if (reading.applies)
            reading.value = readDelayHint(hint, facts.outcome, now);
        facts.hints.append(std::move(reading));
    }
    return facts;
}

bool AnswerFacts::pushbackSaysStop(const RetryPolicy& policy) const
{
    for (qsizetype i = 0; i < hints.size() && i < policy.hints.size(); ++i) {
        const DelayHint& hint = policy.hints.at(i);
        const HintReading& reading = hints.at(i);
        if (!reading.value || (!hint.negativeMeansStop && !hint.invalidMeansStop))
            continue;
        if (!reading.value->delay ? hint.invalidMeansStop : hint.negativeMeansStop && reading.value->delay->count() < 0)
            return true;
    }
    return false;
}

bool AnswerFacts::takesThrottlingToken(const RetryPolicy& policy) const
{
    const RetryRule* matched = rule(policy);
    return (matched && matched->action == RuleAction::Retry) || pushbackSaysStop(policy);
}
