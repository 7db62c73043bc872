// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultroute.h"

#include <QRandomGenerator>

// Chooses which step of a route answers the next request: in order (each step `repeat` times, the last
// step then repeating), looping over the list, or drawn at random by weight from a seeded generator so a
// run is reproducible.
class StepPlayer
{
public:
    StepPlayer() = default;
    StepPlayer(const FaultRoute& route, quint64 seed);

    // Index into route.steps of the step for the next request; -1 when the route has no steps.
    qsizetype next();
    // What next() would return now, without moving on (a request's step chosen at its head: faultserver.cpp).
    qsizetype peek() const { return StepPlayer(*this).next(); }
    int played() const { return m_played; } // how many requests the route has answered with a step
    int playsOf(qsizetype step) const { return m_plays.value(step); } // how many of them step STEP answered
    void reset();

private:
    qsizetype choose();

    QList<int> m_repeats;
    QList<int> m_weights;
    QList<int> m_plays; // per step
    FaultRoute::Mode m_mode = FaultRoute::Mode::Sequence;
    quint64 m_seed = 0;
    QRandomGenerator m_random;
    qsizetype m_index = 0;
    int m_usedOfCurrent = 0;
    int m_played = 0;
};
