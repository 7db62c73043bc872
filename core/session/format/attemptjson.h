// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attempt object of the session format (and of the engine's interim attempt log, version 0, whose
// field names it keeps). Written straight from the compact store, read straight into it.

#include "session/store/attemptstore.h"
#include "json/jsonpullreader.h"
#include "session/export/redaction.h"

#include <QByteArray>
#include <QDateTime>

namespace AttemptJson {
// Appends one attempt object. Secret header values and listed query parameters are redacted by REDACTOR;
// its parsed rate limits are measured from when its answer came: WALL_ORIGIN_UTC (the session's
// meta.wallOriginUtc) + its headers_ms.
void write(QByteArray& out, const AttemptStore& store, const PackedAttempt& attempt, const Redactor& redactor,
    const QDateTime& wallOriginUtc);
// Reads one attempt object into ATTEMPT (texts interned in STORE). On failure the reader carries the
// message and FIELD names the offending field.
bool read(JsonPullReader& in, AttemptStore& store, PackedAttempt* attempt, QByteArray* field);
}
