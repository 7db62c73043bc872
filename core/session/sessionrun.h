// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/observedfacts.h"
#include "policy/retrydecision.h"
#include "session/heapoptional.h"
#include "session/store/packedattempt.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

// One run of a session: its facts, its policy and request by index (shared between runs that used the same
// ones), and the rows of its attempts in the session's AttemptStore, in attempt order.
struct SessionRun
{
    int runId = 0;
    qsizetype policy = 0; // Session::policies; -1 for an observed run (a client's own: no policy of ours)
    qsizetype request = 0; // Session::requests
    std::uint64_t seed = 0;
    qint64 submittedNs = 0;
    qint64 startedNs = PackedAttempt::kUnset;
    qint64 finishedNs = PackedAttempt::kUnset;
    FinalKind outcome = FinalKind::None; // None: still running (or interrupted)
    QString reason;
    qint64 serverAskedForMs = PackedAttempt::kUnset;
    qint64 totalWaitMs = 0;
    HeapOptional<ObservedGrouping> observed; // a client's run the lab saw, and how its attempts were grouped
    QList<quint32> rows;
};
