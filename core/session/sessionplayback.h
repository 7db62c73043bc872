// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plays a saved session's timeline without sending anything: attempts starting and finishing, waits, and
// the fault lab's events, in time order. Step through it, seek, or play at a chosen speed (the UI draws
// what eventReached() reports). advance() is what the timer calls; tests call it directly.

#include "session/playbackevent.h"
#include "session/session.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <limits>
#include <vector>

class SessionPlayback final : public QObject
{
    Q_OBJECT
public:
    explicit SessionPlayback(const Session& session, QObject* parent = nullptr);

    qsizetype eventCount() const { return qsizetype(m_events.size()); }
    const PlaybackEvent& event(qsizetype i) const { return m_events[size_t(i)]; }
    qsizetype cursor() const { return m_cursor; } // events [0, cursor) have happened
    qint64 positionNs() const { return m_position; }
    qint64 startNs() const;
    qint64 endNs() const;
    // While seek() reports events: the position it moves to, so every event at or before it is reported
    // before positionChanged() (a receiver may skip what a later event of the same move undoes). Otherwise
    // the lowest time: stepForward() and stepBackward() promise nothing beyond their one event.
    qint64 reachingNs() const { return m_reaching; }

    void stepForward(); // to the next event
    void stepBackward(); // undo the last event
    void seek(qint64 ns);
    void play(double speed = 1.0); // speed 2 = twice as fast
    void pause();
    bool isPlaying() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    void advance(qint64 wallNs); // moves the position by wallNs × speed

Q_SIGNALS:
    void positionChanged(qint64 ns);
    void eventReached(qsizetype index);
    void eventUndone(qsizetype index);
    void finished();

private:
    void onTick();

    std::vector<PlaybackEvent> m_events;
    qsizetype m_cursor = 0;
    qint64 m_position = 0;
    qint64 m_reaching = std::numeric_limits<qint64>::min();
    double m_speed = 1.0;
    QTimer m_timer;
    QElapsedTimer m_wall;
};
