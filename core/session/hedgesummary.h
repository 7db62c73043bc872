// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What hedging did in a session (issue 28 §4: the summary's hedges sent / won / wasted and operations
// applied twice), up to END as breakersummary.h counts: hedged requests, the copies beyond the first that
// reached the wire (a copy the pipeline refused was never sent), those whose answer won, the rest (sent
// and not used: the load hedging added), and the logical requests whose operation the fault lab applied
// more than once (its operation events, matched to runs by attempt id). The CLI and the window both say it.

#include "engine/clock.h"

#include <QHash>
#include <QString>

#include <optional>

class Session;

struct HedgeSummary
{
    int hedgedRequests = 0; // runs that sent (or had refused) a copy beyond the first
    int hedgesSent = 0; // copies 2, 3, … that reached the wire
    int hedgesWon = 0; // … whose answer was the request's
    int hedgesWasted = 0; // … whose answer was not (lost, or a failure another copy answered for)
    int appliedTwice = -1; // runs whose operation the lab applied more than once; -1: no lab events
};

HedgeSummary summarizeHedges(const Session& session, MonoTime end);
// "hedging: 12 requests hedged, 9 hedges sent, 7 won, 2 wasted; 3 operations applied twice"
QString hedgeSummaryLine(const HedgeSummary& summary);

// Operations the fault lab applied, per run id (0: an attempt of no run of the session), from the
// session's lab events (those up to UNTIL when given: a recording played back to its playhead).
QHash<int, int> operationsAppliedPerRun(const Session& session, std::optional<MonoTime> until = std::nullopt);
