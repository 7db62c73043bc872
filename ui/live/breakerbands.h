// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The timeline's breaker bands (issue 28 §4): one per policy and scope whose pipeline circuit breaker
// changed state, each its states over time as segments — closed, open, half-open — built from the session's
// breaker changes as they are shown. The state before a band's first change is that change's `from`,
// drawn from where the timeline starts; the last segment has no end yet (drawn up to "now", or to the
// playhead). A handful of segments a band: a session's breakers change state a few times, not per call.
// No widgets here: tested on its own.

#include "engine/breakerchange.h"

#include <QList>
#include <QString>

#include <limits>

struct BreakerSegment
{
    static constexpr double kNoEnd = std::numeric_limits<double>::infinity();
    CircuitBreaker::State state = CircuitBreaker::State::Closed;
    double startMs = 0;
    double endMs = kNoEnd; // kNoEnd: the breaker is still in this state
    qsizetype change = -1; // the session's breaker change that began it; -1: the state before the first
};

struct BreakerBand
{
    QString policy;
    QString scope;
    QList<BreakerSegment> segments; // in time order, each ending where the next begins
};

// "Closed", "Open", "Half-open" (translated), as a label and at the start of a sentence.
QString breakerStateLabel(CircuitBreaker::State state);

class BreakerBands
{
public:
    void clear() { m_bands.clear(); }
    // Changes [FROM, TO) of CHANGES (the session's, in the order they happened); START_MS: where the state
    // before a band's first change is drawn from.
    void add(const QList<BreakerChange>& changes, qsizetype from, qsizetype to, double startMs);

    int count() const { return int(m_bands.size()); }
    bool isEmpty() const { return m_bands.isEmpty(); }
    const BreakerBand& band(int i) const { return m_bands.at(i); }
    // The segment of band BAND at MS (its start included, its end not), -1 when none.
    int segmentAt(int band, double ms) const;
    // The first segment of band BAND that ends after MS: where a view of [MS, …] starts drawing.
    int firstEndingAfter(int band, double ms) const;

private:
    QList<BreakerBand> m_bands; // in the order their first change came
};
