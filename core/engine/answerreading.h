// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the engine reads from an attempt's answer before deciding: the Retry-After hint, the rate-limit
// fields (raw, and parsed in every dialect with the most restrictive quota picked), and the outcome and
// request facts decide() takes.

#include "engine/attemptrecord.h"
#include "policy/attemptoutcome.h"

#include <QDateTime>

// Fills RECORD's retryAfter, rateLimitHeaders and rateLimit from its response headers, read against NOW.
void readAnswerHints(AttemptRecord& record, const QDateTime& now);

AttemptOutcome outcomeOf(const AttemptRecord& record);
