// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whether two sessions being compared sent the same requests: run i of A against run i of B, by method,
// path with query, and body (the host may differ, and an offline what-if replay sends run N to its private
// lab's /replay/run-N). Compare figures of different requests compare different things, so the view says so.

#include <QString>

class Session;

namespace RequestDifference {
// Empty when the first PAIRS runs of A and B send the same requests; else one sentence naming the first
// difference and how many pairs differ.
QString describe(const Session& a, const Session& b, qsizetype pairs);
}
