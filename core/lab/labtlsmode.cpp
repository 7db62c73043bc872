// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labtlsmode.h"

using namespace Qt::StringLiterals;

QString labTlsModeName(LabTlsMode mode)
{
    switch (mode) {
    case LabTlsMode::Off:
        return u"off"_s;
    case LabTlsMode::Valid:
        return u"valid"_s;
    case LabTlsMode::WrongHost:
        return u"wrong-host"_s;
    case LabTlsMode::Garbage:
        return u"garbage"_s;
    case LabTlsMode::Stall:
        return u"stall"_s;
    }
    return {};
}

std::optional<LabTlsMode> labTlsModeFromName(const QString& name)
{
    for (LabTlsMode mode : { LabTlsMode::Off, LabTlsMode::Valid, LabTlsMode::WrongHost, LabTlsMode::Garbage,
             LabTlsMode::Stall }) {
        if (labTlsModeName(mode) == name)
            return mode;
    }
    return std::nullopt;
}
