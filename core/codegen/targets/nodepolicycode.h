// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The part of a Node unit every Node target shares (got, ky, axios-retry, cockatiel): the policy's
// decisions written in JavaScript the way core/policy makes them (rules first match, backoff and jitter as
// in backoff.cpp/jitter.cpp, hints as in decide.cpp), so each library's own extension point (got
// calculateDelay, ky shouldRetry + delay, axios-retry retryCondition + retryDelay, a cockatiel backoff)
// asks it and stays exact. Only the pieces the policy uses are written.

#include "policy/retrypolicy.h"

#include <QString>

struct NodePolicyCode
{
    QString code; // constants and functions, ending with decide(state, answer) and newState()
    bool readsHeaders = false; // an answer needs header(name) → string | undefined
    bool readsBody = false; // an answer needs body: the parsed JSON body or undefined
    bool readsKey = false; // an answer needs hasKey: the request carries the idempotency key
    bool tracksLostAnswers = false; // an answer needs lostEarlier; decide() updates it
    bool addsKeys = false; // withIdempotencyKey(method, headers) is written
};

NodePolicyCode nodePolicyCode(const RetryPolicy& policy);
