// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Records what a RetryEngine (and the fault lab, when used) does into a Session, journalling every event
// as it happens; finish() saves the session atomically and deletes the journal. What `retrylab run
// --session FILE` and the GUI's recording use.

#include "session/session.h"
#include "session/journal/sessionjournal.h"

#include <QObject>

#include <memory>
#include <utility>

class Clock;
class FaultServer;
class RetryEngine;

class SessionRecorder final : public QObject
{
    Q_OBJECT
public:
    explicit SessionRecorder(const QString& sessionPath, QObject* parent = nullptr);
    ~SessionRecorder() override;

    // Before start(): the wall-clock origin of the session axis, the redaction choice, notes, the scenario.
    void setClock(const Clock& clock);
    void setRedaction(const RedactionSettings& settings);
    void setNotes(const QString& notes);
    void setConcurrency(int concurrency);
    void setScenario(const QJsonObject& scenario);
    void setSource(const QString& source); // meta.source: "run" (default), "replay-offline", …
    // Runs under a policy equal to POLICY record CHANGES beside it (what `--set` changed in a preset or file).
    void notePolicyChanges(const RetryPolicy& policy, const PolicyChanges& changes);

    // Creates the journal (and registers it for recovery). Connect sources before submitting runs.
    bool start(QString* error);
    void attach(RetryEngine* engine);
    void attachLab(FaultServer* lab);

    // Saves the session and removes the journal; on failure the journal stays for `retrylab recover`.
    bool finish(QString* error);
    // Closes and removes the journal once the caller saved session() itself (the desktop app saves off
    // the GUI thread). Only after a successful save: the journal is what a crash would recover.
    void releaseJournal();

    const Session& session() const { return *m_session; }
    // The session being recorded, for readers that follow it while it grows (the window's views) or keep it
    // once it is done: the one store, shared, and written only by this recorder.
    std::shared_ptr<const Session> sharedSession() const { return m_session; }
    // Stops listening to the engine and the lab it was attached to: nothing is written after this (the
    // session can then be saved on another thread while it is shown).
    void detach();
    // The recorded session, moved out (after the last event: the recorder keeps an empty one). Whoever
    // shares it (sharedSession()) is left with an empty session too.
    Session takeSession() { return std::exchange(*m_session, Session()); }
    QString sessionPath() const { return m_path; }
    QString journalPath() const { return SessionJournal::pathFor(m_path); }

    void recordRunStarted(const RunSummary& run);
    void recordAttempt(const AttemptRecord& attempt);
    void recordRunFinished(const RunSummary& run);
    void recordLabEvent(const LabEvent& event);
    void recordBreakerChange(const BreakerChange& change);

Q_SIGNALS:
    void attemptStored(qsizetype row); // an attempt appended to session().attempts, at ROW
    void labEventStored(qsizetype index); // a lab event appended to session().labEvents, at INDEX
    void breakerChangeStored(qsizetype index); // a breaker change appended to session().breakerChanges, at INDEX

private:
    void noteRunFacts(const RunSummary& run, bool finished);

    QString m_path;
    QList<std::pair<RetryPolicy, PolicyChanges>> m_policyChanges;
    std::shared_ptr<Session> m_session = std::make_shared<Session>();
    QList<QMetaObject::Connection> m_sources; // attach() and attachLab()
    SessionJournal m_journal;
    bool m_started = false;
};
