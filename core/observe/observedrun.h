// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A client's logical request as inferred from the exchanges the lab saw: its attempts in arrival order,
// each with the wait the client took before it and what the previous answer had asked for.

#include "engine/observedfacts.h"
#include "lab/labexchange.h"
#include "observe/attemptevidence.h"
#include "observe/serverask.h"

#include <QDateTime>
#include <QList>

#include <optional>

struct ObservedAttempt
{
    LabExchange exchange;
    int index = 1; // 1 = the first attempt of the run
    std::optional<AttemptEvidence> evidence; // the attempt header it carried, if any
    std::optional<MonoTime> clientWait; // unset on the first attempt
    std::optional<ServerAsk> askedBefore; // what the previous answer asked for
    bool failed = false; // its answer was a failure a client retries (see failedExchange())
};

struct ObservedRun
{
    int id = 0; // 1, 2, … in the order runs began
    ObservedGrouping grouping;
    QList<ObservedAttempt> attempts;
};

// True when a client would take EXCHANGE's answer as a failure worth another attempt: no complete answer
// (reset, closed, truncated, garbage, a hang or the client hanging up) or a status of 408, 409, 425, 429 or
// 5xx — the statuses that curl, urllib3, the AWS and Stainless SDKs, gRPC and Polly retry between them.
bool failedExchange(const LabExchange& exchange);

// When EXCHANGE ended for its client: the answer finished, else the client hung up, else the lab closed or
// reset the connection, else the last moment the lab saw anything of it.
qint64 exchangeEndMs(const LabExchange& exchange);
