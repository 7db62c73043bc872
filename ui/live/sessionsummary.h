// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The numbers of the Summary view, accumulated from LiveSession deltas: success rate, attempts per run,
// amplification (requests the server received per run, or attempts per run without the lab), run
// latency percentiles, time spent waiting, the outcome breakdown and the server's applied operations;
// with a circuit breaker, the calls it refused and how long it was open (core's summarizeBreakers, up to
// the views' now); with hedging, the hedges sent, won and wasted and the operations the lab applied twice
// (core's summarizeHedges).
// Percentiles use the nearest-rank method: the ⌈p·n⌉-th smallest value.

#include "livesession.h"
#include "session/breakersummary.h"
#include "session/hedgesummary.h"
#include "session/store/stringpool.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QMap>
#include <QSet>

#include <optional>
#include <vector>

struct SessionSummary
{
    int runs = 0; // started or finished
    int finishedRuns = 0;
    int succeededRuns = 0;
    int attempts = 0; // finished attempts
    int maxAttemptsPerRun = 0;
    double successRate = 0; // succeeded / finished, in [0, 1]
    double attemptsPerRun = 0; // finished attempts of finished runs / finished runs
    double amplification = 0; // server requests / runs with lab events, else attempts / runs
    bool amplificationFromServer = false;
    double p50Ms = 0; // run latency: first attempt start to the final answer, waits included
    double p95Ms = 0;
    double p99Ms = 0;
    double waitingMs = 0; // waits actually taken by finished runs
    double runTimeMs = 0; // total latency of finished runs
    int serverRequests = 0; // lab: requests received
    int operationsApplied = 0; // lab: operations applied
    int duplicateApplications = 0; // lab: applied again under an idempotency key already applied
    QList<QPair<FinalKind, int>> outcomes; // finished runs per final kind, most frequent first
    QList<QPair<int, int>> attemptCounts; // (attempts, finished runs that took that many), by attempts
    // Circuit breakers: set when a policy of the session has one (or one changed state). Their figures are
    // what summarizeBreakers() says up to the views' now: calls refused (never sent), openings, time open or
    // half-open, all breakers together, and each breaker's own line.
    bool hasBreaker = false;
    qint64 refusedByBreaker = 0;
    int breakerOpenings = 0;
    double breakerOpenMs = 0;
    QList<BreakerSummary> breakers;
    // Hedging: set when a policy of the session hedges (only it makes copies). What
    // summarizeHedges() says up to the views' now: hedges sent, won, wasted, operations applied twice.
    bool hasHedges = false;
    HedgeSummary hedges;
};

// A final kind in words for people: "Rate limited (429)" (translated).
QString finalKindLabel(FinalKind kind);

double nearestRankPercentile(QList<double> values, double p);

class SessionSummaryBuilder
{
public:
    void clear();
    void update(const LiveSession& session, const LiveSessionDelta& delta);
    // The breakers' figures are read when asked for (a pass over the session's attempts: at the summary's
    // pace, not every refresh) from the LiveSession last updated from, which must outlive the builder.
    SessionSummary summary() const;
    // The same, for a view redrawing while a batch grows: the breakers' and hedging's figures, a pass over the
    // whole session each, are taken again only once 40 times their last pass's cost has gone by (so they
    // take at most a fortieth of the GUI thread: 30 ms at 30 000 hedged attempts), else the last ones are
    // shown. Everything else is as fresh as summary()'s.
    SessionSummary pacedSummary();

private:
    SessionSummary counted() const; // the figures kept up to date from the deltas
    void addBreakers(SessionSummary& s) const;
    void addHedges(SessionSummary& s) const;
    const LiveSession* m_live = nullptr;
    // pacedSummary(): the whole-session figures last taken, when, and what taking them cost.
    struct WholeSessionFigures
    {
        bool hasBreaker = false;
        qint64 refusedByBreaker = 0;
        int breakerOpenings = 0;
        double breakerOpenMs = 0;
        QList<BreakerSummary> breakers;
        bool hasHedges = false;
        HedgeSummary hedges;
    };
    std::optional<WholeSessionFigures> m_whole;
    QElapsedTimer m_wholeTaken;
    qint64 m_wholeCostNs = 0;
    std::vector<bool> m_counted; // by run index: already counted (a bit a run, not a hash node)
    int m_finishedRuns = 0;
    QList<double> m_latencies;
    QMap<int, int> m_outcomes; // FinalKind → runs
    QMap<int, int> m_attemptCounts; // attempts → runs
    // Idempotency keys of applied operations, interned (their bytes and 12 bytes each, not a QString key and
    // a hash node), with how often each was applied.
    StringPool m_appliedKeys;
    std::vector<int> m_appliedTimes; // by key id
    int m_runs = 0;
    int m_succeeded = 0;
    int m_finishedAttempts = 0; // of finished runs
    int m_maxAttempts = 0;
    int m_attempts = 0;
    double m_waitingMs = 0;
    double m_runTimeMs = 0;
    int m_serverRequests = 0;
    int m_applied = 0;
    int m_duplicates = 0;
};
