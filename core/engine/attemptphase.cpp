// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/attemptphase.h"

#include "engine/enumtext.h"

QString attemptPhaseName(AttemptPhase phase) { return EnumText::name(phase); }

QString abortReasonName(AbortReason reason) { return EnumText::name(reason); }
