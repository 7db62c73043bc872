// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdsimulator.h"

#include <QElapsedTimer>

namespace {

void addScaled(HerdTotals& into, const HerdTotals& t, double w)
{
    into.requests += t.requests * w;
    into.succeeded += t.succeeded * w;
    into.failed += t.failed * w;
    into.unfinished += t.unfinished * w;
    into.attempts += t.attempts * w;
    into.serverCalls += t.serverCalls * w;
    into.duplicates += t.duplicates * w;
    into.completionMs += t.completionMs * w;
    into.latencyP50Ms += t.latencyP50Ms * w;
    into.latencyP90Ms += t.latencyP90Ms * w;
    into.latencyP99Ms += t.latencyP99Ms * w;
}

} // namespace

HerdResult runHerdExperiment(const HerdExperiment& experiment, const std::atomic_bool* cancel,
    const std::function<void(double)>& progress)
{
    HerdResult result;
    result.experiment = experiment.name;
    result.seed = experiment.seed;
    const int runs = std::max(1, experiment.runs);
    const double total = double(runs) * double(std::max<qsizetype>(1, experiment.policies.size()));
    double done = 0;
    for (const HerdPolicy& policy : experiment.policies) {
        HerdPolicyResult out;
        out.label = policy.label;
        out.clients = experiment.clients.clients;
        QElapsedTimer wall;
        wall.start();
        for (int r = 0; r < runs; ++r) {
            const auto step = [&](double share) {
                if (progress)
                    progress((done + share) / total);
            };
            const HerdRun run = HerdSimulator::run(experiment, policy.policy, experiment.seed + std::uint64_t(r), cancel, step);
            if (cancel && cancel->load()) {
                result.cancelled = true;
                return result;
            }
            addScaled(out.totals, run.totals, 1.0 / runs);
            if (r == 0) {
                out.series = run.series;
                out.recovered = run.recovered;
                out.collapsedAt = run.collapsedAt;
                out.goodput = run.goodput;
            }
            out.runs = r + 1;
            done += 1;
            if (progress)
                progress(done / total);
        }
        out.wallMs = double(wall.nsecsElapsed()) / 1e6;
        result.results.append(out);
    }
    return result;
}
