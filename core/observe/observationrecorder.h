// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Records a client's observed traffic into a Session as it happens: each exchange the lab reports
// (FaultServer::exchangeFinished) is placed by RetryInference and goes into the session's store as an
// attempt of its run (journalled beside the session file when asked, like `run --session`, so a crash
// loses nothing that ended). What `retrylab observe` and the window's Observe mode use; a HAR import
// builds the same session at once (sessionOf()).

#include "observe/observedrecords.h"
#include "observe/retryinference.h"
#include "session/session.h"

#include <QJsonObject>
#include <QObject>

#include <memory>

class Clock;
class SessionRecorder;

class ObservationRecorder final : public QObject
{
    Q_OBJECT
public:
    // CLOCK: the session axis; the lab must stamp its exchanges on it (FaultServer::setClock).
    ObservationRecorder(const Clock& clock, InferenceOptions options = {}, QObject* parent = nullptr);
    ~ObservationRecorder() override;

    // Before the first exchange: journal beside SESSIONPATH (save() then writes the session there).
    bool journalTo(const QString& sessionPath, QString* error);
    void setScenario(const QJsonObject& scenario);
    void setSource(const QString& source); // meta.source, "observe" by default
    void setNotes(const QString& notes);

    // Places EXCHANGE (RetryInference::add) and records it as an attempt of its run; returns where it went.
    RetryInference::Placement addExchange(const LabExchange& exchange);
    // One of the lab's own events (FaultServer::labEvent), kept and journalled beside the exchanges: an
    // opened session's lab panel counts the requests the lab received and the operations it applied, as it
    // does for a run's recording. Ignored after finish().
    void recordLabEvent(const LabEvent& event);
    // Every run is final once the client is gone: their facts are journalled as finished.
    void finish();
    bool save(QString* error); // after finish(): saves where journalTo() said, removes the journal

    const RetryInference& inference() const { return m_inference; }
    const Session& session() const;
    std::shared_ptr<const Session> sharedSession() const; // the same, for readers that follow it as it grows
    Session takeSession();
    const RecordOptions& recordOptions() const { return m_records; }

    // The whole session of RUNS at once (a HAR import): meta.source SOURCE, redaction on.
    static Session sessionOf(const QList<ObservedRun>& runs, const RecordOptions& options, const QString& source);

Q_SIGNALS:
    // What a batch says of its runs, for readers that follow the session (the window's views). Before each
    // attempt is stored: its run's facts so far, still open (the client may send again: no outcome until
    // finish()); then the attempt, at ROW of session().attempts; at finish(), every run's final facts.
    void runStarted(const RunSummary& run);
    void attemptStored(qsizetype row);
    void runFinished(const RunSummary& run);
    void labEventStored(qsizetype index); // a lab event appended to session().labEvents, at INDEX

private:
    void forward(); // the session recorder's signals, as this recorder's

    const Clock& m_clock;
    RetryInference m_inference;
    RecordOptions m_records;
    std::unique_ptr<SessionRecorder> m_recorder;
    bool m_finished = false;
};
