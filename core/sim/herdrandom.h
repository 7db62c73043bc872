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
    double normal(double mean, double sd); // by the quantile function (a table, exact in the tails)
    double draw(const HerdDistribution& distribution); // milliseconds, never negative

private:
    std::uint64_t m_s[4];
};
