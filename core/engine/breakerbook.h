// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The circuit breakers the engine keeps across runs: one per policy, pipeline strategy and scope (the
// client, or each authority when the breaker is scoped to the host), made on first use. Each is the pure
// CircuitBreaker of core/policy/resilience on the engine's monotonic axis; the book adds what a state
// machine without a clock cannot do itself: the changes not yet reported, the runs waiting for a
// half-open verdict, and the timer of a breaker that turns half-open on its own (opossum).

#include "engine/breakerchange.h"
#include "engine/scheduler.h"
#include "policy/resilience/pipeline.h"

#include <QList>
#include <QString>
#include <QUrl>

#include <map>
#include <memory>
#include <optional>

class BreakerBook
{
public:
    struct Entry
    {
        Entry(const QString& policy, const QString& scope, const CircuitBreakerOptions& options, MonoTime epoch);
        QString policy;
        QString scope;
        CircuitBreaker breaker;
        qsizetype reported = 0; // changes() already handed out by takeChanges()
        QList<int> waiters; // runs waiting for the half-open verdict, in arrival order
        std::optional<Scheduler::TaskId> timer; // a timer-driven half-open that is due
    };

    // EPOCH: when the client was made (the engine): a breaker whose buckets turn on a fixed beat (opossum)
    // turns them from then, as a breaker made when its client is, not at its first call.
    explicit BreakerBook(MonoTime epoch)
        : m_epoch(epoch)
    {
    }

    // The breaker of POLICY's pipeline strategy STRATEGY (its index) guarding URL (made closed on first use).
    Entry& entryFor(const QString& policy, int strategy, const ResilienceStrategy& breaker, const QUrl& url);
    Entry* find(const QString& key);
    static QString keyOf(const QString& policy, int strategy, const ResilienceStrategy& breaker, const QUrl& url);
    static QString scopeOf(const ResilienceStrategy& breaker, const QUrl& url);

    // The changes ENTRY made since the last call, as the session records them.
    static QList<BreakerChange> takeChanges(Entry& entry);
    static Millis axis(MonoTime t) { return std::chrono::duration_cast<Millis>(t); }

    // Every entry (the engine cancels their timers when it goes).
    const std::map<QString, std::unique_ptr<Entry>>& entries() const { return m_entries; }

private:
    MonoTime m_epoch;
    std::map<QString, std::unique_ptr<Entry>> m_entries;
};
