// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulator's future events, earliest first: a 4-ary min-heap on the event's time. Half the depth of a
// binary heap, its four children side by side in one cache line, so a pop costs about four comparisons a
// level and few mispredicted branches: with millions of events per second it is where the time goes
// (issue 29 §4, measured with bench_herd). Events at the same time leave in an order the heap's history
// fixes: a run stays a function of its seed.

#include <cstdint>
#include <vector>

template<typename Event>
class HerdEventQueue
{
public:
    bool empty() const { return m_heap.empty(); }
    std::size_t size() const { return m_heap.size(); }
    void reserve(std::size_t n) { m_heap.reserve(n); }

    void push(const Event& e)
    {
        std::size_t hole = m_heap.size();
        m_heap.push_back(e);
        while (hole > 0) {
            const std::size_t parent = (hole - 1) / 4;
            if (!(e.at < m_heap[parent].at))
                break;
            m_heap[hole] = m_heap[parent];
            hole = parent;
        }
        m_heap[hole] = e;
    }

    Event pop()
    {
        const Event top = m_heap.front();
        const Event last = m_heap.back();
        m_heap.pop_back();
        const std::size_t n = m_heap.size();
        if (n == 0)
            return top;
        std::size_t hole = 0;
        for (;;) {
            const std::size_t first = 4 * hole + 1;
            if (first >= n)
                break;
            std::size_t best = first;
            if (first + 3 < n) {
                // Four children: a tournament of selects the compiler turns into conditional moves (a
                // data-dependent branch here was mispredicted half the time).
                const auto t0 = m_heap[first].at;
                const auto t1 = m_heap[first + 1].at;
                const auto t2 = m_heap[first + 2].at;
                const auto t3 = m_heap[first + 3].at;
                const std::size_t i01 = t1 < t0 ? first + 1 : first;
                const auto m01 = t1 < t0 ? t1 : t0;
                const std::size_t i23 = t3 < t2 ? first + 3 : first + 2;
                const auto m23 = t3 < t2 ? t3 : t2;
                best = m23 < m01 ? i23 : i01;
            } else {
                for (std::size_t c = first + 1; c < n; ++c)
                    best = m_heap[c].at < m_heap[best].at ? c : best;
            }
            if (!(m_heap[best].at < last.at))
                break;
            m_heap[hole] = m_heap[best];
            hole = best;
        }
        m_heap[hole] = last;
        return top;
    }

private:
    std::vector<Event> m_heap;
};
