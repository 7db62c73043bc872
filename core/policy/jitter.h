// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The jitter families of retrypolicy.h as pure functions of one uniform draw, so the same code gives a
// random delay (draw from a RandomSource) and the range a table shows (draws 0 and 1).

#include "policy/retrypolicy.h"

// The jittered value of CEILING_MS (a non-negative real number of milliseconds) for the draw U01 in
// [0, 1]. No cap and no floor here: backoff.h applies them in the order the policy says.
//   None          x
//   Full          U(0, x)                  = x·u
//   Equal         x/2 + U(0, x/2)          = x/2 + x/2·u
//   Proportional  U(x·(1−f), x·(1+f))      (the low end never below 0)
//   Multiplicative x·U(low, high)
//   Additive      x + U(0, additive)
double applyJitter(const Jitter& jitter, double ceilingMs, double u01);

// Whether JITTER takes a draw at all (None does not, so a FixedRandomSource's sequence is not consumed).
bool jitterDraws(const Jitter& jitter);
