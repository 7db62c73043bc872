// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the libFuzzer targets: a QCoreApplication for the code that wants one, the input as Qt
// types, and a check that aborts (so libFuzzer keeps the input) when a property the parser promises fails.

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QList>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace Fuzz {

inline void initApplication()
{
    static int argc = 1;
    static char name[] = "retrylab-fuzz";
    static char* argv[] = { name, nullptr };
    static QCoreApplication app(argc, argv);
    // Keep Qt's own warnings (e.g. QJsonDocument's) off the fuzzer's output.
    qputenv("QT_LOGGING_RULES", "*.debug=false;*.warning=false");
}

inline QByteArray bytes(const uint8_t* data, size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

// A fixed "now", so a run is reproducible (2026-08-22 12:00:00 UTC).
inline QDateTime fixedNow()
{
    return QDateTime::fromSecsSinceEpoch(1787400000, Qt::UTC);
}

[[noreturn]] inline void violated(const char* what, const QByteArray& detail = {})
{
    std::fprintf(stderr, "property violated: %s\n%s\n", what, detail.left(2000).constData());
    std::abort();
}

inline void check(bool ok, const char* what, const QByteArray& detail = {})
{
    if (!ok)
        violated(what, detail);
}

} // namespace Fuzz
