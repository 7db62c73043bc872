// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/breakersummary.h"

#include "session/session.h"
#include "session/store/storedattempt.h"

#include <QCoreApplication>

namespace {

BreakerSummary& entryFor(QList<BreakerSummary>& all, const QString& policy, const QString& scope)
{
    for (BreakerSummary& s : all)
        if (s.policy == policy && s.scope == scope)
            return s;
    all.append(BreakerSummary { policy, scope });
    return all.last();
}

} // namespace

QList<BreakerSummary> summarizeBreakers(const Session& session, MonoTime end)
{
    QList<BreakerSummary> all;
    QList<MonoTime> openedAt; // parallel to ALL: when the current break began
    for (const BreakerChange& c : session.breakerChanges) {
        if (c.at > end)
            continue; // not yet, at END (a recording shown up to its playhead)
        BreakerSummary& s = entryFor(all, c.policy, c.scope);
        const qsizetype i = &s - all.data();
        while (openedAt.size() < all.size())
            openedAt.append(MonoTime { -1 });
        if (c.to == CircuitBreaker::State::Open) {
            ++s.opened;
            if (openedAt[i] < MonoTime { 0 })
                openedAt[i] = c.at;
        } else if (c.to == CircuitBreaker::State::HalfOpen) {
            ++s.halfOpened;
        } else {
            ++s.closed;
            if (openedAt[i] >= MonoTime { 0 })
                s.openFor += c.at - openedAt[i];
            openedAt[i] = MonoTime { -1 };
        }
        s.last = c.to;
    }
    for (qsizetype i = 0; i < openedAt.size(); ++i)
        if (openedAt[i] >= MonoTime { 0 } && end > openedAt[i])
            all[i].openFor += end - openedAt[i];
    for (qsizetype r = 0; r < session.runs.size(); ++r) {
        const SessionRun& run = session.runs.at(r);
        const QString policy = run.policy >= 0 && run.policy < session.policies.size() ? session.policies.at(run.policy).name : QString();
        for (qsizetype row : run.rows) {
            const StoredAttempt a(session.attempts, row);
            if (!a.refused() || a.finished().value_or(MonoTime { 0 }) > end)
                continue;
            if (const std::optional<StrategyRefusal> refusal = a.refusal();
                refusal && refusal->by == StrategyRefusal::By::CircuitBreaker)
                ++entryFor(all, policy, refusal->scope).refused;
        }
    }
    return all;
}

QString breakerSummaryLine(const BreakerSummary& s)
{
    return QCoreApplication::translate("BreakerSummary",
        "circuit breaker of %1 (%2): opened %3×, half-open %4×, closed %5×, open %6 s in all; %7 calls refused, now %8")
        .arg(s.policy, s.scope)
        .arg(s.opened)
        .arg(s.halfOpened)
        .arg(s.closed)
        .arg(double(s.openFor.count()) / 1e9, 0, 'f', 1)
        .arg(s.refused)
        .arg(stateName(s.last));
}
