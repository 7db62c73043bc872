// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the judge concluded about one observed run: per attempt, what the policy would have decided after
// it (with the range of its wait) and what the client did; and the findings.

#include "conform/conformancefinding.h"
#include "policy/resilience/circuitbreaker.h"
#include "policy/retrydecision.h"

#include <QList>
#include <QString>

#include <optional>

struct AttemptJudgement
{
    int index = 1;
    QString answer; // "429 on GET (Retry-After: 2)"
    RetryDecision expected; // what the policy decides after this attempt (with the wait's range)
    std::optional<Millis> waitAfter; // the observed gap before the next attempt, when there was one
    bool open = false; // still open when the observation ended: not judged
};

// What a case with many calls showed (calls/callsjudge.h): how many calls reached the lab, how many the client
// kept to itself (refused, or held past their time), and the policy's circuit breaker along those calls.
struct CallsJudgement
{
    int planned = 0; // calls of the plan due while the command was observed
    int sent = 0; // calls with a request at the lab
    int kept = 0; // calls that reached the lab at no request (the client refused them)
    int late = 0; // calls whose first request came after their time (held, retried, or a late timer)
    int requests = 0;
    int failures = 0; // requests (or calls) the policy's breaker counts as failures
    int hedges = 0; // requests in flight beside an earlier request of their call
    Millis origin { 0 }; // when call 1 was due, on the lab's axis
    Millis slack { 0 }; // how far a call's first request may be from its time and still be its start
    bool byHeader = false; // calls told apart by the call header (else placed by their times)
    bool hasBreaker = false; // the policy has a circuit breaker
    QList<CircuitBreaker::Change> breaker; // its changes along the calls, at lab times
};

struct RunJudgement
{
    int runId = 0;
    QString policyName;
    QList<AttemptJudgement> attempts;
    QList<ConformanceFinding> findings; // deviations from the policy, in attempt order
    QList<ConformanceFinding> notes; // what could not be judged (never a failure)
    std::optional<CallsJudgement> calls; // a case with many calls

    bool conforms() const { return findings.isEmpty(); }
};
