// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/manualscheduler.h"

#include <algorithm>

Scheduler::TaskId ManualScheduler::scheduleAt(MonoTime due, std::function<void()> task)
{
    const TaskId id = m_next++;
    m_tasks.emplace(std::make_pair(std::max(due, m_clock.now()), id), std::move(task));
    return id;
}

void ManualScheduler::cancel(TaskId id)
{
    for (auto it = m_tasks.begin(); it != m_tasks.end(); ++it) {
        if (it->first.second == id) {
            m_tasks.erase(it);
            return;
        }
    }
}

bool ManualScheduler::runNext()
{
    if (m_tasks.empty())
        return false;
    auto it = m_tasks.begin();
    auto task = std::move(it->second);
    m_clock.setNow(std::max(m_clock.now(), it->first.first));
    m_tasks.erase(it);
    task();
    return true;
}

void ManualScheduler::advanceBy(MonoTime d)
{
    const MonoTime target = m_clock.now() + d;
    while (!m_tasks.empty() && m_tasks.begin()->first.first <= target)
        runNext();
    m_clock.setNow(target);
}

std::optional<MonoTime> ManualScheduler::nextDue() const
{
    if (m_tasks.empty())
        return std::nullopt;
    return m_tasks.begin()->first.first;
}
