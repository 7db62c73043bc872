// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the main window opens: within the screen's available area (no part under a panel or off the
// screen), at its preferred size when that fits, else filling the area; a saved geometry only when it
// still fits (the screen may have changed, or the scale factor). Plain arithmetic, tested on its own.

#include <QRect>

#include <optional>

namespace WindowFit {
constexpr QSize kPreferred { 1500, 940 };
// Below this available width the request, policy and fault-lab docks share the left area as tabs.
constexpr int kCompactWidth = 1200;
// Below this available height the request and the policy are tabs of the left area, not one above the other.
constexpr int kStackedHeight = 900;

// PREFERRED, cut to AVAILABLE's width and height where it is larger, centred in AVAILABLE.
QRect initial(const QRect& available, QSize preferred = kPreferred);
// SAVED moved inside AVAILABLE when its size fits there; nullopt when it is larger (or empty).
std::optional<QRect> placed(const QRect& saved, const QRect& available);
bool compact(const QRect& available);
bool tooShortToStack(const QRect& available);
}
