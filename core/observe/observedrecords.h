// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Observed runs in the session's terms, so they go into the same store, views and exports as the
// engine's: an AttemptRecord per exchange (the request as received, the answer as written, started = the
// arrival, finished = the answer's end or the client hanging up, an error class when no complete answer
// went back) with no decision but its observed facts, and a RunRecord per logical request marked with
// how it was grouped (RunRecord::observed).

#include "engine/requestspec.h"
#include "engine/runrecord.h"
#include "observe/observedrun.h"

#include <QHash>
#include <QUrl>

struct RecordOptions
{
    QDateTime wallOrigin; // the wall-clock time at lab time 0 (Retry-After dates, rate-limit resets)
    QString scheme = QStringLiteral("http"); // of the URL rebuilt from Host and the request target
    QHash<quint64, QUrl> urls; // by request id: the URL as recorded (a HAR entry's), used instead
};

namespace ObservedRecords {
AttemptRecord attemptRecord(const ObservedAttempt& attempt, int runId, const RecordOptions& options);
// Facts and attempts; RUNID replaces run.id (a session numbers its runs itself).
RunRecord runRecord(const ObservedRun& run, int runId, const RecordOptions& options);
// What the run asked, for a replay: method, URL, the client's headers without the hop-by-hop ones and the
// per-attempt ones (attempt headers, Host, Content-Length), the body when the lab kept it whole.
RequestSpec requestOf(const LabExchange& exchange, const RecordOptions& options);
QUrl urlOf(const LabExchange& exchange, const RecordOptions& options);
}
