// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Recorded versus replayed, side by side: outcome, attempts, amplification, total time, time waiting and
// operations the server applied, per run and in total; and the attempt-for-attempt check that a replay
// under the original policy and seed took the same decisions with the same delays.

#include "session/session.h"

#include <QJsonObject>
#include <QList>
#include <QString>

struct ReplaySide
{
    FinalKind outcome = FinalKind::None;
    int attempts = 0;
    qint64 totalMs = 0; // first attempt start to last attempt end
    qint64 waitingMs = 0;
    int operationsApplied = -1; // -1: unknown (no lab events)
};

struct ReplayRunRow
{
    int recordedRunId = 0;
    int replayedRunId = 0;
    ReplaySide recorded;
    ReplaySide replayed;
};

struct ReplayTotals
{
    int runs = 0;
    int succeeded = 0;
    int attempts = 0;
    double amplification = 0; // attempts per run
    qint64 totalMs = 0;
    qint64 waitingMs = 0;
    int operationsApplied = -1;
};

struct ReplayComparison
{
    QList<ReplayRunRow> runs;
    ReplayTotals recorded;
    ReplayTotals replayed;

    // Runs pair up in order: the i-th run of RECORDED with the i-th run of REPLAYED.
    static ReplayComparison compare(const Session& recorded, const Session& replayed);
    // Empty when every paired attempt has the same verdict, final kind, delay and delay source.
    static QString firstDecisionDifference(const Session& recorded, const Session& replayed);

    QJsonObject toJson() const;
    QString toText() const;
};
