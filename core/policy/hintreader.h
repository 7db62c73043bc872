// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading a policy's server hints from an answer, shared by decide() and the engine's budget accounting so
// both read a hint the same way.

#include "http/retryafter.h"
#include "policy/attemptoutcome.h"
#include "policy/retrypolicy.h"

#include <QDateTime>

#include <optional>

// Whether HINT is honoured on this outcome (its status list; an error never matches a non-empty list).
bool hintAppliesTo(const DelayHint& hint, const AttemptOutcome& outcome);

// The hint's value as the policy declares it; nullopt when the field is absent. A Retry-After hint with
// alsoRetryAfterMs also reads retry-after-ms when Retry-After is absent (seed 002).
std::optional<RetryAfterValue> readDelayHint(const DelayHint& hint, const AttemptOutcome& outcome, const QDateTime& now);
