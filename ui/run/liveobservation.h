// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Observing a client through the window's lab (Send to ▸ Observe a client): each exchange the lab ends is
// placed by the retry inference (core/observe) and goes live into the views as an attempt of its run, on an
// axis of its own (t = 0 when observing began, the lab stamping its events on it), journalled like a batch.
// finish() stops listening and hands over the recorder, whose session is then shown and saved.

#include "engine/batchtime.h"
#include "observe/observationrecorder.h"

#include <QObject>
#include <QPointer>

#include <memory>

class FaultServer;
class LiveSession;
struct LabExchange;

class LiveObservation final : public QObject
{
    Q_OBJECT
public:
    LiveObservation(const Clock& clock, FaultServer* lab, LiveSession* live, QObject* parent = nullptr);
    ~LiveObservation() override;

    // Journal into SESSIONPATH's journal while observing (recoverable after a crash).
    bool journalTo(const QString& sessionPath, QString* error);
    int runs() const { return m_runs; }
    int attempts() const { return m_attempts; }
    int retries() const { return m_attempts - m_runs; }

    // Stops listening; every run is final. The recorder holds the session (and its journal, if any).
    std::unique_ptr<ObservationRecorder> finish();

Q_SIGNALS:
    void observed(); // an exchange was placed: the counts moved

private:
    void onExchange(const LabExchange& exchange);

    BatchClock m_clock;
    QPointer<FaultServer> m_lab;
    LiveSession* m_live;
    std::unique_ptr<ObservationRecorder> m_recorder;
    QMetaObject::Connection m_connection;
    QMetaObject::Connection m_labConnection; // the lab's events into the recording
    int m_runs = 0;
    int m_attempts = 0;
};
