// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/attemptphase.h"
#include "engine/attemptrecord.h"

#include "engine/enumtext.h"

QString attemptPhaseName(AttemptPhase phase) { return EnumText::name(phase); }

QString abortReasonName(AbortReason reason) { return EnumText::name(reason); }

QString hedgeTriggerName(HedgeFacts::Trigger trigger)
{
    switch (trigger) {
    case HedgeFacts::Trigger::First: return QStringLiteral("first");
    case HedgeFacts::Trigger::Delay: return QStringLiteral("delay");
    case HedgeFacts::Trigger::Failure: return QStringLiteral("failure");
    case HedgeFacts::Trigger::Parallel: return QStringLiteral("parallel");
    }
    return {};
}
