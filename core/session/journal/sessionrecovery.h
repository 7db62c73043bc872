// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Finding and restoring sessions whose recording was interrupted (crash, kill -9): the journals the app
// registered (JournalRegistry) that have no "closed" line and whose recording process is gone. Restoring
// writes the session where it was being recorded (or to TARGET), then deletes the journal. The CLI's
// `retrylab recover` and the desktop app's start-up check both use this.

#include "session/session.h"
#include "session/journal/sessionjournal.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace SessionRecovery {

struct Candidate
{
    QString journalPath;
    SessionJournal::Info info;
    bool recoverable() const { return !info.closed && !info.processAlive; }
};

// Reads JOURNALS (or every registered journal when empty) and returns those not closed cleanly, including
// ones still being recorded by a live process (recoverable() false). Journals that cannot be read are
// reported in ERRORS and left alone.
QList<Candidate> scan(const QStringList& journals, QStringList* errors);

// Restores the journal at JOURNAL_PATH into TARGET (empty: where it was being recorded), deletes the
// journal and its registration. Returns the session written, or null with ERROR (the journal stays).
std::unique_ptr<Session> restore(const QString& journalPath, const QString& target, QString* writtenTo, QString* error);

}
