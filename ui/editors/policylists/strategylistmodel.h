// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "editors/policylists/policylistmodel.h"

#include "policy/retrypolicy.h"

// The policy's resilience pipeline, outermost first, one line per strategy: "circuit breaker · ≥ 10 % of
// ≥ 100 calls in 30 s · break 5 s". The tooltip is `policy show`'s account of the strategy.
class StrategyListModel : public PolicyItemListModel<ResilienceStrategy>
{
    Q_OBJECT
public:
    using Kind = ResilienceStrategy::Kind;

    explicit StrategyListModel(QObject* parent = nullptr);

    static QString kindText(Kind kind); // "circuit breaker", for people (the JSON name is strategyKindName())
    static QString summaryOf(const ResilienceStrategy& strategy); // one short line, the retry's without its settings
    // A new strategy of KIND with the settings a user starts from: the libraries' defaults, and the standard
    // handler's timeouts of Microsoft.Extensions.Http.Resilience (30 s in all, 10 s an attempt).
    static ResilienceStrategy newStrategy(Kind kind);
    // Whether a first strategy of KIND goes outside the retry (before it) or inside: as the standard handler
    // orders them, a limiter and the total timeout outside, the breaker and the attempt timeout inside;
    // hedging outside, as Polly's hedging handler puts it (each copy may then retry).
    static bool outsideRetry(Kind kind);

    // Adds a strategy of KIND after row AFTER (-1: at the end) and returns its row. A policy without a
    // pipeline is one retry (policy-format.md), so into an empty pipeline the retry comes too, first, and
    // the new strategy goes outside or inside it: what the policy does stays what the form shows.
    int addStrategy(Kind kind, int after);

protected:
    QString summary(int row) const override;
    QString details(int row) const override;
    ResilienceStrategy defaultItem() const override;

private:
    Kind m_nextKind = Kind::Retry; // what defaultItem() makes for insertRows()
};
