// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/sessionsummary.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

double nearestRankPercentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0.0;
    const qsizetype n = values.size();
    const qsizetype rank = std::clamp<qsizetype>(qsizetype(std::ceil(p * double(n) - 1e-9)), 1, n);
    std::nth_element(values.begin(), values.begin() + (rank - 1), values.end());
    return values.at(rank - 1);
}

void SessionSummaryBuilder::clear()
{
    *this = SessionSummaryBuilder();
}

SessionSummary SessionSummaryBuilder::pacedSummary()
{
    const bool due = !m_whole || !m_wholeTaken.isValid() || m_wholeTaken.nsecsElapsed() >= 40 * m_wholeCostNs;
    if (due) {
        QElapsedTimer cost;
        cost.start();
        const SessionSummary s = summary();
        m_wholeCostNs = cost.nsecsElapsed();
        m_wholeTaken.start();
        m_whole = WholeSessionFigures { s.hasBreaker, s.refusedByBreaker, s.breakerOpenings, s.breakerOpenMs, s.breakers,
            s.hasHedges, s.hedges };
        return s;
    }
    SessionSummary s = counted();
    s.hasBreaker = m_whole->hasBreaker;
    s.refusedByBreaker = m_whole->refusedByBreaker;
    s.breakerOpenings = m_whole->breakerOpenings;
    s.breakerOpenMs = m_whole->breakerOpenMs;
    s.breakers = m_whole->breakers;
    s.hasHedges = m_whole->hasHedges;
    s.hedges = m_whole->hedges;
    return s;
}

void SessionSummaryBuilder::update(const LiveSession& session, const LiveSessionDelta& delta)
{
    m_live = &session;
    const RunProgressStore& runs = session.runs();
    m_runs = int(runs.size());
    m_attempts = int(session.finishedAttempts());
    for (const int index : delta.changedRuns) {
        if (index < 0 || index >= runs.size() || (size_t(index) < m_counted.size() && m_counted[size_t(index)]))
            continue;
        const RunProgress& r = runs.at(index);
        if (r.outcome == FinalKind::None)
            continue;
        if (size_t(index) >= m_counted.size())
            m_counted.resize(size_t(index) + 1, false);
        m_counted[size_t(index)] = true;
        ++m_finishedRuns;
        m_succeeded += r.succeeded() ? 1 : 0;
        const int attempts = session.attemptCount(index);
        m_finishedAttempts += attempts;
        m_maxAttempts = std::max(m_maxAttempts, attempts);
        m_waitingMs += double(r.totalWait.count());
        ++m_outcomes[int(r.outcome)];
        ++m_attemptCounts[attempts];
        if (r.startedAt && r.finishedAt) {
            const double took = toMs(*r.finishedAt - *r.startedAt);
            m_latencies.append(took);
            m_runTimeMs += took;
        }
    }
    const LabEventStore& events = session.labEvents();
    for (qsizetype i = delta.labEventsBefore; i < delta.labEventsAfter && i < events.size(); ++i) {
        const LabEvent::Kind kind = events.kind(i);
        if (kind == LabEvent::Kind::RequestReceived) {
            ++m_serverRequests;
        } else if (kind == LabEvent::Kind::OperationApplied) {
            ++m_applied;
            if (const QByteArrayView key = events.idempotencyKeyUtf8(i); !key.isEmpty()) {
                const quint32 id = m_appliedKeys.intern(key);
                if (id >= m_appliedTimes.size())
                    m_appliedTimes.resize(size_t(id) + 1, 0);
                if (m_appliedTimes[id]++ > 0)
                    ++m_duplicates;
            }
        }
    }
}

SessionSummary SessionSummaryBuilder::summary() const
{
    SessionSummary s = counted();
    addBreakers(s);
    addHedges(s);
    return s;
}

