// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "support/manualclock.h"
#include "engine/scheduler.h"

#include <map>
#include <utility>

// A scheduler for tests: nothing runs until the test advances time; tasks then run in due order (ties in
// scheduling order), each with the clock set to its due time.
class ManualScheduler final : public Scheduler
{
public:
    explicit ManualScheduler(ManualClock& clock)
        : m_clock(clock)
    {
    }

    TaskId scheduleAt(MonoTime due, std::function<void()> task) override;
    void cancel(TaskId id) override;
    const Clock& clock() const override { return m_clock; }

    // Runs every task due up to NOW + D (including tasks scheduled by tasks), then sets the clock there.
    void advanceBy(MonoTime d);
    // Runs the earliest task (moving the clock to its due time); false when none is pending.
    bool runNext();
    int pending() const { return int(m_tasks.size()); }
    std::optional<MonoTime> nextDue() const;

private:
    ManualClock& m_clock;
    TaskId m_next = 1;
    std::map<std::pair<MonoTime, TaskId>, std::function<void()>> m_tasks;
};
