// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/retrybudget.h"

#include <algorithm>
#include <cmath>

RetryBudget::RetryBudget(const RetryQuota& quota, const RetryThrottling& throttling)
    : m_quota(quota)
    , m_throttling(throttling)
    , m_quotaTokens(quota.capacity)
    , m_throttlingTokens(throttling.maxTokens)
{
}

BudgetView RetryBudget::view() const
{
    BudgetView view;
    if (m_quota.enabled)
        view.quotaTokens = m_quotaTokens;
    if (m_throttling.enabled)
        view.throttlingTokens = m_throttlingTokens;
    return view;
}

void RetryBudget::recordFailure()
{
    if (m_throttling.enabled)
        m_throttlingTokens = std::max(0.0, m_throttlingTokens - 1.0);
}

void RetryBudget::recordSuccess(bool hadRetries, int acquiredForThisRequest)
{
    if (m_throttling.enabled) {
        // gRFC A6 keeps three decimals of precision for the ratio.
        const double next = std::min(m_throttling.maxTokens, m_throttlingTokens + m_throttling.tokenRatio);
        m_throttlingTokens = std::round(next * 1000.0) / 1000.0;
    }
    if (!m_quota.enabled)
        return;
    const int gain = hadRetries ? (m_quota.refundOnSuccess ? acquiredForThisRequest : 0) : m_quota.successReward;
    m_quotaTokens = std::min(m_quota.capacity, m_quotaTokens + std::max(0, gain));
}

void RetryBudget::apply(const RetryDecision::Effects& effects, bool hadRetries, int acquiredForThisRequest)
{
    if (effects.throttlingFailure)
        recordFailure();
    if (effects.quotaTaken > 0 && m_quota.enabled) // decide() judged it against view(): the tokens are there
        m_quotaTokens = std::max(0, m_quotaTokens - effects.quotaTaken);
    if (effects.success)
        recordSuccess(hadRetries, acquiredForThisRequest);
}

bool RetryBudget::acquire(int cost)
{
    if (!m_quota.enabled || cost <= 0)
        return true;
    if (m_quotaTokens < cost)
        return false;
    m_quotaTokens -= cost;
    return true;
}
