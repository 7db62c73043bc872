// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the judge concluded about one observed run: per attempt, what the policy would have decided after
// it (with the range of its wait) and what the client did; and the findings.

#include "conform/conformancefinding.h"
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

struct RunJudgement
{
    int runId = 0;
    QString policyName;
    QList<AttemptJudgement> attempts;
    QList<ConformanceFinding> findings; // deviations from the policy, in attempt order
    QList<ConformanceFinding> notes; // what could not be judged (never a failure)

    bool conforms() const { return findings.isEmpty(); }
};
