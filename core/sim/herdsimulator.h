// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The herd simulator: a discrete-event simulation on virtual time of many clients running one policy against
// a server model (issue 29 §1). Deterministic for a seed. Every retry decision is the policy code's own:
// decide() with the policy's backoff, jitter, hints, budgets and rules, the pipeline's breaker as
// CircuitBreaker, its timeouts read as the engine reads them (pipelineshape.h). Nothing here re-implements a
// policy; the simulator only moves time, plays the server and counts.

#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <atomic>
#include <cstdint>
#include <functional>

// What one simulated run produced.
struct HerdRun
{
    HerdTotals totals;
    HerdSeries series;
    std::optional<bool> recovered;
    std::optional<Millis> collapsedAt;
    double goodput = 0;
};

// One simulated client's logical request, attempt by attempt, for the test that replays it through the
// engine (tracing is off unless asked: it costs memory per attempt).
struct HerdTraceAttempt
{
    double sentMs = 0; // when the attempt left the client
    int status = 0; // the answer's status, 0 when it ended in an error
    QString error; // the error class's name, when it ended in one
    Millis delay { 0 }; // the wait decide() chose before the next attempt (0 after the last)
    QString verdict; // "retry", "stop", "success"
    QList<double> draws; // the uniform draws decide() took for this decision (the jitter's), in order
};

class HerdSimulator
{
public:
    // PROGRESS gets the share done (0..1) now and then; CANCEL, when set, ends the run early.
    static HerdRun run(const HerdExperiment& experiment, const RetryPolicy& policy, std::uint64_t seed,
        const std::atomic_bool* cancel = nullptr, const std::function<void(double)>& progress = {},
        QList<QList<HerdTraceAttempt>>* trace = nullptr);
};

// Runs every policy of EXPERIMENT `runs` times (seeds seed, seed + 1, …) and averages the totals. The runs
// spread over THREADS threads (0: one per core), the calling thread among them; the result is the same for any
// number. PROGRESS gets the share of the whole experiment done, always on the calling thread.
HerdResult runHerdExperiment(const HerdExperiment& experiment, const std::atomic_bool* cancel = nullptr,
    const std::function<void(double)>& progress = {}, int threads = 0);
