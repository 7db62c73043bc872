// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/breakerbook.h"

#include "engine/hostthrottlestate.h"

BreakerBook::Entry::Entry(const QString& policyName, const QString& scopeName, const CircuitBreakerOptions& options, MonoTime epoch)
    : policy(policyName)
    , scope(scopeName)
    , breaker(options, BreakerBook::axis(epoch))
{
}

QString BreakerBook::scopeOf(const ResilienceStrategy& breaker, const QUrl& url)
{
    if (breaker.breaker.scope == CircuitBreakerOptions::Scope::Host)
        return HostThrottleState::hostKey(url);
    return QStringLiteral("client");
}

QString BreakerBook::keyOf(const QString& policy, int strategy, const ResilienceStrategy& breaker, const QUrl& url)
{
    return policy + u'|' + QString::number(strategy) + u'|' + scopeOf(breaker, url);
}

BreakerBook::Entry* BreakerBook::find(const QString& key)
{
    const auto it = m_entries.find(key);
    return it == m_entries.end() ? nullptr : it->second.get();
}

BreakerBook::Entry& BreakerBook::entryFor(const QString& policy, int strategy, const ResilienceStrategy& breaker, const QUrl& url)
{
    auto& slot = m_entries[keyOf(policy, strategy, breaker, url)];
    if (!slot)
        slot = std::make_unique<Entry>(policy, scopeOf(breaker, url), breaker.breaker, m_epoch);
    return *slot;
}

QList<BreakerChange> BreakerBook::takeChanges(Entry& entry)
{
    QList<BreakerChange> out;
    const QList<CircuitBreaker::Change>& all = entry.breaker.changes();
    for (; entry.reported < all.size(); ++entry.reported) {
        const CircuitBreaker::Change& c = all.at(entry.reported);
        out.append(BreakerChange { entry.policy, entry.scope, MonoTime(c.at), c.from, c.to, c.window, c.breakFor });
    }
    return out;
}
