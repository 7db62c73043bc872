// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What `retrylab conform` can hold a client to. The judge reads the policy's retry through decide(); in a
// case with many calls it replays the policy's circuit breaker and hedging along the calls (calls/callsjudge.h);
// an attempt timeout is the client's own and shows as the answer it ends (a failure the breaker counts). A
// total timeout, a rate limiter or a bulkhead it does not judge: a policy with one is refused, by name,
// rather than judged as if it had none. (What the engine runs is another list: engineRefusal.)

#include "policy/retrypolicy.h"

#include <QString>

// Empty when the judge can judge every strategy of POLICY's pipeline; else why not, in one sentence.
QString conformRefusal(const RetryPolicy& policy);
