// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A fleet's attempts as a Retrylab session: one run per logical request, grouped exactly by the attempt
// header's id (no heuristic), each attempt with the client's wait before it and what the previous answer
// asked for, as an observed client's. So the same store, views, exports, conformance and summary work on it.

#include "fleet/fleetattempt.h"
#include "policy/retrypolicy.h"

#include <QList>

class Session;

struct FleetGrouping
{
    qsizetype runs = 0;
    qsizetype attempts = 0;
    // Runs whose attempts are not numbered 1, 2, … n without a gap or a repeat, or changed their key: must be 0.
    qsizetype broken = 0;
};

namespace FleetSession {

// The session of ATTEMPTS (any order) under POLICY; GROUPING, when given, says how exactly they grouped.
Session build(const QList<FleetAttempt>& attempts, const RetryPolicy& policy, const QString& notes,
    FleetGrouping* grouping = nullptr);

} // namespace FleetSession
