// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/randomsource.h"

#include <algorithm>
#include <utility>

double RandomSource::uniform(double low, double high)
{
    if (high < low)
        std::swap(low, high);
    return low + (high - low) * uniform01();
}

SeededRandomSource::SeededRandomSource(std::uint64_t seed)
    : m_seed(seed)
    , m_engine(seed)
{
}

double SeededRandomSource::uniform01()
{
    // 53 random bits → a double in [0, 1), identical on every platform (unlike std::uniform_real_distribution).
    return double(m_engine() >> 11) * 0x1.0p-53;
}

FixedRandomSource::FixedRandomSource(QList<double> values)
    : m_values(std::move(values))
{
    if (m_values.isEmpty())
        m_values << 0.5;
}

double FixedRandomSource::uniform01()
{
    const double value = m_values.at(m_draws % m_values.size());
    ++m_draws;
    return std::clamp(value, 0.0, 1.0);
}
