// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/virtualtime.h"

#include <QTimer>

#include <algorithm>

VirtualClock::VirtualClock(QDateTime wallAtOrigin)
    : m_wallOrigin(std::move(wallAtOrigin))
{
    m_real.start();
}

MonoTime VirtualClock::now() const
{
    return MonoTime(m_real.nsecsElapsed()) + m_skipped;
}

QDateTime VirtualClock::wallNow() const
{
    return m_wallOrigin.addMSecs(std::chrono::duration_cast<std::chrono::milliseconds>(now()).count());
}

void VirtualClock::advanceTo(MonoTime t)
{
    const MonoTime current = now();
    if (t > current)
        m_skipped += t - current;
}

VirtualScheduler::VirtualScheduler(VirtualClock& clock, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &VirtualScheduler::fire);
}

VirtualScheduler::~VirtualScheduler() = default;

Scheduler::TaskId VirtualScheduler::scheduleAt(MonoTime due, std::function<void()> task)
{
    const TaskId id = m_next++;
    m_tasks.emplace(std::pair { due, id }, std::move(task));
    arm();
    return id;
}

void VirtualScheduler::cancel(TaskId id)
{
    for (auto it = m_tasks.begin(); it != m_tasks.end(); ++it) {
        if (it->first.second == id) {
            m_tasks.erase(it);
            break;
        }
    }
    arm();
}

void VirtualScheduler::poke()
{
    arm();
}

// Tasks always run from the event loop, never inside scheduleAt() or cancel() (as with TimerScheduler).
void VirtualScheduler::arm()
{
    if (m_tasks.empty()) {
        m_timer->stop();
        return;
    }
    const bool busy = m_busy && m_busy();
    const MonoTime wait = busy ? std::max(MonoTime(0), m_tasks.begin()->first.first - m_clock.now()) : MonoTime(0);
    m_timer->start(std::chrono::ceil<std::chrono::milliseconds>(wait));
}

void VirtualScheduler::fire()
{
    if (m_tasks.empty())
        return;
    const MonoTime due = m_tasks.begin()->first.first;
    if (m_busy && m_busy() && due > m_clock.now()) {
        arm(); // woken early (a poke while still busy): wait on for the real clock
        return;
    }
    m_clock.advanceTo(due);
    auto node = m_tasks.extract(m_tasks.begin());
    node.mapped()();
    arm();
}
