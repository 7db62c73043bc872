// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdlatency.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr double kLowest = 0.001; // ms
constexpr double kGrowth = 1.01;
const double kLogGrowth = std::log(kGrowth);
constexpr int kBuckets = 2600; // 0.001 · 1.01^2600 ≈ 1.7·10⁸ ms

int bucketOf(double ms)
{
    if (!(ms > kLowest))
        return 0;
    return std::min(kBuckets - 1, 1 + int(std::log(ms / kLowest) / kLogGrowth));
}

} // namespace

HerdLatency::HerdLatency()
    : m_buckets(kBuckets, 0)
{
}

void HerdLatency::add(double ms)
{
    ++m_buckets[std::size_t(bucketOf(ms))];
    ++m_count;
}

double HerdLatency::quantile(double q) const
{
    if (m_count == 0)
        return 0;
    const auto rank = std::uint64_t(std::ceil(std::clamp(q, 0.0, 1.0) * double(m_count)));
    std::uint64_t seen = 0;
    for (int b = 0; b < kBuckets; ++b) {
        seen += m_buckets[std::size_t(b)];
        if (seen >= std::max<std::uint64_t>(rank, 1)) {
            if (b == 0)
                return 0;
            // The bucket's geometric middle: [0.001·1.01^(b−1), 0.001·1.01^b).
            return kLowest * std::pow(kGrowth, double(b) - 0.5);
        }
    }
    return kLowest * std::pow(kGrowth, double(kBuckets));
}
