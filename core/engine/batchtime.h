// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A batch's own time axis on the program's clock and scheduler: t = 0 when the batch begins, so every
// timestamp of its session (attempts, waits, the lab's events) counts from there, while the clock and the
// scheduler themselves stay the ones injected (only app/main.cpp builds the real pair).

#include "engine/scheduler.h"

class BatchClock final : public Clock
{
public:
    explicit BatchClock(const Clock& base)
        : m_base(base)
        , m_start(base.now())
    {
    }
    MonoTime now() const override { return m_base.now() - m_start; }
    QDateTime wallNow() const override { return m_base.wallNow(); }
    MonoTime start() const { return m_start; } // on the base clock

private:
    const Clock& m_base;
    MonoTime m_start;
};

// Schedules on BASE, translating due times from the batch's axis to the base clock's.
class BatchScheduler final : public Scheduler
{
public:
    BatchScheduler(Scheduler& base, const BatchClock& clock)
        : m_base(base)
        , m_clock(clock)
    {
    }
    TaskId scheduleAt(MonoTime due, std::function<void()> task) override
    {
        return m_base.scheduleAt(due + m_clock.start(), std::move(task));
    }
    void cancel(TaskId id) override { m_base.cancel(id); }
    const Clock& clock() const override { return m_clock; }

private:
    Scheduler& m_base;
    const BatchClock& m_clock;
};
