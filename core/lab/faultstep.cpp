// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/faultstep.h"

#include <array>
#include <utility>

using namespace Qt::StringLiterals;

namespace {
const std::array<std::pair<FaultStep::Kind, const char16_t*>, 11> kindNames { {
    { FaultStep::Kind::Respond, u"respond" },
    { FaultStep::Kind::Late, u"late" },
    { FaultStep::Kind::Close, u"close" },
    { FaultStep::Kind::Reset, u"reset" },
    { FaultStep::Kind::Truncate, u"truncate" },
    { FaultStep::Kind::Garbage, u"garbage" },
    { FaultStep::Kind::Hang, u"hang" },
    { FaultStep::Kind::Refuse, u"refuse" },
    { FaultStep::Kind::RateLimit, u"rate-limit" },
    { FaultStep::Kind::Forward, u"forward" },
    { FaultStep::Kind::Outage, u"outage" },
} };
}

QString FaultStep::kindName(Kind kind)
{
    for (const auto& [k, name] : kindNames) {
        if (k == kind)
            return QString::fromUtf16(name);
    }
    return {};
}

std::optional<FaultStep::Kind> FaultStep::kindFromName(const QString& name)
{
    for (const auto& [k, n] : kindNames) {
        if (name == QStringView(n))
            return k;
    }
    return std::nullopt;
}

bool FaultStep::appliesByDefault() const
{
    switch (kind) {
    case Kind::Respond:
        return status >= 200 && status < 300;
    case Kind::Late:
    case Kind::Truncate:
        return true;
    default:
        return false;
    }
}

bool FaultStep::writesAnswer() const
{
    return kind == Kind::Respond || kind == Kind::Late || kind == Kind::Truncate || kind == Kind::RateLimit
        || (kind == Kind::Outage && outageMode == OutageMode::Status);
}
