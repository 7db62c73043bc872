// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/scheduler.h"

#include <QHash>
#include <QObject>

class QTimer;

// The real scheduler: one single-shot Qt::PreciseTimer per task, on the thread that owns it.
class TimerScheduler final : public QObject, public Scheduler
{
    Q_OBJECT
public:
    explicit TimerScheduler(const Clock& clock, QObject* parent = nullptr);
    ~TimerScheduler() override;

    TaskId scheduleAt(MonoTime due, std::function<void()> task) override;
    void cancel(TaskId id) override;
    const Clock& clock() const override { return m_clock; }
    int pending() const { return int(m_timers.size()); }

private:
    const Clock& m_clock;
    TaskId m_next = 1;
    QHash<TaskId, QTimer*> m_timers;
};
