// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A HAR file as a session of observed runs: read (harimport.h), the client's retries inferred
// (retryinference.h), recorded like live observed traffic. What `retrylab import` and File ▸ Import HAR use.

#include "observe/observedrecords.h"
#include "observe/retryinference.h"
#include "session/session.h"

#include <QString>

#include <memory>

namespace HarSession {

struct Result
{
    std::unique_ptr<Session> session; // null when the file was refused
    QString problem; // "line 41: $.log.entries[3].request.url: …"
    QList<ObservedRun> runs; // as inferred, for reports
    RecordOptions records; // how they were recorded (URLs as in the file, its time origin)
    int skipped = 0; // entries that are not HTTP(S)
};

// PATH read and inferred with WINDOW (InferenceOptions::window).
Result fromFile(const QString& path, Millis window = InferenceOptions {}.window);

} // namespace HarSession
