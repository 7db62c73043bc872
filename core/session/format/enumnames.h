// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading back the enumeration spellings the engine and policy write (verdictName(), finalKindName()…).

#include "engine/attemptphase.h"
#include "policy/errorclass.h"
#include "policy/retrydecision.h"

#include <QByteArrayView>

#include <optional>

namespace EnumNames {
std::optional<Verdict> verdict(QByteArrayView name);
std::optional<DelaySource> delaySource(QByteArrayView name);
std::optional<FinalKind> finalKind(QByteArrayView name);
std::optional<AttemptPhase> phase(QByteArrayView name);
std::optional<AbortReason> abortReason(QByteArrayView name);
std::optional<ErrorClass> errorClass(QByteArrayView name);
}
