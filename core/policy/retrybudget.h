// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The state a policy's budgets keep across requests: the AWS-style retry quota and gRPC-style retry
// throttling. One RetryBudget per scope (per client, or per host), owned by whoever runs requests;
// decide() only reads it through a BudgetView.

#include "policy/decide.h"
#include "policy/retrydecision.h"
#include "policy/retrypolicy.h"

class RetryBudget
{
public:
    explicit RetryBudget(const RetryQuota& quota = {}, const RetryThrottling& throttling = {});

    // What decide() sees. Call after recordFailure() for the outcome being decided.
    BudgetView view() const;

    // gRPC: a retryable failure (or a "don't retry" pushback) takes one token.
    void recordFailure();
    // A final success. HAD_RETRIES: refund what the request acquired (AWS) instead of the reward.
    void recordSuccess(bool hadRetries, int acquiredForThisRequest);
    // Takes COST quota tokens for a retry; false (and nothing taken) when not enough are left.
    bool acquire(int cost);
    // Applies what decide() said (RetryDecision::effects), after it judged the retry against view().
    void apply(const RetryDecision::Effects& effects, bool hadRetries, int acquiredForThisRequest);

    int quotaTokens() const { return m_quotaTokens; }
    double throttlingTokens() const { return m_throttlingTokens; }
    bool quotaEnabled() const { return m_quota.enabled; }
    bool throttlingEnabled() const { return m_throttling.enabled; }

private:
    RetryQuota m_quota;
    RetryThrottling m_throttling;
    int m_quotaTokens = 0;
    double m_throttlingTokens = 0;
};
