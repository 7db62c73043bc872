// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/jitter.h"

#include <algorithm>

double applyJitter(const Jitter& jitter, double ceilingMs, double u01)
{
    const double x = std::max(0.0, ceilingMs);
    const double u = std::clamp(u01, 0.0, 1.0);
    switch (jitter.kind) {
    case JitterKind::None:
        return x;
    case JitterKind::Full:
        return x * u;
    case JitterKind::Equal:
        return x / 2 + x / 2 * u;
    case JitterKind::Proportional: {
        const double low = std::max(0.0, x * (1 - jitter.factor));
        const double high = std::max(low, x * (1 + jitter.factor));
        return low + (high - low) * u;
    }
    case JitterKind::Multiplicative: {
        const double low = std::min(jitter.low, jitter.high);
        const double high = std::max(jitter.low, jitter.high);
        return std::max(0.0, x * (low + (high - low) * u));
    }
    case JitterKind::Additive:
        return x + double(std::max<qint64>(0, jitter.additive.count())) * u;
    }
    return x;
}

bool jitterDraws(const Jitter& jitter) { return jitter.kind != JitterKind::None; }
