// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a policy retries, asked of decide() itself (through explain()) rather than read off its rules: the
// statuses and error classes it sends again, per request method. The proxy targets (Envoy, gRPC) have
// coarse conditions (retry_on 5xx, UNAVAILABLE) instead of ordered rules, so they write these sets and
// compare what their conditions would retry against them.

#include "policy/retrypolicy.h"

#include <QList>
#include <QStringList>

struct RetriedOutcomes
{
    QList<int> statuses; // ascending
    QList<ErrorClass> errors; // in ErrorClass order
    bool isEmpty() const { return statuses.isEmpty() && errors.isEmpty(); }
    bool contains(ErrorClass e) const { return errors.contains(e); }
    friend bool operator==(const RetriedOutcomes& a, const RetriedOutcomes& b)
    {
        return a.statuses == b.statuses
            && std::equal(a.errors.cbegin(), a.errors.cend(), b.errors.cbegin(), b.errors.cend());
    }
};

namespace ProxyOutcomes {
// The request methods the proxies tell apart, in this order.
QStringList methods(); // GET HEAD OPTIONS PUT DELETE POST PATCH
QList<ErrorClass> allErrors();
// What POLICY retries after a first attempt of METHOD (with an Idempotency-Key when KEY) that ended in a status
// without headers or body, or in an error class; limits, budgets and pipeline aside.
RetriedOutcomes retried(const RetryPolicy& policy, const QString& method, bool key = false);
// The statuses as ranges: [500-599, 409] → "409, 500-599" style ranges, ascending.
QList<StatusRange> ranges(const QList<int>& statuses);
// The conditions of POLICY's rules that look at more than the method, status and error class: response headers,
// the body, an earlier lost answer (their paths, "rules[2].when.headers"). The proxies match none of these.
QStringList conditionsBeyondStatus(const RetryPolicy& policy);
// The outcomes any of CONDITIONS matches (a status without headers, or an error class), for a GET: what sends a
// hedge's next copy at once.
RetriedOutcomes matchedBy(const QList<RuleCondition>& conditions);
} // namespace ProxyOutcomes
