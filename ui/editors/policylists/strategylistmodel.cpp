// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/strategylistmodel.h"

#include "policy/policydescription.h"
#include "policy/retrydecision.h" // formatMillis

using namespace Qt::StringLiterals;
using O = CircuitBreakerOptions;

namespace {

QString number(double value)
{
    return QString::number(value, 'g', 6);
}

QString breakerLine(const O& b)
{
    const QString cmp = b.comparator == O::Comparator::AtLeast ? u"≥"_s : u">"_s;
    const QString least = b.minimumCallsPerSecond
        ? StrategyListModel::tr("≥ %1 calls/s").arg(number(*b.minimumCallsPerSecond))
        : StrategyListModel::tr("≥ %1 calls").arg(b.minimumCalls);
    QString opens;
    switch (b.window) {
    case O::Window::Consecutive:
        opens = StrategyListModel::tr("%1 failures in a row").arg(b.consecutiveFailures);
        break;
    case O::Window::Count:
        opens = StrategyListModel::tr("%1 %2 % of the last %3 calls (%4)")
                    .arg(cmp, number(b.failureRatio * 100.0))
                    .arg(b.windowCalls)
                    .arg(least);
        break;
    case O::Window::Time:
        opens = StrategyListModel::tr("%1 %2 % of %3 in %4")
                    .arg(cmp, number(b.failureRatio * 100.0), least, formatMillis(b.samplingDuration));
        break;
    }
    return StrategyListModel::tr("%1 · break %2").arg(opens, formatMillis(b.breakDuration));
}

} // namespace

StrategyListModel::StrategyListModel(QObject* parent)
    : PolicyItemListModel<ResilienceStrategy>(parent)
{
}

QString StrategyListModel::kindText(Kind kind)
{
    switch (kind) {
    case Kind::TotalTimeout:
        return tr("total timeout");
    case Kind::Retry:
        return tr("retry");
    case Kind::CircuitBreaker:
        return tr("circuit breaker");
    case Kind::AttemptTimeout:
        return tr("attempt timeout");
    case Kind::Hedging:
        return tr("hedging");
    case Kind::RateLimiter:
        return tr("rate limiter");
    case Kind::Bulkhead:
        return tr("bulkhead");
    }
    return {};
}

QString StrategyListModel::summaryOf(const ResilienceStrategy& s)
{
    switch (s.kind) {
    case Kind::TotalTimeout:
    case Kind::AttemptTimeout:
        return tr("%1 %2").arg(kindText(s.kind), formatMillis(s.timeout));
    case Kind::Retry:
        return tr("retry: the policy's limits, backoff, hints and rules");
    case Kind::CircuitBreaker:
        return tr("circuit breaker · %1").arg(breakerLine(s.breaker));
    case Kind::Hedging: {
        const HedgingOptions& h = s.hedging;
        QString when;
        if (h.delay == Millis { 0 })
            when = tr("all at once");
        else if (h.delay.count() < 0)
            when = tr("each after a failure");
        else
            when = tr("each after %1").arg(formatMillis(h.delay));
        const QString copies = h.maxHedges == 1 ? tr("1 more copy") : tr("%1 more copies").arg(h.maxHedges);
        return tr("hedging · up to %1 · %2").arg(copies, when);
    }
    case Kind::RateLimiter:
    case Kind::Bulkhead:
        return tr("%1 · %2 at once · %3")
            .arg(kindText(s.kind))
            .arg(s.permits)
            .arg(s.queue == 0 ? tr("no queue") : tr("%1 queued").arg(s.queue));
    }
    return {};
}

ResilienceStrategy StrategyListModel::newStrategy(Kind kind)
{
    ResilienceStrategy s;
    s.kind = kind;
    if (kind == Kind::TotalTimeout)
        s.timeout = Millis { 30000 };
    else if (kind == Kind::AttemptTimeout)
        s.timeout = Millis { 10000 };
    return s;
}

bool StrategyListModel::outsideRetry(Kind kind)
{
    switch (kind) {
    case Kind::TotalTimeout:
    case Kind::Hedging:
    case Kind::RateLimiter:
    case Kind::Bulkhead:
        return true;
    case Kind::Retry:
    case Kind::CircuitBreaker:
    case Kind::AttemptTimeout:
        return false;
    }
    return false;
}

int StrategyListModel::addStrategy(Kind kind, int after)
{
    const auto insert = [this](int row, Kind k) {
        m_nextKind = k;
        const bool done = insertRows(row, 1);
        m_nextKind = Kind::Retry;
        return done;
    };
    if (rowCount() == 0 && kind != Kind::Retry) {
        if (!insert(0, Kind::Retry))
            return -1;
        const int row = outsideRetry(kind) ? 0 : 1;
        return insert(row, kind) ? row : -1;
    }
    const int row = after < 0 || after >= rowCount() ? rowCount() : after + 1;
    return insert(row, kind) ? row : -1;
}

QString StrategyListModel::summary(int row) const
{
    return summaryOf(item(row));
}

QString StrategyListModel::details(int row) const
{
    return describeStrategy(item(row));
}

ResilienceStrategy StrategyListModel::defaultItem() const
{
    return newStrategy(m_nextKind);
}
