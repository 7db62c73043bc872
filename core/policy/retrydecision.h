// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QString>
#include <QUrl>

#include <optional>

enum class Verdict {
    Retry, // send again after `delay`
    Stop, // give up: the outcome is final and a failure
    Success, // the outcome is final and a success
};

// Which source set the delay of a retry.
enum class DelaySource {
    None,
    Backoff, // the policy's backoff and jitter
    RetryAfter, // the Retry-After header
    RetryAfterMs, // retry-after-ms
    ServerHint, // another hint header (x-amz-retry-after, grpc-retry-pushback-ms…); see hintHeader
    Throttle, // the per-host throttle's wait for a reported reset
};

// Why a run ended, in the words a user recognises. Set on Stop (and Success) decisions.
enum class FinalKind {
    None, // not final (Retry)
    Success,
    RateLimited, // 429 (or a throttling rule) and no retry left: see serverAskedFor
    ServerError, // 5xx
    ClientError, // other 4xx
    Network, // an error class
    Deadline, // the overall deadline would be crossed
    BudgetExhausted, // retry quota or retry throttling refused the retry
    RetryAfterTooLong, // the server asked for longer than the policy will wait
    BodyNotRewindable, // the body cannot be sent again
    Cancelled, // the user cancelled (set by the engine, never by decide())
    CircuitOpen, // the pipeline's circuit breaker refused the call and nothing retried it
    LimiterFull, // the pipeline's rate limiter (bulkhead) had no permit and no room in its queue
};

struct RetryDecision
{
    Verdict verdict = Verdict::Stop;
    FinalKind finalKind = FinalKind::None;
    Millis delay { 0 }; // chosen wait before the next attempt (Retry only)
    Millis ceiling { 0 }; // the backoff ceiling before jitter (Retry only)
    Millis delayLow { 0 }; // the range the delay could have been drawn from
    Millis delayHigh { 0 };
    DelaySource source = DelaySource::None;
    QString hintHeader; // the header that set the delay, when source is a hint
    std::optional<Millis> serverAskedFor; // what Retry-After (or a hint) asked for, even when not honoured
    QString ruleName; // the rule that matched, empty for the built-in fallback
    bool throttling = false; // the matched rule marks a throttling error
    int quotaCost = 0; // retry-quota tokens this retry takes (Retry only)
    QString reason; // one human sentence: "503 on GET is retried; Retry-After 2 s honoured (≤ 30 s cap)"
    std::optional<QUrl> redirectTo; // a redirect followed: the next attempt goes there (Retry, no wait)

    // What the owner of the shared budgets applies once the decision is taken.
    struct Effects
    {
        bool throttlingFailure = false; // take one gRPC retry-throttling token (gRFC A6)
        int quotaTaken = 0; // retry-quota tokens to take now (a retry's quotaCost)
        bool success = false; // a final success: the quota's refund or reward, a throttling token back
        friend bool operator==(const Effects&, const Effects&) = default;
    };
    Effects effects;
};

QString verdictName(Verdict verdict); // "retry", "stop", "success"
QString delaySourceName(DelaySource source); // "backoff", "retry-after", "retry-after-ms", "hint", "throttle", "none"
QString finalKindName(FinalKind kind); // "success", "rate-limited", "server-error", … (as in the engine issue)

// "200 ms", "2 s", "1.5 s", "2 min 5 s", "6 h 0 min": how reasons and tables show durations.
QString formatMillis(Millis value);
