// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The words the views use for a copy of a hedged request, in one place (the attempts table, the detail
// pane, the timeline's tooltip): what the copy was — why it went — and how it ended: won, lost to the copy
// that won while it was still in flight, failed, or never sent. A lost copy was cancelled by the hedging,
// not by the user: it is never called "cancelled" on its own.

#include <QString>

#include <chrono>

#include <optional>

struct AttemptRecord;
class Session;

namespace HedgeWords {

// What the rest of a copy's run says about it.
struct CopyContext
{
    int winner = 0; // the copy whose answer won, among those that ended no later than this one; 0: none
    std::optional<std::chrono::milliseconds> delay; // the policy's hedging delay (latency mode only)
};

// From SESSION (the one store the views read; null: nothing known): the copy that won before A ended, and
// the hedging delay of A's run's policy. Reads only A's run's few rows.
CopyContext contextOf(const Session* session, const AttemptRecord& a);

// Short, for a table cell: "copy 2 (after the delay) — won", "copy 1 — lost to copy 2", "copy 1 — failed",
// "copy 3 (in parallel) — not sent". Empty for an attempt that is no copy of a hedged request.
QString label(const AttemptRecord& a, const CopyContext& context);
// A line: "copy 2: sent after the 300 ms hedging delay — won", "copy 1: the request's first copy — lost to
// copy 2, cancelled in flight". Empty for an attempt that is no copy.
QString sentence(const AttemptRecord& a, const CopyContext& context);
// Why a lost copy has no decision: "cancelled in flight when copy 2's answer won: nothing was decided on
// it". Empty for any other attempt.
QString lostReason(const AttemptRecord& a, const CopyContext& context);
// Whether A is a copy that lost (still in flight when another copy won).
bool isLost(const AttemptRecord& a);

} // namespace HedgeWords
