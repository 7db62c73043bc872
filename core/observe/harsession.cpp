// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/harsession.h"

#include "observe/harimport.h"
#include "observe/observationrecorder.h"

#include <QCoreApplication>

namespace HarSession {

Result fromFile(const QString& path, Millis window)
{
    Result result;
    const HarImport har = HarImport::readFile(path);
    if (!har.ok()) {
        result.problem = har.problem;
        return result;
    }
    InferenceOptions inference;
    inference.window = window;
    inference.wallOrigin = har.wallOrigin;
    result.records.wallOrigin = har.wallOrigin;
    result.records.urls = har.urls;
    result.runs = RetryInference::infer(har.exchanges, inference);
    result.session = std::make_unique<Session>(ObservationRecorder::sessionOf(result.runs, result.records, QStringLiteral("import-har")));
    result.session->meta.notes = har.creator.isEmpty()
        ? QCoreApplication::translate("import", "imported from %1").arg(path)
        : QCoreApplication::translate("import", "imported from %1 (recorded by %2)").arg(path, har.creator);
    result.skipped = har.skipped;
    return result;
}

} // namespace HarSession
