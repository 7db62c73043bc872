// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/resilience/hedging.h"

#include <QCoreApplication>

QList<HedgingProblem> validate(const HedgingOptions& o)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("Hedging", text); };
    QList<HedgingProblem> problems;
    if (o.maxHedges < 1 || o.maxHedges > 10)
        problems.append({ QStringLiteral("max_hedges"), tr("must be from 1 to 10 (Polly's range)") });
    if (o.delay != HedgingOptions::kFallback && (o.delay.count() < 0 || o.delay.count() > 86400000))
        problems.append({ QStringLiteral("delay_ms"),
            tr("must be 0 (every copy at once), -1 (the next after a failure) or up to a day") });
    return problems;
}

Hedging::Hedging(HedgingOptions options, Millis start)
    : m_options(options)
    , m_startedAt { start }
    , m_answered { false }
{
}

Hedging::Mode Hedging::mode() const
{
    if (m_options.delay == Millis { 0 })
        return Mode::Parallel;
    if (m_options.delay.count() < 0)
        return Mode::Fallback;
    return Mode::Latency;
}

std::optional<Millis> Hedging::nextStartAt() const
{
    if (m_done || !copiesLeft())
        return std::nullopt;
    if (m_failuresWaiting > 0)
        return m_lastFailureAt;
    switch (mode()) {
    case Mode::Parallel:
        return m_startedAt.first();
    case Mode::Latency:
        return m_startedAt.last() + m_options.delay; // measured from the newest copy
    case Mode::Fallback:
        break;
    }
    return std::nullopt;
}

std::optional<int> Hedging::startDue(Millis now)
{
    const auto at = nextStartAt();
    if (!at || now < *at)
        return std::nullopt;
    if (m_failuresWaiting > 0)
        --m_failuresWaiting;
    m_startedAt.append(now);
    m_answered.append(false);
    return started();
}

bool Hedging::inFlight(int copy) const
{
    return copy >= 1 && copy <= started() && !m_answered.at(copy - 1) && !m_done;
}

Hedging::Verdict Hedging::answered(int copy, Answer answer, Millis now)
{
    Verdict v;
    if (!inFlight(copy)) { // a cancelled copy's late answer, or one already heard
        v.done = m_done;
        v.result = m_result;
        return v;
    }
    m_answered[copy - 1] = true;
    const auto cancelOthers = [&] {
        for (int c = 1; c <= started(); ++c)
            if (!m_answered.at(c - 1))
                v.cancel.append(c);
    };
    if (answer == Answer::Accepted) { // the first acceptable answer wins
        m_done = true;
        m_result = copy;
        cancelOthers();
    } else if (copiesLeft() && mode() != Mode::Parallel) {
        ++m_failuresWaiting; // Polly: a handled failure launches the next copy at once; gRPC: a non-fatal status
        m_lastFailureAt = now;
        v.startNow = true;
    } else if (!copiesLeft() && !m_answered.contains(false)) {
        m_done = true;
        m_result = 1; // every copy failed: the result is the first copy's failure (Polly's hedging docs)
    }
    v.done = m_done;
    v.result = m_result;
    return v;
}
