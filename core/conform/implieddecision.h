// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// decide() for an attempt a client already made: the verdict and the range of the wait come from the
// policy as always, and the backoff state moves on as the client's history implies. For the families that
// remember a drawn value (decorrelated, decorrelated-v2) that is the draw reproducing the wait the client
// was observed to take (the nearest one inside the range); the other families' state does not depend on
// the draw.

#include "policy/answerfacts.h"
#include "policy/backoff.h"
#include "policy/decide.h"

#include <optional>

RetryDecision decideAsObserved(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& backoff, std::optional<Millis> observedWait);
