// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/answerreading.h"

#include "engine/requestheaders.h"
#include "http/ratelimitparser.h"
#include "http/retryafter.h"

void readAnswerHints(AttemptRecord& record, const QDateTime& now)
{
    if (!record.status)
        return;
    record.retryAfter = parseRetryAfter(record.responseHeaders, now);
    record.rateLimitHeaders = rateLimitFieldsOf(record.responseHeaders);
    if (!record.rateLimitHeaders.isEmpty())
        record.rateLimit = parseRateLimits(record.responseHeaders, now);
}

AttemptOutcome outcomeOf(const AttemptRecord& record)
{
    AttemptOutcome outcome;
    outcome.status = record.status;
    outcome.headers = record.responseHeaders;
    outcome.body = record.bodyExcerpt;
    outcome.error = record.error;
    outcome.errorDetail = record.qtError;
    outcome.deadlinePassed = record.abortReason == AbortReason::Deadline;
    outcome.redirectTarget = record.redirectTarget;
    return outcome;
}
