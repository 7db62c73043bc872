// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What an attempt and a run carry when a client was watched rather than driven: `retrylab observe` saw
// the exchanges at the fault lab, or a HAR file recorded them (core/observe infers which exchanges were
// one logical request). Such an attempt has no decision: nobody here decided anything. Its facts are the
// wait the client took before it and what the previous answer had asked for.

#include "engine/clock.h"
#include "policy/retrypolicy.h"

#include <QString>

#include <optional>

struct ObservedAttemptFacts
{
    // From the end of the previous answer (or the moment the client hung up on it) to this arrival; unset
    // on the first attempt of a run.
    std::optional<MonoTime> clientWait;
    // What the previous answer asked the client to wait, and the field that said so ("retry-after",
    // "retry-after-ms", "ratelimit-reset"); unset when it asked nothing.
    std::optional<Millis> askedFor;
    QString askedBy;
    quint64 exchange = 0; // the lab's request id (0: imported from a file)

    friend bool operator==(const ObservedAttemptFacts&, const ObservedAttemptFacts&) = default;
};

// How the exchanges of an observed run were grouped into one logical request (core/observe/retryinference.h).
struct ObservedGrouping
{
    QString rule; // "attempt-header", "idempotency-key" or "fingerprint"
    QString evidence; // the header (and value) or the fingerprint the grouping rests on
    bool heuristic = false; // true for the fingerprint rule: a guess from repetition, not the client's word

    friend bool operator==(const ObservedGrouping&, const ObservedGrouping&) = default;
};
