// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// One moment of a saved session's timeline (SessionPlayback): 16 bytes, as a session of a million attempts
// and two million lab events has some five million of them.
struct PlaybackEvent
{
    enum class Kind : quint8 { AttemptStarted, AttemptFinished, WaitStarted, Lab };
    qint64 atNs = 0; // on the session axis
    quint32 index = 0; // the attempt row (attempt kinds), or the Session::labEvents index (Lab)
    Kind kind = Kind::AttemptStarted;

    quint32 row() const { return index; }
    qsizetype labIndex() const { return kind == Kind::Lab ? qsizetype(index) : -1; }
};
static_assert(sizeof(PlaybackEvent) == 16);
