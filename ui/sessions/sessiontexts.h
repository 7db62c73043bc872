// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Words the session actions share: the file filter of their dialogs, "3 runs, 7 attempts".

#include "session/session.h"

#include <QCoreApplication>
#include <QString>

namespace SessionTexts {
inline QString fileFilter()
{
    return QCoreApplication::translate("SessionTexts", "Retrylab sessions (*.json);;All files (*)");
}
inline QString counts(const Session& s)
{
    return QCoreApplication::translate("SessionTexts", "%n run(s)", nullptr, int(s.runs.size())) + QStringLiteral(", ")
        + QCoreApplication::translate("SessionTexts", "%n attempt(s)", nullptr, int(s.attemptCount()));
}
}
