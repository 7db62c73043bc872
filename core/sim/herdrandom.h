// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulator's randomness: one fast generator (xoshiro256**, seeded through splitmix64) for hops, service
// times, arrivals and errors, and as the RandomSource the policy's jitter draws from. One per run, so a run
// is a function of its seed.

#include "policy/randomsource.h"
#include "sim/herdexperiment.h"

#include <cstdint>

class HerdRandom final : public RandomSource
{
public:
    explicit HerdRandom(std::uint64_t seed);
    double uniform01() override { return double(next() >> 11) * 0x1.0p-53; }
    std::uint64_t next();
    double exponential(double mean); // mean · −ln(1 − U)
    // By the quantile function: a table of 4 096 points interpolated, exact in the outermost cells (the
    // tails). Inline: a hop is drawn four times an attempt.
    double normal(double mean, double sd)
    {
        const double position = uniform01() * kCells;
        const int cell = int(position);
        if (cell == 0 || cell == kCells - 1) [[unlikely]]
            return mean + sd * tailQuantile(cell);
        const double low = m_quantiles[cell];
        return mean + sd * (low + (position - double(cell)) * (m_quantiles[cell + 1] - low));
    }
    double draw(const HerdDistribution& distribution); // milliseconds, never negative

    static constexpr int kCells = 4096;

private:
    double tailQuantile(int cell); // the exact quantile at a fresh point of an outermost cell
    std::uint64_t m_s[4];
    const double* m_quantiles; // kCells + 1 points of the standard normal's quantile function
};
