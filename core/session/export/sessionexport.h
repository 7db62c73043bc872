// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Exports of a session (resources/docs/exports.md): the session JSON itself, CSV (one row per attempt,
// documented columns) and HAR 1.2 (one entry per attempt, retry facts in "_"-prefixed fields). Every
// export redacts secrets unless the caller passes Redactor::none() (the explicit --no-redact).

#include "session/export/redaction.h"
#include "session/session.h"
#include "session/format/sessionfile.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

class QIODevice;

namespace SessionExport {
enum class Format { Json, Csv, Har };
std::optional<Format> formatFromName(const QString& name); // "json", "csv", "har"

// The redactor exports use: the session's lists and salt, redaction on (or off when REDACT is false).
Redactor redactorFor(const Session& session, bool redact);

QStringList csvColumns();
bool writeCsv(const Session& session, const Redactor& redactor, QIODevice& device, const SessionProgress& progress);
QByteArray csvField(const QString& value); // RFC 4180 quoting when needed

// The HAR entry of one attempt (ROW in session.attempts; RUN_INDEX its run).
QJsonObject harEntry(const Session& session, qsizetype runIndex, quint32 row, const Redactor& redactor);
bool writeHar(const Session& session, const Redactor& redactor, QIODevice& device, const SessionProgress& progress);

// Writes FORMAT to PATH atomically.
bool save(const Session& session, Format format, const Redactor& redactor, const QString& path,
    const SessionProgress& progress, QString* error);
}
