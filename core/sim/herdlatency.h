// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Latency percentiles in constant memory: a histogram of buckets 1 % wide on a log scale from 1 µs to 10⁸ ms,
// so a million requests cost the same few kilobytes as ten (the 256-byte-per-client budget, issue 29 §4).

#include <cstdint>
#include <vector>

class HerdLatency
{
public:
    HerdLatency();
    void add(double ms);
    double quantile(double q) const; // 0 when empty; within 1 % of the exact value
    std::uint64_t count() const { return m_count; }

private:
    std::vector<std::uint64_t> m_buckets;
    std::uint64_t m_count = 0;
};
