// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One change of a pipeline circuit breaker's state as a run saw it (issue 28 §2: the breaker's state over
// time is part of the session): which policy's breaker, for which scope, when, from what to what, the
// window's counts at that moment (an opening's evidence) and, for an opening, how long the break is.

#include "engine/clock.h"
#include "policy/resilience/circuitbreaker.h"

#include <QMetaType>
#include <QString>

struct BreakerChange
{
    QString policy; // the policy's name
    QString scope; // "client", or the authority the breaker guards ("127.0.0.1:8080")
    MonoTime at { 0 }; // on the session axis
    CircuitBreaker::State from = CircuitBreaker::State::Closed;
    CircuitBreaker::State to = CircuitBreaker::State::Closed;
    CircuitBreaker::Counts window;
    Millis breakFor { 0 };
    friend bool operator==(const BreakerChange&, const BreakerChange&) = default;
};

Q_DECLARE_METATYPE(BreakerChange)