SessionSummary SessionSummaryBuilder::counted() const
{
    SessionSummary s;
    s.runs = m_runs;
    s.finishedRuns = m_finishedRuns;
    s.succeededRuns = m_succeeded;
    s.attempts = m_attempts;
    s.maxAttemptsPerRun = m_maxAttempts;
    s.successRate = s.finishedRuns ? double(m_succeeded) / s.finishedRuns : 0.0;
    s.attemptsPerRun = s.finishedRuns ? double(m_finishedAttempts) / s.finishedRuns : 0.0;
    s.amplificationFromServer = m_serverRequests > 0;
    if (m_runs > 0)
        s.amplification = double(s.amplificationFromServer ? m_serverRequests : m_attempts) / m_runs;
    s.p50Ms = nearestRankPercentile(m_latencies, 0.50);
    s.p95Ms = nearestRankPercentile(m_latencies, 0.95);
    s.p99Ms = nearestRankPercentile(m_latencies, 0.99);
    s.waitingMs = m_waitingMs;
    s.runTimeMs = m_runTimeMs;
    s.serverRequests = m_serverRequests;
    s.operationsApplied = m_applied;
    s.duplicateApplications = m_duplicates;
    for (auto it = m_outcomes.cbegin(); it != m_outcomes.cend(); ++it)
        s.outcomes.append({ FinalKind(it.key()), it.value() });
    for (auto it = m_attemptCounts.cbegin(); it != m_attemptCounts.cend(); ++it)
        s.attemptCounts.append({ it.key(), it.value() });
    std::stable_sort(s.outcomes.begin(), s.outcomes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return s;
}

void SessionSummaryBuilder::addHedges(SessionSummary& s) const
{
    const Session* session = m_live ? m_live->session() : nullptr;
    if (!session)
        return;
    const auto hedges = [](const RetryPolicy& p) {
        return std::any_of(p.pipeline.cbegin(), p.pipeline.cend(),
            [](const ResilienceStrategy& st) { return st.kind == ResilienceStrategy::Kind::Hedging; });
    };
    s.hasHedges = std::any_of(session->policies.cbegin(), session->policies.cend(), hedges);
    if (!s.hasHedges)
        return;
    // Up to what the views show, as the breakers' figures.
    s.hedges = summarizeHedges(*session, MonoTime(qint64(std::llround(m_live->nowMs() * 1e6))));
}

void SessionSummaryBuilder::addBreakers(SessionSummary& s) const
{
    const Session* session = m_live ? m_live->session() : nullptr;
    if (!session)
        return;
    s.hasBreaker = !session->breakerChanges.isEmpty()
        || std::any_of(session->policies.cbegin(), session->policies.cend(), [](const RetryPolicy& p) {
               return std::any_of(p.pipeline.cbegin(), p.pipeline.cend(),
                   [](const ResilienceStrategy& st) { return st.kind == ResilienceStrategy::Kind::CircuitBreaker; });
           });
    if (!s.hasBreaker)
        return;
    // Up to what the views show: a recording played back counts what its playhead has reached.
    s.breakers = summarizeBreakers(*session, MonoTime(qint64(std::llround(m_live->nowMs() * 1e6))));
    for (const BreakerSummary& b : std::as_const(s.breakers)) {
        s.refusedByBreaker += b.refused;
        s.breakerOpenings += b.opened;
        s.breakerOpenMs += double(b.openFor.count()) / 1e6;
    }
}

QString finalKindLabel(FinalKind kind)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("SessionSummary", text); };
    switch (kind) {
    case FinalKind::None:
        return tr("Running");
    case FinalKind::Success:
        return tr("Succeeded");
    case FinalKind::RateLimited:
        return tr("Rate limited (429)");
    case FinalKind::ServerError:
        return tr("Server error (5xx)");
    case FinalKind::ClientError:
        return tr("Client error (4xx)");
    case FinalKind::Network:
        return tr("Network error");
    case FinalKind::Deadline:
        return tr("Deadline reached");
    case FinalKind::BudgetExhausted:
        return tr("Retry budget exhausted");
    case FinalKind::RetryAfterTooLong:
        return tr("Retry-After too long");
    case FinalKind::BodyNotRewindable:
        return tr("Body not rewindable");
    case FinalKind::Cancelled:
        return tr("Cancelled");
    case FinalKind::CircuitOpen:
        return tr("Circuit open");
    case FinalKind::LimiterFull:
        return tr("Limiter full");
    }
    return {};
}
