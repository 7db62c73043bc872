// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/resilience/breakerpresets.h"

namespace BreakerPresets {

using O = CircuitBreakerOptions;

CircuitBreakerOptions polly8()
{
    return {}; // the options' defaults are Polly 8's
}

CircuitBreakerOptions resilience4j2()
{
    O o;
    o.window = O::Window::Count;
    o.windowCalls = 100;
    o.failureRatio = 0.5;
    o.comparator = O::Comparator::AtLeast;
    o.minimumCalls = 100;
    o.judgeAfterSuccess = true;
    o.breakDuration = Millis { 60000 };
    o.halfOpenProbes = 10;
    o.halfOpenCallers = O::HalfOpenCallers::Rejected;
    o.transition = O::Transition::Lazy;
    return o;
}

CircuitBreakerOptions cockatiel3Consecutive(int failures, Millis halfOpenAfter)
{
    O o;
    o.window = O::Window::Consecutive;
    o.consecutiveFailures = failures;
    o.breakDuration = halfOpenAfter;
    o.halfOpenProbes = 1;
    o.halfOpenCallers = O::HalfOpenCallers::Wait;
    o.transition = O::Transition::Lazy;
    return o;
}

CircuitBreakerOptions opossum9()
{
    O o;
    o.window = O::Window::Time;
    o.samplingDuration = Millis { 10000 };
    o.buckets = 10;
    o.bucketStart = O::BucketStart::Fixed;
    o.failureRatio = 0.5;
    o.comparator = O::Comparator::Above;
    o.minimumCalls = 0;
    o.countRejected = true;
    o.resetOnClose = false;
    o.breakDuration = Millis { 30000 };
    o.halfOpenProbes = 1;
    o.halfOpenCallers = O::HalfOpenCallers::Rejected;
    o.transition = O::Transition::Timer;
    return o;
}

} // namespace BreakerPresets
