// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

#include <cstdint>
#include <random>

// Where jitter comes from. Injected everywhere so a test pins every draw and a replay reproduces a run.
class RandomSource
{
public:
    virtual ~RandomSource() = default;
    // A uniform draw in [0, 1).
    virtual double uniform01() = 0;
    // U(low, high); high < low is swapped.
    double uniform(double low, double high);
};

// Reproducible pseudo-random draws from a 64-bit seed (the seed a run records).
class SeededRandomSource final : public RandomSource
{
public:
    explicit SeededRandomSource(std::uint64_t seed);
    double uniform01() override;
    std::uint64_t seed() const { return m_seed; }

private:
    std::uint64_t m_seed;
    std::mt19937_64 m_engine;
};

// Plays back fixed values in order, cycling when exhausted (tests pin exact delays with it).
class FixedRandomSource final : public RandomSource
{
public:
    explicit FixedRandomSource(QList<double> values);
    double uniform01() override;
    int draws() const { return m_draws; }

private:
    QList<double> m_values;
    int m_draws = 0;
};
