// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// One moment of a saved session's timeline (SessionPlayback): 16 bytes, as a session of a million attempts
// and two million lab events has some five million of them.
struct PlaybackEvent
{
    // An attempt's wait that its row decided or observed (AttemptWaits::drawnWait) comes with AttemptFinished
    // (of the attempt before the wait, or after it for a client's): live, that is when it became known.
    // A host throttle's hold is shown from when it began, as the engine reports it live.
    // A run's outcome is reached when the run finished.
    enum class Kind : quint8 { AttemptStarted, AttemptFinished, ThrottleHold, RunFinished, Lab };
    qint64 atNs = 0; // on the session axis
    quint32 index = 0; // the attempt row (attempt kinds), the run's index (RunFinished), the lab event's (Lab)
    Kind kind = Kind::AttemptStarted;

    quint32 row() const { return index; }
    qsizetype labIndex() const { return kind == Kind::Lab ? qsizetype(index) : -1; }
};
static_assert(sizeof(PlaybackEvent) == 16);
