// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/timerscheduler.h"

#include <QTimer>

#include <algorithm>

TimerScheduler::TimerScheduler(const Clock& clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
{
}

TimerScheduler::~TimerScheduler()
{
    qDeleteAll(m_timers);
}

Scheduler::TaskId TimerScheduler::scheduleAt(MonoTime due, std::function<void()> task)
{
    const TaskId id = m_next++;
    auto* timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setTimerType(Qt::PreciseTimer);
    // Qt timers have millisecond resolution: round to the nearest millisecond, so lateness centres on zero.
    const auto remaining = std::max(MonoTime(0), due - m_clock.now());
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining + std::chrono::microseconds(500));
    timer->setInterval(ms);
    connect(timer, &QTimer::timeout, this, [this, id, task = std::move(task)] {
        QTimer* t = m_timers.take(id);
        if (!t)
            return;
        t->deleteLater();
        task();
    });
    m_timers.insert(id, timer);
    timer->start();
    return id;
}

void TimerScheduler::cancel(TaskId id)
{
    if (QTimer* t = m_timers.take(id)) {
        t->stop();
        t->deleteLater();
    }
}
