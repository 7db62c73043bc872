// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The spellings of a refused call's facts in a session file (session-format.md: refused_by, refused_state):
// the strategy that refused it, by its pipeline name, and the circuit's state, as stateName() says it.

#include "engine/attemptrecord.h"

#include <QByteArrayView>

#include <optional>

inline QByteArrayView refusalBy(StrategyRefusal::By by)
{
    return by == StrategyRefusal::By::RateLimiter ? QByteArrayView("rate_limiter") : QByteArrayView("circuit_breaker");
}

inline std::optional<StrategyRefusal::By> refusalByFromName(QByteArrayView name)
{
    for (const auto by : { StrategyRefusal::By::CircuitBreaker, StrategyRefusal::By::RateLimiter })
        if (refusalBy(by) == name)
            return by;
    return std::nullopt;
}

// A hedged copy's trigger (session-format.md: hedge), as hedgeTriggerName() says it.
inline QByteArrayView hedgeTriggers(HedgeFacts::Trigger trigger)
{
    switch (trigger) {
    case HedgeFacts::Trigger::First: return "first";
    case HedgeFacts::Trigger::Delay: return "delay";
    case HedgeFacts::Trigger::Failure: return "failure";
    case HedgeFacts::Trigger::Parallel: return "parallel";
    }
    return {};
}

inline std::optional<HedgeFacts::Trigger> hedgeTriggerFromName(QByteArrayView name)
{
    for (const auto t : { HedgeFacts::Trigger::First, HedgeFacts::Trigger::Delay, HedgeFacts::Trigger::Failure, HedgeFacts::Trigger::Parallel })
        if (hedgeTriggers(t) == name)
            return t;
    return std::nullopt;
}

inline QByteArrayView breakerStates(CircuitBreaker::State state)
{
    switch (state) {
    case CircuitBreaker::State::Closed: return "closed";
    case CircuitBreaker::State::Open: return "open";
    case CircuitBreaker::State::HalfOpen: return "half-open";
    }
    return {};
}

inline std::optional<CircuitBreaker::State> breakerStateFromName(QByteArrayView name)
{
    for (const auto state : { CircuitBreaker::State::Closed, CircuitBreaker::State::Open, CircuitBreaker::State::HalfOpen })
        if (breakerStates(state) == name)
            return state;
    return std::nullopt;
}
