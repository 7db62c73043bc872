// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a task at a point of monotonic time. The engine decides, then schedules: it never waits itself.

#include "engine/clock.h"

#include <QtGlobal>

#include <functional>

class Scheduler
{
public:
    using TaskId = quint64;
    virtual ~Scheduler() = default;
    // Runs TASK once when the clock reaches DUE (at once, from the event loop, if DUE has passed).
    virtual TaskId scheduleAt(MonoTime due, std::function<void()> task) = 0;
    // Forgets a task; a cancelled task never runs. Unknown or finished ids are ignored.
    virtual void cancel(TaskId id) = 0;
    virtual const Clock& clock() const = 0;
};
