// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attempt as a session stores it: numbers inline, texts as StringPool ids, header blocks as offsets
// into the store's header arena. Two parts: what nearly every attempt has (PackedAttemptHot: moments,
// status, decision, retry quota, texts, header blocks), and what only some have (PackedAttemptCold:
// Retry-After and hints, an observed client's wait, throttling tokens and host limits, throttle waits, Qt
// errors, redirects). The store keeps the hot part of every attempt (216 bytes) and a cold part only for an attempt that has one of those facts;
// PackedAttempt, both parts, is the value its readers get.

#include <QtGlobal>

#include <limits>

struct PackedAttemptHot
{
    static constexpr qint64 kUnset = std::numeric_limits<qint64>::min();
    enum TimeSlot {
        Scheduled,
        Queued,
        Started,
        Connecting,
        TlsDone,
        RequestSent,
        HeadersReceived,
        FirstByte,
        Finished,
        SlotCount
    };

    qint64 at[SlotCount] = { kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset }; // ns on the session axis
    qint64 delayMs = kUnset; // unset: no decision (cancelled)
    qint64 ceilingMs = 0;
    qint64 delayLowMs = 0;
    qint64 delayHighMs = 0;
    qint64 bodySize = 0;
    qint64 bytesUp = 0;
    qint64 bytesDown = 0;
    qint32 runId = 0;
    qint32 index = 1;
    qint32 status = -1; // -1: no status
    // The retry quota (AWS presets): on every attempt of a run whose policy has one, so kept hot.
    qint32 quotaCost = 0;
    qint32 quotaTokens = std::numeric_limits<qint32>::min(); // min: unknown
    // StringPool ids (AttemptStore::append(const AttemptStore&) translates each of them, cold ones too)
    quint32 method = 0, url = 0, reasonPhrase = 0, reason = 0, ruleName = 0;
    quint32 idempotencyKey = 0, attemptId = 0, bodySha256 = 0, bodyExcerpt = 0;
    // header arena offsets (0: none)
    quint32 requestHeaders = 0, responseHeaders = 0, rateLimitHeaders = 0;
    quint32 coldRow = 0; // the store's own link to this attempt's cold part: its row + 1, 0 when it has none
    qint16 requestSentSignals = 0;
    qint8 phaseReached = 0; // AttemptPhase
    qint8 error = -1; // ErrorClass, -1 none
    qint8 abortReason = 0; // AbortReason
    qint8 verdict = -1; // Verdict, -1: no decision
    qint8 finalKind = 0; // FinalKind
    qint8 delaySource = 0; // DelaySource
    bool connectionReused = false;
    bool http2 = false;
    bool bodyExcerptTruncated = false;
    bool throttling = false;
    bool retryAfterValid = false; // a Retry-After (or hint) field was present
    bool observed = false; // a client's attempt the lab saw (verdict is then -1: nobody here decided)
};

struct PackedAttemptCold
{
    qint64 serverAskedForMs = PackedAttemptHot::kUnset;
    qint64 retryAfterMs = PackedAttemptHot::kUnset;
    qint64 hostResetInMs = PackedAttemptHot::kUnset;
    qint64 throttleWaitMs = 0; // the per-host throttle's wait before this attempt
    // An observed attempt (`observed`; no decision): the client's wait before it, and what the previous
    // answer asked for.
    qint64 clientWaitNs = PackedAttemptHot::kUnset;
    qint64 askedForMs = PackedAttemptHot::kUnset;
    qint64 exchange = 0; // the lab's request id
    double throttlingTokens = std::numeric_limits<double>::quiet_NaN();
    qint32 qtErrorCode = 0;
    // StringPool ids
    quint32 qtError = 0, hintHeader = 0, redirectTarget = 0, retryAfterRaw = 0, retryAfterSource = 0, askedBy = 0;
    // A call the pipeline refused (never sent): by what (-1: it was not refused), the state it met, how long
    // the break had left, the breaker's scope (a StringPool id); and when it began waiting for a half-open
    // circuit's verdict.
    qint64 refusedRetryInMs = 0;
    qint64 verdictWaitNs = PackedAttemptHot::kUnset;
    quint32 refusedScope = 0;
    qint8 refusedBy = -1; // StrategyRefusal::By
    qint8 refusedState = 0; // CircuitBreaker::State
    // A copy of a hedged request: why it went (HedgeFacts::Trigger; 0: not a copy) and whether it won.
    qint8 hedgeTrigger = 0;
    bool hedgeWon = false;

    // Whether every field holds its default (then the store keeps no cold part).
    bool isDefault() const;
};

struct PackedAttempt : PackedAttemptHot, PackedAttemptCold
{
};

static_assert(sizeof(PackedAttemptHot) == 216 && sizeof(PackedAttemptCold) == 120, "the sizes the comments and benchmarks state");
