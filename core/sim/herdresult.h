// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a herd experiment measured: per policy, the totals (means over its runs) and the time series of its
// first run. Rates are per second of virtual time.

#include "policy/retrypolicy.h"

#include <QList>
#include <QString>

#include <cmath>
#include <cstdint>
#include <optional>

// One bucket of the series, [t, t + resolution).
struct HerdSample
{
    double offered = 0; // new logical requests per second
    double attempts = 0; // attempts that reached the server per second (the server's count)
    double goodput = 0; // logical requests that ended in success per second
    double retries = 0; // attempts after the first per second
    double utilisation = 0; // busy share of the server's capacity (0..1; 0 when concurrency is unlimited)
    double inService = 0; // requests in service at the bucket's end
    double queue = 0; // requests waiting for a server at the bucket's end
    double breakerOpen = NAN; // share of client processes whose breaker is open at the bucket's end (NaN: no breaker)
    double budgetTokens = NAN; // mean retry-quota (or throttling) tokens per process at the bucket's end (NaN: none)
};

struct HerdTotals
{
    double requests = 0; // logical requests started
    double succeeded = 0;
    double failed = 0; // ended without success
    double unfinished = 0; // still going when the run ended (open loop)
    double attempts = 0; // sent by the clients (a breaker's refusal is not sent)
    double serverCalls = 0; // what the server worked on: writes (optimistic row) or requests it served
    double duplicates = 0; // logical requests the server applied more than once (non-idempotent, no key)
    double completionMs = 0; // when the last logical request ended
    double latencyP50Ms = 0; // of logical requests that ended, first attempt to last answer
    double latencyP90Ms = 0;
    double latencyP99Ms = 0;
    double amplification() const { return requests > 0 ? attempts / requests : 0; }
    double successRate() const { return requests > 0 ? succeeded / requests : 0; }
};

struct HerdSeries
{
    Millis resolution { 1000 };
    QList<HerdSample> samples;
};

struct HerdPolicyResult
{
    QString label;
    int clients = 0;
    int runs = 0;
    HerdTotals totals; // means over the runs
    double goodput = 0; // succeeded per second over the measured duration (first run)
    // The first run: after the trigger (outage, cut, spike) ended, goodput came back to at least 80 % of the
    // offered load over the last fifth of the run. Nullopt when the experiment has no trigger or is closed loop.
    std::optional<bool> recovered;
    // The first run: the start of the bucket from which goodput stayed under 20 % of the offered load.
    std::optional<Millis> collapsedAt;
    HerdSeries series; // the first run
    double wallMs = 0; // how long its runs took on this machine, added up (CPU time when they ran side by side)
};

struct HerdResult
{
    QString experiment;
    std::uint64_t seed = 1;
    QList<HerdPolicyResult> results;
    bool cancelled = false;
};
