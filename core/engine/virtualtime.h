// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Virtual time for work that needs no real waiting, such as an offline what-if replay: time runs with the
// real clock while something is in progress (an attempt on the wire: its phases and durations are real),
// and jumps ahead to the next task as soon as nothing is (a retry wait of 30 s takes no time at all). The
// attempts, decisions and delays are those of a real-time run; only the waiting is skipped.

#include "engine/scheduler.h"

#include <QObject>

#include <functional>
#include <map>
#include <utility>

class QTimer;

class VirtualClock final : public Clock
{
public:
    explicit VirtualClock(QDateTime wallAtOrigin = QDateTime::currentDateTimeUtc());
    MonoTime now() const override;
    QDateTime wallNow() const override;
    // Moves the clock forward to T (never backwards).
    void advanceTo(MonoTime t);
    MonoTime skipped() const { return m_skipped; } // how much waiting was left out

private:
    QElapsedTimer m_real;
    QDateTime m_wallOrigin;
    MonoTime m_skipped { 0 };
};

class VirtualScheduler final : public QObject, public Scheduler
{
    Q_OBJECT
public:
    explicit VirtualScheduler(VirtualClock& clock, QObject* parent = nullptr);
    ~VirtualScheduler() override;

    // BUSY says whether something is in progress in real time (then due tasks wait for the real clock);
    // while it is false, the clock jumps to the next task. Without it, time always jumps.
    void setBusy(std::function<bool()> busy) { m_busy = std::move(busy); }
    // Call when BUSY may have become false (e.g. an attempt ended), so waiting tasks run at once.
    void poke();

    TaskId scheduleAt(MonoTime due, std::function<void()> task) override;
    void cancel(TaskId id) override;
    const Clock& clock() const override { return m_clock; }
    int pending() const { return int(m_tasks.size()); }

private:
    void arm();
    void fire();

    VirtualClock& m_clock;
    std::function<bool()> m_busy;
    QTimer* m_timer = nullptr;
    TaskId m_next = 1;
    std::map<std::pair<MonoTime, TaskId>, std::function<void()>> m_tasks;
};
