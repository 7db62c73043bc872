// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// One moment of a saved session's timeline (SessionPlayback).
struct PlaybackEvent
{
    enum class Kind { AttemptStarted, AttemptFinished, WaitStarted, Lab };
    Kind kind = Kind::AttemptStarted;
    qint64 atNs = 0; // on the session axis
    quint32 row = 0; // attempt row (attempt kinds)
    qsizetype labIndex = -1; // Session::labEvents index (Lab)
};
