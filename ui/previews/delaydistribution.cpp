// SPDX-License-Identifier: GPL-3.0-or-later
#include "previews/delaydistribution.h"

#include "policy/backoff.h"
#include "policy/randomsource.h"

#include <algorithm>
#include <cmath>

DelayDistribution DelayDistribution::compute(const RetryPolicy& policy, int samples)
{
    DelayDistribution d;
    const int retries = std::clamp(policy.maxRetries(), 1, maxRetriesShown);
    QList<double> sums(retries, 0.0);
    QList<int> counts(retries, 0);
    QList<double> drawn;
    drawn.reserve(samples);
    SeededRandomSource rng(20260101);
    while (drawn.size() < samples) {
        BackoffState state;
        for (int n = 0; n < retries && drawn.size() < samples; ++n) {
            const DelayDraw draw = drawBackoff(policy.backoff, policy.jitter, state, rng);
            const double ms = double(draw.delay.count());
            drawn << ms;
            sums[n] += ms;
            ++counts[n];
        }
    }
    for (int n = 0; n < retries; ++n) {
        const auto [low, high] = backoffRange(policy.backoff, policy.jitter, n + 1);
        d.bands << Band { n + 1, double(low.count()), double(high.count()), counts.at(n) ? sums.at(n) / counts.at(n) : 0.0 };
    }
    d.samples = int(drawn.size());
    d.maxSampleMs = drawn.isEmpty() ? 0.0 : *std::max_element(drawn.cbegin(), drawn.cend());
    d.binWidthMs = d.maxSampleMs > 0 ? d.maxSampleMs / bins : 1.0;
    d.histogram = QList<int>(bins, 0);
    for (double ms : std::as_const(drawn)) {
        const int bin = std::clamp(int(std::floor(ms / d.binWidthMs)), 0, bins - 1);
        ++d.histogram[bin];
    }
    return d;
}
