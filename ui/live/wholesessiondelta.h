// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "livesession.h"

// A delta covering everything SESSION holds, for a view created after data arrived (or rebuilding).
inline LiveSessionDelta wholeSessionDelta(const LiveSession& session)
{
    LiveSessionDelta d;
    d.runsAfter = session.runs().size();
    d.attemptsAfter = session.finishedAttempts();
    d.waitsAfter = session.waits().size();
    d.labEventsAfter = session.labEventCount();
    d.breakerChangesAfter = session.breakerChangeCount();
    for (int i = 0; i < int(session.runs().size()); ++i)
        d.changedRuns << i;
    return d;
}
