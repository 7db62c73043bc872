// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The judge: walks an observed run attempt by attempt and asks the policy, through decide(), what it
// would have done after each answer — retry or stop, and within which range of waits — then compares
// that with what the client did. The policy's logic is never repeated here: verdicts, delay ranges,
// Retry-After caps, deadlines, attempt limits and budgets all come from core/policy.
//
// Stateful policies are judged with the state the observed history implies: the retry budgets (retry
// quota, retry throttling) and the per-host throttle carry over from run to run of one judge, as they
// would inside one client, and a decorrelated backoff continues from the wait the client actually chose
// (the draw that reproduces it), not from a draw of our own.

#include "conform/judgedrun.h"
#include "conform/runjudgement.h"
#include "conform/waittolerance.h"
#include "engine/budgetbook.h"
#include "engine/hostthrottlestate.h"
#include "policy/retrypolicy.h"

#include <QDateTime>

struct JudgeOptions
{
    WaitTolerance tolerance;
    QDateTime wallOrigin; // wall-clock time (UTC) at monotonic 0: HTTP-date Retry-After values need it
    bool checkExitStatus = true; // judge the final-error rule by the client's exit status
};

class ConformanceJudge
{
public:
    ConformanceJudge(RetryPolicy policy, JudgeOptions options);

    // Judges RUN; runs of one client are judged in the order they were made (budgets carry over).
    RunJudgement judge(const JudgedRun& run);

    const RetryPolicy& policy() const { return m_policy; }
    const JudgeOptions& options() const { return m_options; }

private:
    RetryPolicy m_policy;
    JudgeOptions m_options;
    BudgetBook m_budgets;
    HostThrottleState m_hostResets;
};
