// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Feeds a LiveSession the way the window's batches do: every finished attempt and lab event is written into
// a core Session by a SessionRecorder (the one writer of the one store), and the views are told its row or
// index (and of a breaker's change of state, its index); run facts, attempts in flight and the host
// throttle's holds reach them as the engine reports them.
// The tests' stand-in for a RetryEngine and a lab, with the recorder and the cursor the product uses.

#include "livesession.h"
#include "session/sessionrecorder.h"

#include <QObject>

class LiveFeed
{
public:
    // Clears LIVE and shows this feed's session in it (as recorded).
    explicit LiveFeed(LiveSession& live)
        : m_live(live)
        , m_recorder(QString())
    {
        live.clear();
        live.show(m_recorder.sharedSession(), LiveSession::Reveal::AsRecorded);
        QObject::connect(&m_recorder, &SessionRecorder::attemptStored, &live, &LiveSession::onAttemptStored);
        QObject::connect(&m_recorder, &SessionRecorder::labEventStored, &live, &LiveSession::onLabEventStored);
        QObject::connect(&m_recorder, &SessionRecorder::breakerChangeStored, &live, &LiveSession::onBreakerChangeStored);
    }

    void onRunStarted(const RunSummary& run)
    {
        m_recorder.recordRunStarted(run);
        m_live.onRunStarted(run);
    }
    void onAttemptStarted(const AttemptRecord& attempt) { m_live.onAttemptStarted(attempt); }
    void onAttemptPhase(const AttemptPhaseEvent& event) { m_live.onAttemptPhase(event); }
    void onAttemptFinished(const AttemptRecord& attempt) { m_recorder.recordAttempt(attempt); }
    // The engine reports every wait; the views take only a throttle hold from it (the rest from the rows).
    void onWaitScheduled(const WaitInfo& wait) { m_live.onWaitScheduled(wait); }
    void onRunFinished(const RunSummary& run)
    {
        m_recorder.recordRunFinished(run);
        m_live.onRunFinished(run);
    }
    void onLabEvent(const LabEvent& event) { m_recorder.recordLabEvent(event); }
    void onBreakerChanged(const BreakerChange& change) { m_recorder.recordBreakerChange(change); }
    void flush() { m_live.flush(); }

    LiveSession& live() { return m_live; }
    const Session& session() const { return m_recorder.session(); }
    std::shared_ptr<const Session> sharedSession() const { return m_recorder.sharedSession(); }

private:
    LiveSession& m_live;
    SessionRecorder m_recorder;
};
