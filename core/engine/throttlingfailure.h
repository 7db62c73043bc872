// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which outcomes take a token from gRPC-style retry throttling (RetryPolicy::throttling). gRFC A6: "every
// time an RPC fails with a status code in retryableStatusCodes, or the server pushback indicates that the
// RPC should not be retried, token_count is decremented by 1". A success, or a failure the policy does not
// retry (a 400, a business error), leaves the tokens alone.

#include "policy/attemptoutcome.h"
#include "policy/retrypolicy.h"

#include <QDateTime>

// True when the policy's first matching rule says retry (whatever the limits then say), or when a hint the
// policy reads as a pushback says "don't retry" (negative, or invalid, where the hint says that means stop).
bool takesThrottlingToken(const RetryPolicy& policy, const RequestFacts& request, const AttemptOutcome& outcome,
    const QDateTime& now);
