// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/charts/herdpolicycolor.h"

#include <iterator>

QColor herdPolicyColor(int index, bool dark)
{
    // Blue, orange, green, purple: told apart with the common colour-vision deficiencies by lightness too;
    // then teal and brown for a built-in experiment with more (aws-2015's five algorithms).
    static constexpr QRgb kHues[] = { 0x1f6fbf, 0xe0692b, 0x2f9e44, 0x8a4fc9, 0x0f9ea8, 0x8c5a2b };
    const QColor c = QColor::fromRgb(kHues[std::max(0, index) % int(std::size(kHues))]);
    return dark ? c.lighter(135) : c;
}
