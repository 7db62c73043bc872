// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The real clock and scheduler a UI test hands the window (the program gets its pair from app/main.cpp).

#include "engine/clock.h"
#include "engine/timerscheduler.h"

struct TestTime
{
    ElapsedClock clock;
    TimerScheduler scheduler { clock };

    static TestTime& instance()
    {
        static TestTime time;
        return time;
    }
};
