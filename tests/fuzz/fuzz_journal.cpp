// SPDX-License-Identifier: GPL-3.0-or-later
// Journal recovery (SessionJournal::recover): any bytes as a journal file are recovered into a session
// (which then saves and reads back) or refused with a message; never a crash or a runaway allocation
// from an index in the file.
#include "fuzzsupport.h"
#include "session/format/sessionfile.h"
#include "session/journal/sessionjournal.h"

#include <QBuffer>
#include <QDir>
#include <QFile>

#include <unistd.h>

namespace {
QString journalPath()
{
    static const QString path = (QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath())
        + QStringLiteral("/retrylab-fuzz-%1.journal").arg(::getpid());
    return path;
}
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    {
        QFile file(journalPath());
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            Fuzz::violated("cannot write the journal file");
        file.write(reinterpret_cast<const char*>(data), qint64(size));
    }
    SessionJournal::Info info;
    QString error;
    const std::unique_ptr<Session> session = SessionJournal::recover(journalPath(), &info, &error);
    if (!session) {
        Fuzz::check(!error.isEmpty(), "refused without a message");
        return 0;
    }
    Fuzz::check(info.attempts == session->attemptCount(), "the info's count is not the session's");
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    Fuzz::check(SessionFile::write(*session, out, {}, &error), "a recovered session cannot be written", error.toUtf8());
    QByteArray text = out.data();
    QBuffer in(&text);
    in.open(QIODevice::ReadOnly);
    const std::unique_ptr<Session> back = SessionFile::read(in, text.size(), {}, &error);
    Fuzz::check(back != nullptr, "a recovered session does not read back", error.toUtf8() + '\n' + text.left(4000));
    return 0;
}
