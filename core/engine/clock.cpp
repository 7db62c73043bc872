// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/clock.h"

ElapsedClock::ElapsedClock()
{
    m_origin.start();
}

MonoTime ElapsedClock::now() const
{
    return MonoTime(m_origin.nsecsElapsed());
}

QDateTime ElapsedClock::wallNow() const
{
    return QDateTime::currentDateTimeUtc();
}
