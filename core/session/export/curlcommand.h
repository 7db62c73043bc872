// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Copy as curl": the exact method, URL, headers and body of one recorded attempt as a shell command.

#include "session/export/redaction.h"
#include "session/session.h"

#include <QString>

namespace CurlCommand {
// ROW is the attempt's row in session.attempts. Secrets follow REDACTOR.
QString forAttempt(const Session& session, quint32 row, const Redactor& redactor);
QString shellQuote(const QString& text); // single-quoted for POSIX shells
}
