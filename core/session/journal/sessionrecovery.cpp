// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/journal/sessionrecovery.h"

#include "session/journal/journalregistry.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>
#include <QFile>

namespace SessionRecovery {

QList<Candidate> scan(const QStringList& journals, QStringList* errors)
{
    const QStringList paths = journals.isEmpty() ? JournalRegistry::journals() : journals;
    QList<Candidate> found;
    for (const QString& path : paths) {
        Candidate candidate { path, {} };
        QString error;
        if (!SessionJournal::recover(path, &candidate.info, &error)) {
            if (errors)
                errors->append(error);
            continue;
        }
        if (!candidate.info.closed)
            found.append(candidate);
    }
    return found;
}

std::unique_ptr<Session> restore(const QString& journalPath, const QString& target, QString* writtenTo, QString* error)
{
    SessionJournal::Info info;
    std::unique_ptr<Session> session = SessionJournal::recover(journalPath, &info, error);
    if (!session)
        return nullptr;
    if (info.processAlive) {
        if (error) {
            *error = QCoreApplication::translate("SessionRecovery", "%1 is still being recorded by process %2")
                         .arg(journalPath)
                         .arg(info.pid);
        }
        return nullptr;
    }
    const QString path = target.isEmpty() ? info.sessionPath : target;
    if (!SessionFile::save(*session, path, {}, error))
        return nullptr;
    QFile::remove(journalPath);
    JournalRegistry::remove(journalPath);
    if (writtenTo)
        *writtenTo = path;
    return session;
}

}
