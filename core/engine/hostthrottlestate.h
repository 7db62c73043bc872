// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the per-host throttle (RetryPolicy::hostThrottle) knows: for each host:port, until when the server
// said its quota is spent. The engine owns one, shared by every run; a run whose policy enables the
// throttle waits for the reset before sending any attempt to that host (the first one too), or fails fast
// without sending when the reset is beyond the policy's maxWait.

#include "engine/attemptrecord.h"

#include <QHash>
#include <QString>
#include <QUrl>

#include <optional>

// Why a host is throttled, and until when (on the engine clock).
struct HostReset
{
    MonoTime at { 0 };
    QString cause; // "RateLimit \"default\" remaining 0, reset in 2 s", "429 Retry-After 2 s"
};

// What the throttle says about sending to a host now.
struct ThrottleHold
{
    enum class Kind {
        Send, // nothing known, or the reset has passed
        Wait, // wait `wait`, then check again
        FailFast, // the reset is beyond the policy's maxWait: do not send
    };
    Kind kind = Kind::Send;
    Millis wait { 0 }; // until the reset, rounded up to whole milliseconds
    QString cause; // the HostReset's cause
};

class HostThrottleState
{
public:
    // "127.0.0.1:8080"; default ports filled in (80, 443).
    static QString hostKey(const QUrl& url);

    // What ATTEMPT's answer says about the host's quota: the most restrictive rate-limit policy at
    // remaining 0 with a reset, or a 429/503 with a Retry-After. Absent when it says neither.
    static std::optional<HostReset> reportedReset(const AttemptRecord& attempt, MonoTime receivedAt);

    // Remembers RESET for HOST; a later reset already known is kept (the server's latest word never
    // shortens a wait another answer asked for).
    void note(const QString& host, const HostReset& reset);
    // Time left until HOST's reset, when it is in the future.
    std::optional<MonoTime> resetIn(const QString& host, MonoTime now) const;
    std::optional<HostReset> resetOf(const QString& host) const;
    // Whether an attempt to URL may go out NOW under THROTTLE (a disabled throttle always sends).
    ThrottleHold check(const QUrl& url, const HostThrottle& throttle, MonoTime now) const;
    void clear() { m_resets.clear(); }
    bool isEmpty() const { return m_resets.isEmpty(); }

private:
    QHash<QString, HostReset> m_resets;
};
