// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/errorclass.h"

#include <array>
#include <utility>

namespace {

constexpr std::array<std::pair<ErrorClass, const char*>, 7> kNames { {
    { ErrorClass::Dns, "dns" },
    { ErrorClass::Refused, "refused" },
    { ErrorClass::Tls, "tls" },
    { ErrorClass::ConnectTimeout, "connect-timeout" },
    { ErrorClass::ResponseTimeout, "response-timeout" },
    { ErrorClass::ConnectionLost, "connection-lost" },
    { ErrorClass::Protocol, "protocol" },
} };

} // namespace

QString errorClassName(ErrorClass error)
{
    for (const auto& [value, name] : kNames) {
        if (value == error)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<ErrorClass> errorClassFromName(const QString& name)
{
    for (const auto& [value, text] : kNames) {
        if (name == QLatin1String(text))
            return value;
    }
    return std::nullopt;
}

QStringList errorClassNames()
{
    QStringList names;
    for (const auto& entry : kNames)
        names << QString::fromLatin1(entry.second);
    return names;
}

bool errorClassServerCouldHaveActed(ErrorClass error)
{
    switch (error) {
    case ErrorClass::Dns:
    case ErrorClass::Refused:
    case ErrorClass::Tls:
    case ErrorClass::ConnectTimeout:
        return false;
    case ErrorClass::ResponseTimeout:
    case ErrorClass::ConnectionLost:
    case ErrorClass::Protocol:
        return true;
    }
    return true;
}

bool errorClassIsTimeout(ErrorClass error)
{
    return error == ErrorClass::ConnectTimeout || error == ErrorClass::ResponseTimeout;
}
