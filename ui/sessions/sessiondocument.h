// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The session the window shows: the batch just recorded (autosaved in the recordings folder), a file the
// user opened, or a replay's result. Opening, saving and exporting run off the GUI thread (SessionJobs)
// with progress and cancel; a refused file leaves the current session as it was. No widgets here: the
// window asks for file names and shows progress.

#include "session/session.h"
#include "session/export/sessionexport.h"
#include "session/format/sessionfile.h"

#include <QObject>
#include <QString>

#include <memory>

class SessionJobs;

class SessionDocument final : public QObject
{
    Q_OBJECT
public:
    enum class Origin { None, Recorded, Opened, Replay, Recovered, Judged }; // Judged: a conformance case's attempts
    enum class Job { None, Open, Save, Export };

    explicit SessionDocument(QObject* parent = nullptr);
    ~SessionDocument() override;

    std::shared_ptr<const Session> session() const { return m_session; }
    bool hasSession() const { return m_session != nullptr; }
    Origin origin() const { return m_origin; }
    // Where the session is on disk (the recordings folder for a batch not saved by the user yet).
    QString filePath() const { return m_path; }
    // Saved by the user (Save As or opened from a file): the title shows the file name, not "unsaved".
    bool isSavedByUser() const { return m_savedByUser; }
    QString displayName() const;
    // A few words for column headers: the file name, or "recorded under slen" for an unsaved batch.
    QString shortName() const;

    // Redaction of secrets in saves and exports: on unless the user turned it off for this session.
    bool redactionEnabled() const;
    void setRedactionEnabled(bool enabled);

    void setSession(std::shared_ptr<const Session> session, Origin origin, const QString& path, bool savedByUser);

    Job busyWith() const { return m_job; }
    bool open(const QString& path); // false when another job runs
    // A HAR file read as observed traffic (HarSession), off the GUI thread like open(); shown as opened.
    bool importHar(const QString& path);
    bool saveAs(const QString& path);
    bool exportTo(SessionExport::Format format, bool redact, const QString& path);
    void cancel();
    bool waitForIdle(int msecs = -1);

Q_SIGNALS:
    void changed(); // another session, another path, or its redaction choice
    void jobStarted(SessionDocument::Job job, const QString& path);
    void jobProgress(qint64 done, qint64 total);
    // STATUS Failed (with MESSAGE) or Cancelled leaves the current session unchanged.
    void jobFinished(SessionDocument::Job job, const QString& path, SessionFile::Status status, const QString& message);

private:
    void begin(Job job, const QString& path);
    void end(SessionFile::Status status, const QString& message = {});
    // A report of the job in progress (not of one cancelled before it).
    bool isCurrent(quint64 generation) const { return m_job != Job::None && generation == m_generation; }

    SessionJobs* m_jobs;
    std::shared_ptr<const Session> m_session;
    Origin m_origin = Origin::None;
    QString m_path;
    bool m_savedByUser = false;
    Job m_job = Job::None;
    QString m_jobPath;
    quint64 m_generation = 0;
};
