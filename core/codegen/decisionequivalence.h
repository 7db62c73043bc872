// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whether two policies decide alike (issue 30): what a generator asks before it writes a target's native
// options instead of code, and what the import round trips assert. Two policies decide alike when
// explain() gives the same verdict and the same wait range for every method (POST with and without an
// idempotency key), status and error class, at every attempt, with no Retry-After and with one of 0, 3 and
// 200 seconds or an HTTP-date, after a lost answer or not; and when the parts explain() does not show are
// equal: limits, idempotency keys, quota, throttling, host throttle, pipeline, and the answer fields the
// rules and hints read (a body path or a header the probes never send).

#include "policy/retrypolicy.h"

#include <QString>

// Empty when A and B decide alike; otherwise one sentence naming the first difference found, e.g.
// "503 on GET with Retry-After: 3 at attempt 2: retry after 3 s / stop (not retryable)".
QString firstDecisionDifference(const RetryPolicy& a, const RetryPolicy& b);
