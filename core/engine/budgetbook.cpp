// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/budgetbook.h"

#include "engine/hostthrottlestate.h"

RetryBudget& BudgetBook::budgetFor(const RetryPolicy& p, const QUrl& url)
{
    const bool hostScoped = (p.quota.enabled && p.quota.scope == BudgetScope::Host)
        || (!p.quota.enabled && p.throttling.enabled && p.throttling.scope == BudgetScope::Host);
    QString key = p.name + u'|';
    if (hostScoped)
        key += HostThrottleState::hostKey(url);
    auto& slot = m_budgets[key];
    if (!slot)
        slot = std::make_unique<RetryBudget>(p.quota, p.throttling);
    return *slot;
}
