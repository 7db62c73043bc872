// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What `retrylab observe` and `retrylab import` print about a client's inferred retries: one line per
// attempt (or one JSON object per line with --json) and a summary.
//
//   run 2 attempt 2  GET http://127.0.0.1:8080/v1/items → 200  waited 1.02 s (Retry-After said 1 s)  [fingerprint, heuristic]

#include "observe/observedrun.h"
#include "observe/observedrecords.h"

#include <QTextStream>

namespace ObserveReport {
QString attemptLine(const ObservedRun& run, const ObservedAttempt& attempt, const RecordOptions& options);
QByteArray attemptJson(const ObservedRun& run, const ObservedAttempt& attempt, const RecordOptions& options);
// "5 exchanges → 2 logical requests (1 by attempt header, 1 by fingerprint — a heuristic), 3 retries"
QString summary(const QList<ObservedRun>& runs);
}
