// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/attemptrecord.h"
#include "engine/observedfacts.h"
#include "engine/requestspec.h"
#include "policy/retrypolicy.h"

#include <QList>
#include <QMetaType>

#include <cstdint>

// How one logical request went: its seed, its moments, how many attempts it made and how it ended. Small
// (about 150 bytes): what a live view keeps per run, without the request and policy it was asked with.
struct RunProgress
{
    int runId = 0;
    std::uint64_t seed = 0;
    MonoTime submittedAt { 0 };
    std::optional<MonoTime> startedAt;
    std::optional<MonoTime> finishedAt;
    int attemptCount = 0; // attempts finished so far
    FinalKind outcome = FinalKind::None; // None while running
    QString reason; // the final decision's reason (or why the run was cancelled)
    std::optional<Millis> serverAskedFor; // rate-limited: the server's Retry-After
    Millis totalWait { 0 }; // sum of the waits actually taken (actual start − decision time)
    std::optional<ObservedGrouping> observed; // a client's run seen by the lab, not the engine's: how it was grouped

    bool succeeded() const { return outcome == FinalKind::Success; }
};

// One logical request's facts: what was asked, under which policy, and how it went. What the engine's
// runStarted / runFinished carry: the attempts themselves each came once, with attemptFinished, and are
// held once, in the session's store.
struct RunSummary : RunProgress
{
    RequestSpec request;
    RetryPolicy policy; // snapshot taken when the run started
};

// A run with its attempts, for the code that holds a whole run in hand (a report, a judge, a test).
struct RunRecord : RunSummary
{
    QList<AttemptRecord> attempts;
};

Q_DECLARE_METATYPE(RunSummary)
Q_DECLARE_METATYPE(RunRecord)
