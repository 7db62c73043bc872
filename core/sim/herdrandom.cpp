// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdrandom.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace {

std::uint64_t splitmix(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

} // namespace


std::uint64_t HerdRandom::next()
{
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double HerdRandom::exponential(double mean)
{
    return -mean * std::log1p(-uniform01());
}

namespace {

// The standard normal's quantile function at 4 096 evenly spaced points, found once by bisection on erfc;
// a draw interpolates between two of them. A hop's |N(10 ms, 2 ms)| is drawn millions of times per second of
// wall time: a table and a multiply-add instead of a logarithm and a square root each (the peer comparison
// of issue 29 §4). The tails beyond the table's ends (|z| > 3.7, one draw in 4 096) are drawn exactly.
constexpr int kCells = HerdRandom::kCells;

double quantileExact(double p)
{
    double low = -40.0;
    double high = 40.0;
    for (int i = 0; i < 200 && high - low > 1e-13; ++i) {
        const double mid = 0.5 * (low + high);
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

const std::array<double, kCells + 1>& quantileTable()
{
    static const std::array<double, kCells + 1> table = [] {
        std::array<double, kCells + 1> t {};
        for (int i = 1; i < kCells; ++i)
            t[std::size_t(i)] = quantileExact(double(i) / kCells);
        return t;
    }();
    return table;
}

} // namespace

HerdRandom::HerdRandom(std::uint64_t seed)
    : m_quantiles(quantileTable().data())
{
    for (std::uint64_t& s : m_s)
        s = splitmix(seed);
}

double HerdRandom::tailQuantile(int cell)
{
    const double p = std::clamp((double(cell) + uniform01()) / kCells, 1e-300, 1.0 - 1e-16);
    return quantileExact(p);
}

double HerdRandom::draw(const HerdDistribution& distribution)
{
    switch (distribution.kind) {
    case HerdDistribution::Kind::Fixed:
        return std::max(0.0, distribution.meanMs);
    case HerdDistribution::Kind::Exponential:
        return distribution.meanMs > 0 ? exponential(distribution.meanMs) : 0.0;
    case HerdDistribution::Kind::Normal:
        return std::abs(normal(distribution.meanMs, distribution.sdMs));
    }
    return 0.0;
}
