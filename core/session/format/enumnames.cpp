// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/enumnames.h"

#include "session/format/enumspellings.h"

namespace EnumNames {
std::optional<Verdict> verdict(QByteArrayView n) { return EnumSpelling::verdicts().find(n); }
std::optional<DelaySource> delaySource(QByteArrayView n) { return EnumSpelling::delaySources().find(n); }
std::optional<FinalKind> finalKind(QByteArrayView n) { return EnumSpelling::finalKinds().find(n); }
std::optional<AttemptPhase> phase(QByteArrayView n) { return EnumSpelling::phases().find(n); }
std::optional<AbortReason> abortReason(QByteArrayView n) { return EnumSpelling::abortReasons().find(n); }
std::optional<ErrorClass> errorClass(QByteArrayView n) { return EnumSpelling::errorClasses().find(n); }
}
