// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/clock.h"

// A clock tests move by hand (ManualScheduler moves it as it fires tasks).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime wallAtOrigin = QDateTime(QDate(2025, 1, 1), QTime(0, 0), Qt::UTC))
        : m_wallOrigin(std::move(wallAtOrigin))
    {
    }
    MonoTime now() const override { return m_now; }
    QDateTime wallNow() const override
    {
        return m_wallOrigin.addMSecs(std::chrono::duration_cast<std::chrono::milliseconds>(m_now).count());
    }
    void setNow(MonoTime t) { m_now = t; }
    void advance(MonoTime d) { m_now += d; }

private:
    QDateTime m_wallOrigin;
    MonoTime m_now { 0 };
};
