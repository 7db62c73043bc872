// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The libraries' circuit breakers with their defaults, read from their sources (resilience-fleets.md §1;
// the versions are those of its table): what the pipeline presets of issue 28 §3 are built from.

#include "policy/resilience/circuitbreakeroptions.h"

namespace BreakerPresets {

// Polly 8 CircuitBreakerStrategyOptions (src/Polly.Core/CircuitBreaker/*), also the breaker of
// Microsoft.Extensions.Http.Resilience's standard handler: failures/throughput ≥ 0.1 once 100 calls are in
// a 30 s window of 10 buckets, judged on a failure; a 5 s break; one probe, other callers refused; lazy.
CircuitBreakerOptions polly8();
// resilience4j 2 CircuitBreakerConfig (CircuitBreakerConfig.java, CircuitBreakerStateMachine.java): the
// last 100 calls, ≥ 50 % once 100 are in, judged after every call; 60 s in open; 10 calls permitted in
// half-open, judged on their rate; lazy.
CircuitBreakerOptions resilience4j2();
// cockatiel 3.2.1 circuitBreaker(policy, { halfOpenAfter, breaker: new ConsecutiveBreaker(n) })
// (dist/CircuitBreakerPolicy.js, breaker/ConsecutiveBreaker.js): opens at n failures in a row; after
// halfOpenAfter the next call is the probe and callers meanwhile wait for its verdict. The README's example
// is 5 failures and 10 s.
CircuitBreakerOptions cockatiel3Consecutive(int failures = 5, Millis halfOpenAfter = Millis { 10000 });
// opossum 9.0.0 defaults (lib/circuit.js, lib/status.js): failures/fires > 50 % (every call made counts as a
// fire, refused ones too) with no least volume, over 10 buckets turning each second from creation and kept
// when the breaker closes; a 30 s reset timer, then one probe, others refused.
CircuitBreakerOptions opossum9();

} // namespace BreakerPresets
