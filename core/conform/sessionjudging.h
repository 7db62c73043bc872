// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `retrylab conform --policy P --session FILE`: traffic already recorded, judged run by run. A session's
// observed runs (a client seen by the lab, or imported from HAR) are judged; a session with none has its
// engine runs judged instead (Retrylab against its own policy, or another one). One judge for the whole
// session, so budgets carry from run to run as they would in one client. There is no exit status to read:
// a run that stopped where the policy retries is a finding only when the session went on, quiet, for
// longer than the policy's wait (else a note).

#include "conform/conformancerunner.h"

class Session;

QList<CaseResult> judgeSession(const Session& session, const RetryPolicy& policy, const JudgeOptions& options);
