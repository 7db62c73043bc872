// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The colour of the herd experiment's policy number INDEX, the same in every chart, the legend, the policy
// list and the totals table; lighter on dark palettes. Four hues far apart for the four policies one can
// add, two more for a built-in experiment with more.

#include <QColor>

QColor herdPolicyColor(int index, bool dark);
