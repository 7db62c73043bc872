// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the pipeline circuit breakers of a session did, per policy and scope (issue 28 §4: the summary's
// calls rejected by the breaker and time open): how often each opened, went half-open and closed, how long
// it was open in all up to END (an opening still open at END counts until then), and how many calls it
// refused. Only what happened up to END counts: changes after it and calls refused after it are left out
// (the window's summary of a recording played back to its playhead). Read from the session's breaker
// changes and its attempts; the CLI and the window both say it.

#include "engine/breakerchange.h"
#include "engine/clock.h"

#include <QList>
#include <QString>

class Session;

struct BreakerSummary
{
    QString policy;
    QString scope;
    int opened = 0;
    int halfOpened = 0;
    int closed = 0;
    MonoTime openFor { 0 }; // open or half-open
    qint64 refused = 0; // calls refused by this scope's breaker (never sent)
    CircuitBreaker::State last = CircuitBreaker::State::Closed;
};

QList<BreakerSummary> summarizeBreakers(const Session& session, MonoTime end);
// "circuit breaker of opossum-9 (client): opened 2×, half-open 2×, closed 1×, open 10.2 s; 45 calls refused"
QString breakerSummaryLine(const BreakerSummary& summary);
