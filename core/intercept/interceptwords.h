// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

// What every part of core/intercept says its problems with: one translation context, and the one-line refusal.
namespace InterceptWords {

inline QString tr(const char* text)
{
    return QCoreApplication::translate("intercept", text);
}

// *ERROR (when given) becomes MESSAGE; false, for `return refuse(error, …);`.
inline bool refuse(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace InterceptWords
