// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/packedattempt.h"

#include <cmath>

bool PackedAttemptCold::isDefault() const
{
    const PackedAttemptCold d;
    return serverAskedForMs == d.serverAskedForMs && retryAfterMs == d.retryAfterMs && hostResetInMs == d.hostResetInMs
        && throttleWaitMs == d.throttleWaitMs && clientWaitNs == d.clientWaitNs && askedForMs == d.askedForMs
        && exchange == d.exchange && std::isnan(throttlingTokens) && qtErrorCode == d.qtErrorCode
        && qtError == d.qtError && hintHeader == d.hintHeader
        && redirectTarget == d.redirectTarget && retryAfterRaw == d.retryAfterRaw
        && retryAfterSource == d.retryAfterSource && askedBy == d.askedBy && refusedRetryInMs == d.refusedRetryInMs
        && verdictWaitNs == d.verdictWaitNs && refusedScope == d.refusedScope && refusedBy == d.refusedBy
        && refusedState == d.refusedState && hedgeTrigger == d.hedgeTrigger && hedgeWon == d.hedgeWon;
}
