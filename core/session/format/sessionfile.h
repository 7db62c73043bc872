// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading and writing session files (resources/docs/session-format.md). Both stream: a million attempts
// are written and read one object at a time, with progress and cancel. Saving is atomic (QSaveFile): a
// failed or cancelled save leaves the old file as it was. Opening builds a new Session and hands it over
// only when the whole file was read, so a refused file changes nothing.

#include "session/session.h"

#include <QString>

#include <functional>
#include <memory>

class JsonChunkSource;
class QIODevice;

// Called now and then with bytes (or attempts) done of TOTAL; returning false cancels.
using SessionProgress = std::function<bool(qint64 done, qint64 total)>;

namespace SessionFile {
inline constexpr char formatName[] = "retrylab-session";
inline constexpr char attemptLogFormatName[] = "retrylab-attempt-log"; // version 0: the engine's interim export

// Writes SESSION as JSON (version 1). Secrets are redacted unless session.redaction.enabled is false;
// REDACTOR (exports) overrides that choice.
bool write(const Session& session, QIODevice& device, const SessionProgress& progress, QString* error,
    const Redactor* redactor = nullptr);
// The buffer write() starts with: about 1 KiB per attempt and lab event, at least 16 KiB, at most 2 MiB
// (it is flushed at 1 MiB). A session of a few attempts is not given 2 MiB up front.
qsizetype writeBufferBytes(const Session& session);
bool save(const Session& session, const QString& path, const SessionProgress& progress = {}, QString* error = nullptr,
    const Redactor* redactor = nullptr);

enum class Status { Ok, Failed, Cancelled };
// Reads a session file of any supported version (0 and 1); older versions are migrated on the way in.
std::unique_ptr<Session> read(QIODevice& device, qint64 totalBytes, const SessionProgress& progress, QString* error,
    Status* status = nullptr);
// The same from SOURCE's chunks (open() reads a file through FileReadAhead).
std::unique_ptr<Session> read(JsonChunkSource& source, qint64 totalBytes, const SessionProgress& progress,
    QString* error, Status* status = nullptr);
// How open() read a file: a large file as this app writes it has its end read ahead on a second thread, and
// what that thread read is taken only where reading in order would have read the same. The session is the
// same either way; the time and the peak memory are not.
struct ReadReport
{
    bool labEventsReadAhead = false; // the lab events were taken from the thread that read them ahead
    bool runsReadAhead = false; // so were the runs of the file's second half (joined to the first half's)
};
// REPORT, when given, says how the file was read, whatever the outcome.
std::unique_ptr<Session> open(const QString& path, const SessionProgress& progress = {}, QString* error = nullptr,
    Status* status = nullptr, ReadReport* report = nullptr);
// Whether PATH names a session (or attempt log) by its format field, without reading it whole: what a
// dropped JSON file is (a session or a policy).
bool looksLikeSession(const QString& path);
}
