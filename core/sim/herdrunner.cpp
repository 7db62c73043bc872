// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdsimulator.h"

#include <QElapsedTimer>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

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

// Every (policy, run) pair is a job of its own: runs are independent (each its own seed), so they spread over
// the machine's cores and the result does not depend on how many there are. The calling thread works too,
// and is the only one that calls PROGRESS.
HerdResult runHerdExperiment(const HerdExperiment& experiment, const std::atomic_bool* cancel,
    const std::function<void(double)>& progress, int threads)
{
    HerdResult result;
    result.experiment = experiment.name;
    result.seed = experiment.seed;
    const int runs = std::max(1, experiment.runs);
    const int policies = int(experiment.policies.size());
    const int jobs = runs * policies;
    if (jobs == 0)
        return result;
    const int workers = std::clamp(threads > 0 ? threads : int(std::thread::hardware_concurrency()), 1, jobs);

    std::vector<HerdRun> done(static_cast<std::size_t>(jobs));
    std::vector<double> wallMs(static_cast<std::size_t>(jobs), 0.0);
    std::atomic_int next { 0 };
    std::atomic_int finished { 0 };
    std::unique_ptr<std::atomic<double>[]> share(new std::atomic<double>[static_cast<std::size_t>(workers)]);
    for (int w = 0; w < workers; ++w)
        share[static_cast<std::size_t>(w)] = 0.0;
    const auto overall = [&] {
        double total = finished.load();
        for (int w = 0; w < workers; ++w)
            total += share[static_cast<std::size_t>(w)].load(std::memory_order_relaxed);
        return std::min(1.0, total / jobs);
    };
    const auto work = [&](int worker) {
        for (int job = next.fetch_add(1); job < jobs; job = next.fetch_add(1)) {
            if (cancel && cancel->load())
                return;
            const HerdPolicy& policy = experiment.policies.at(job / runs);
            const std::uint64_t seed = experiment.seed + std::uint64_t(job % runs);
            const auto step = [&](double s) {
                share[static_cast<std::size_t>(worker)].store(s, std::memory_order_relaxed);
                if (worker == 0 && progress)
                    progress(overall());
            };
            QElapsedTimer wall;
            wall.start();
            done[static_cast<std::size_t>(job)] = HerdSimulator::run(experiment, policy.policy, seed, cancel, step);
            wallMs[static_cast<std::size_t>(job)] = double(wall.nsecsElapsed()) / 1e6;
            share[static_cast<std::size_t>(worker)].store(0.0, std::memory_order_relaxed);
            finished.fetch_add(1);
            if (worker == 0 && progress)
                progress(overall());
        }
    };
    std::vector<std::thread> helpers;
    for (int w = 1; w < workers; ++w)
        helpers.emplace_back(work, w);
    work(0);
    // The others may still be running: keep reporting until they are done.
    while (finished.load() < jobs && !(cancel && cancel->load())) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        if (progress)
            progress(overall());
    }
    for (std::thread& t : helpers)
        t.join();
    if (cancel && cancel->load()) {
        result.cancelled = true;
        return result;
    }

    for (int p = 0; p < policies; ++p) {
        HerdPolicyResult out;
        out.label = experiment.policies.at(p).label;
        out.clients = experiment.clients.clients;
        out.runs = runs;
        for (int r = 0; r < runs; ++r) {
            const std::size_t job = static_cast<std::size_t>(p * runs + r);
            addScaled(out.totals, done[job].totals, 1.0 / runs);
            out.wallMs += wallMs[job];
        }
        const HerdRun& first = done[static_cast<std::size_t>(p * runs)];
        out.series = first.series;
        out.recovered = first.recovered;
        out.collapsedAt = first.collapsedAt;
        out.goodput = first.goodput;
        result.results.append(out);
    }
    return result;
}
