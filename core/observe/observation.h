// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Observing a client through the fault lab, wired the same way for every front end (`retrylab observe`,
// `retrylab serve --session`, the window's Observe mode): the lab on the observation's own time axis
// (t = 0 when it begins), each exchange the lab ends placed by the retry inference and recorded as an
// attempt of its run, the lab's own events recorded beside them. The counterpart of Batch for traffic
// nobody here sent; its signals are the ones a batch's views follow.

#include "engine/batchtime.h"
#include "observe/observationrecorder.h"

#include <QObject>
#include <QPointer>

#include <memory>

class FaultServer;
struct LabExchange;

class Observation final : public QObject
{
    Q_OBJECT
public:
    // CLOCK must outlive the observation; LAB is listened to until finish() (it may go first).
    Observation(const Clock& clock, FaultServer* lab, const InferenceOptions& options = {}, QObject* parent = nullptr);
    ~Observation() override; // the lab gets its own clock back

    const Clock& clock() const { return m_axis; }
    // Before the first exchange: journal beside SESSIONPATH (save() then writes the session there).
    bool journalTo(const QString& sessionPath, QString* error);
    void setSource(const QString& source); // meta.source: "observe" by default, "serve"
    void setScenario(const QJsonObject& scenario);

    const ObservationRecorder& recorder() const { return *m_recorder; }
    const RetryInference& inference() const { return m_recorder->inference(); }
    const RecordOptions& recordOptions() const { return m_recorder->recordOptions(); }
    std::shared_ptr<const Session> session() const { return m_recorder->sharedSession(); }
    int runs() const { return int(inference().runs().size()); }
    qsizetype attempts() const { return inference().attemptCount(); }

    // Stops listening to the lab; every run is final (runFinished for each). Idempotent.
    void finish();
    bool save(QString* error); // finish(), then save where journalTo() said and remove the journal
    // The recorder, after finish(): its session and journal (a caller that saves elsewhere, off this thread).
    std::unique_ptr<ObservationRecorder> takeRecorder();

Q_SIGNALS:
    void runStarted(const RunSummary& run); // its facts so far, still open
    void attemptStored(qsizetype row); // an exchange recorded at ROW of session()->attempts
    void runFinished(const RunSummary& run); // at finish(): final
    void labEventStored(qsizetype index);
    // After an exchange is recorded: where the inference put it (what a front end reports line by line).
    void placed(const ObservedRun& run, const ObservedAttempt& attempt);

private:
    void onExchange(const LabExchange& exchange);
    void listen(); // the recorder's signals as this observation's

    BatchClock m_axis;
    QPointer<FaultServer> m_lab;
    std::unique_ptr<ObservationRecorder> m_recorder;
    QList<QMetaObject::Connection> m_labConnections;
    bool m_finished = false;
};
