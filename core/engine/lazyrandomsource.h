// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/randomsource.h"

#include <cstdint>
#include <optional>

// A run's seeded random source, seeded on the first draw: most runs succeed at once and never draw, and
// seeding a mt19937_64 per run is a measurable part of the engine's per-request overhead. The draws are
// the same as SeededRandomSource(seed)'s.
class LazyRandomSource final : public RandomSource
{
public:
    explicit LazyRandomSource(std::uint64_t seed)
        : m_seed(seed)
    {
    }
    double uniform01() override
    {
        if (!m_source)
            m_source.emplace(m_seed);
        return m_source->uniform01();
    }

private:
    std::uint64_t m_seed;
    std::optional<SeededRandomSource> m_source;
};
