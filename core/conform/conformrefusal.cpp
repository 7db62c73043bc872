// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conformrefusal.h"

#include <QCoreApplication>

using Kind = ResilienceStrategy::Kind;

QString conformRefusal(const RetryPolicy& policy)
{
    QStringList notJudged;
    for (const ResilienceStrategy& s : policy.pipeline) {
        switch (s.kind) {
        case Kind::Retry:
        case Kind::CircuitBreaker:
        case Kind::Hedging:
        case Kind::AttemptTimeout:
            break;
        case Kind::TotalTimeout:
        case Kind::RateLimiter:
        case Kind::Bulkhead:
            if (!notJudged.contains(strategyKindName(s.kind)))
                notJudged.append(strategyKindName(s.kind));
            break;
        }
    }
    if (notJudged.isEmpty())
        return {};
    return QCoreApplication::translate("conform",
        "policy \"%1\": conform does not judge %2 yet, only a pipeline's retry, "
        "circuit_breaker, hedging and attempt_timeout")
        .arg(policy.name, notJudged.join(QStringLiteral(", ")));
}
