// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The retry budgets the engine keeps across runs (retry quota, gRPC retry throttling), one per policy and
// scope: per client, or per host:port when the policy scopes its budget to the host.

#include "policy/retrybudget.h"

#include <QString>
#include <QUrl>

#include <map>
#include <memory>

class BudgetBook
{
public:
    // The budget a request to URL under POLICY draws from (made on first use, full).
    RetryBudget& budgetFor(const RetryPolicy& policy, const QUrl& url);
    void clear() { m_budgets.clear(); }

private:
    std::map<QString, std::unique_ptr<RetryBudget>> m_budgets; // "<policy>|" or "<policy>|<host:port>"
};
