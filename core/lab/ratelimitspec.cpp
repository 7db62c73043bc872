// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/ratelimitspec.h"

#include <array>
#include <utility>

namespace {
const std::array<std::pair<RateLimitSpec::Dialect, const char16_t*>, 6> dialectNames { {
    { RateLimitSpec::Dialect::None, u"none" },
    { RateLimitSpec::Dialect::Ietf11, u"ietf-11" },
    { RateLimitSpec::Dialect::Ietf07, u"ietf-07" },
    { RateLimitSpec::Dialect::Legacy, u"legacy" },
    { RateLimitSpec::Dialect::XRateLimit, u"x-ratelimit" },
    { RateLimitSpec::Dialect::GitHub, u"github" },
} };
}

QString RateLimitSpec::dialectName(Dialect dialect)
{
    for (const auto& [d, name] : dialectNames) {
        if (d == dialect)
            return QString::fromUtf16(name);
    }
    return {};
}

std::optional<RateLimitSpec::Dialect> RateLimitSpec::dialectFromName(const QString& name)
{
    for (const auto& [d, n] : dialectNames) {
        if (name == QStringView(n))
            return d;
    }
    return std::nullopt;
}
