// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The waits a session's attempts say were taken, read from their rows: what every view draws between two
// attempts of a run, the same for a batch or an observation shown live as for the session opened from its
// file (both read these, from the same rows).
//  - After an attempt the engine decided to retry: the decided delay, from the attempt's end.
//  - Before an attempt a watched client sent again: the time it waited since the previous answer ended,
//    drawn as the server's ask (Retry-After, retry-after-ms or another hint) when the previous answer asked
//    for a wait and the client waited at least 90 % of it, else as the client's own backoff.
//  - Before an attempt the host throttle held back: from when it was held to when it was due (live, the
//    engine reports the hold as it begins; its row says the same once the attempt has gone).

#include "engine/attemptrecord.h"
#include "session/store/attemptstore.h"

#include <optional>

namespace AttemptWaits {

// The wait around attempt ROW that its own row decided or observed: after it (the engine's retry) or before
// it (a client's wait). Nothing for a first observed attempt, a final, cancelled or throttle-held one.
std::optional<WaitInfo> drawnWait(const AttemptStore& store, qsizetype row);
// Whether ROW implies such a wait, without building it.
bool hasDrawnWait(const PackedAttempt& attempt);

// The host throttle's hold before attempt ROW (its throttle wait): nothing when it was not held.
std::optional<WaitInfo> throttleHold(const AttemptStore& store, qsizetype row);

// Whether a client that waited WAITED after an answer that asked for ASKED took the ask: at least 90 % of
// it (timers fire a little early; a client that rounds the ask down still honours it).
bool honouredAsk(Millis waited, Millis asked);

} // namespace AttemptWaits
