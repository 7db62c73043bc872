// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/stepplayer.h"

StepPlayer::StepPlayer(const FaultRoute& route, quint64 seed)
    : m_mode(route.mode)
    , m_seed(seed)
{
    for (const FaultStep& step : route.steps) {
        m_repeats << step.repeat;
        m_weights << std::max(0, step.weight);
    }
    reset();
}

void StepPlayer::reset()
{
    m_random.seed(static_cast<quint32>(m_seed ^ (m_seed >> 32)));
    m_index = 0;
    m_usedOfCurrent = 0;
    m_played = 0;
    m_plays.fill(0, m_repeats.size());
}

qsizetype StepPlayer::next()
{
    const qsizetype chosen = choose();
    if (chosen >= 0)
        ++m_plays[chosen];
    return chosen;
}

qsizetype StepPlayer::choose()
{
    if (m_repeats.isEmpty())
        return -1;
    ++m_played;
    if (m_mode == FaultRoute::Mode::Random) {
        int total = 0;
        for (int w : m_weights)
            total += w;
        if (total <= 0)
            return 0;
        int draw = static_cast<int>(m_random.bounded(static_cast<quint32>(total)));
        for (qsizetype i = 0; i < m_weights.size(); ++i) {
            if (draw < m_weights.at(i))
                return i;
            draw -= m_weights.at(i);
        }
        return m_weights.size() - 1;
    }
    const qsizetype current = m_index;
    const int repeat = m_repeats.at(current);
    ++m_usedOfCurrent;
    if (repeat >= 0 && m_usedOfCurrent >= repeat) {
        const bool last = m_index + 1 >= m_repeats.size();
        if (!last) {
            ++m_index;
            m_usedOfCurrent = 0;
        } else if (m_mode == FaultRoute::Mode::Loop) {
            m_index = 0;
            m_usedOfCurrent = 0;
        }
        // Sequence: the last step keeps answering.
    }
    return current;
}
