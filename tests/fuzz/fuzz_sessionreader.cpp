// SPDX-License-Identifier: GPL-3.0-or-later
// The session reader (resources/docs/session-format.md): any bytes open as a session or are refused with
// a message naming where (line and column, JSON path); a session read writes out and reads back with the
// same runs and attempts.
#include "fuzzsupport.h"
#include "session/format/sessionfile.h"

#include <QBuffer>

namespace {
std::unique_ptr<Session> readBytes(QByteArray bytes, QString* error)
{
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    return SessionFile::read(buffer, bytes.size(), {}, error);
}
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QString error;
    const std::unique_ptr<Session> session = readBytes(Fuzz::bytes(data, size), &error);
    if (!session) {
        Fuzz::check(error.contains(QLatin1String("(at $")), "refused without naming where", error.toUtf8());
        return 0;
    }
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    Fuzz::check(SessionFile::write(*session, out, {}, &error), "a session read cannot be written", error.toUtf8());
    const std::unique_ptr<Session> back = readBytes(out.data(), &error);
    Fuzz::check(back != nullptr, "a session written does not read back", error.toUtf8() + '\n' + out.data());
    Fuzz::check(back->runs.size() == session->runs.size() && back->attemptCount() == session->attemptCount(),
        "runs or attempts lost through a save", out.data());
    return 0;
}
