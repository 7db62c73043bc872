// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/retrydecision.h"

#include "policy/enumtext.h"

QString verdictName(Verdict verdict) { return EnumText::name(verdict); }

QString delaySourceName(DelaySource source) { return EnumText::name(source); }

QString finalKindName(FinalKind kind) { return EnumText::name(kind); }

QString formatMillis(Millis value)
{
    const qint64 ms = value.count();
    if (ms < 0)
        return QStringLiteral("-") + formatMillis(Millis(-ms));
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60'000) {
        if (ms % 1000 == 0)
            return QStringLiteral("%1 s").arg(ms / 1000);
        return QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'g', 4);
    }
    if (ms < 3'600'000)
        return QStringLiteral("%1 min %2 s").arg(ms / 60'000).arg((ms % 60'000) / 1000);
    return QStringLiteral("%1 h %2 min").arg(ms / 3'600'000).arg((ms % 3'600'000) / 60'000);
}
