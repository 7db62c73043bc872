// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/errorclass.h"

#include "policy/enumtext.h"

QString errorClassName(ErrorClass error) { return EnumText::name(error); }

std::optional<ErrorClass> errorClassFromName(const QString& name)
{
    for (int i = 0; i < EnumText::enumCount<ErrorClass>(); ++i) {
        if (name == EnumText::name(ErrorClass(i)))
            return ErrorClass(i);
    }
    return std::nullopt;
}

QStringList errorClassNames()
{
    QStringList names;
    for (int i = 0; i < EnumText::enumCount<ErrorClass>(); ++i)
        names << EnumText::name(ErrorClass(i));
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
