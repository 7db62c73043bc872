// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the engine reads time. Monotonic time is measured from one session origin, so every timestamp of a
// session (client attempts, waits, the lab's events) sits on the same axis.

#include <QDateTime>
#include <QElapsedTimer>

#include <chrono>

using MonoTime = std::chrono::nanoseconds; // since the clock's origin

class Clock
{
public:
    virtual ~Clock() = default;
    virtual MonoTime now() const = 0;
    // Wall-clock time in UTC (HTTP-date Retry-After values are measured against it).
    virtual QDateTime wallNow() const = 0;
};

// The real clock: QElapsedTimer (monotonic on Linux) started at construction.
class ElapsedClock final : public Clock
{
public:
    ElapsedClock();
    MonoTime now() const override;
    QDateTime wallNow() const override;
    // The QElapsedTimer origin, so the lab can share the axis.
    const QElapsedTimer& origin() const { return m_origin; }

private:
    QElapsedTimer m_origin;
};

// Milliseconds with a fraction, for logs and exports.
inline double toMs(MonoTime t)
{
    return std::chrono::duration<double, std::milli>(t).count();
}
