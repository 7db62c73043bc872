// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An answer read once for a policy: the outcome, the first rule of the policy that matches it, and the value
// of every delay hint the policy reads. decide() and the budget accounting work from this value and never
// go back to the headers, so a Retry-After is parsed once per hint, not once per question asked of it.

#include "http/retryafter.h"
#include "policy/attemptoutcome.h"
#include "policy/retrypolicy.h"

#include <QDateTime>
#include <QList>

#include <optional>

// One of the policy's delay hints, read from the answer.
struct HintReading
{
    bool applies = false; // the hint's status list covers this outcome
    std::optional<RetryAfterValue> value; // absent when the field is absent (or the hint does not apply)
};

struct AnswerFacts
{
    AttemptOutcome outcome;
    RequestFacts request;
    std::optional<qsizetype> ruleIndex; // the first matching rule in policy.rules; none: the built-in fallback
    QList<HintReading> hints; // one per policy.hints entry, in order

    const RetryRule* rule(const RetryPolicy& policy) const
    {
        return ruleIndex && *ruleIndex < policy.rules.size() ? &policy.rules.at(*ruleIndex) : nullptr;
    }
    // gRPC pushback: a hint the policy reads as "don't retry" (negative, or invalid where that means stop).
    bool pushbackSaysStop(const RetryPolicy& policy) const;
    // gRFC A6: "every time an RPC fails with a status code in retryableStatusCodes, or the server pushback
    // indicates that the RPC should not be retried, token_count is decremented by 1". A success, or a failure
    // the policy does not retry, leaves the tokens alone.
    bool takesThrottlingToken(const RetryPolicy& policy) const;
};

// Reads OUTCOME once for POLICY (the hints' HTTP-dates against NOW).
AnswerFacts readAnswer(const RetryPolicy& policy, const RequestFacts& request, AttemptOutcome outcome, const QDateTime& now);
