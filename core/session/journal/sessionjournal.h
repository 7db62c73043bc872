// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The journal next to a session while it is recorded (SESSION.journal): one JSON line per event, written
// and flushed as it happens, so a crash or kill -9 loses nothing that finished. A clean finish writes the
// session and deletes the journal; a journal still there (without its "closed" line) is an interrupted
// session that recover() turns back into a Session.

#include "session/session.h"
#include "session/journal/sessionjournalprocess.h"

#include <QFile>
#include <QString>
#include <QStringList>

#include <memory>

class SessionJournal
{
public:
    static QString pathFor(const QString& sessionPath) { return sessionPath + QStringLiteral(".journal"); }

    // Creates (truncates) the journal for SESSION_PATH and writes its header line.
    bool open(const QString& sessionPath, const Session& session, QString* error);
    bool isOpen() const { return m_file.isOpen(); }
    void writeScenario(const QJsonObject& scenario);
    // CHANGES: what was changed in a preset or file to make POLICY (a "changes" field); none when empty.
    void writePolicy(qsizetype index, const RetryPolicy& policy, const PolicyChanges& changes = {});
    void writeRequest(qsizetype index, const RequestSpec& request);
    void writeRun(const SessionRun& run, bool finished);
    void writeAttempt(const AttemptStore& store, const PackedAttempt& attempt);
    void writeLabEvent(const LabEvent& event);
    void writeBreakerChange(const BreakerChange& change);
    void close(); // writes the "closed" line
    bool remove(); // deletes the journal file (after the session was saved)

    struct Info
    {
        QString journalPath;
        QString sessionPath; // where the session was being recorded
        qint64 pid = 0;
        QString startedUtc;
        bool closed = false; // finished cleanly (nothing to recover)
        bool processAlive = false; // the recording process still runs (recorderState is Alive)
        SessionJournalProcess::State recorderState = SessionJournalProcess::State::Gone;
        qsizetype attempts = 0;
        qsizetype runs = 0;
        int skippedLines = 0; // a torn last line (the kill hit mid-write), damaged lines
        QStringList problems; // what was not recovered, one line each ("line 7 skipped: …")
    };
    // Reads a journal back into a session (runs that never finished are marked as interrupted).
    static std::unique_ptr<Session> recover(const QString& journalPath, Info* info, QString* error);

private:
    void writeLine(const QByteArray& line);

    QFile m_file;
    RedactionSettings m_redaction;
    QDateTime m_wallOrigin; // the session's: each attempt's parsed rate limits are measured from it
};
