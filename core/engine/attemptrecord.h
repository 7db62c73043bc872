// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Everything one attempt did, as the engine observed it. An attempt that was handed to the transport
// appears exactly once, with its true timings; the engine never sends anything it does not record.

#include "engine/attemptphase.h"
#include "engine/clock.h"
#include "engine/observedfacts.h"
#include "http/httpfield.h"
#include "http/ratelimitparse.h"
#include "http/retryafter.h"
#include "policy/decide.h"
#include "policy/errorclass.h"
#include "policy/resilience/circuitbreaker.h"
#include "policy/retrydecision.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QNetworkReply>
#include <QString>
#include <QUrl>

#include <optional>

// A request header as sent. `secret` marks values exports redact by default.
struct SentHeader
{
    QByteArray name;
    QByteArray value;
    bool secret = false;
    friend bool operator==(const SentHeader&, const SentHeader&) = default;
};

// Monotonic timestamps on the session axis; unset when the phase was not reached (or not observable).
struct AttemptTimestamps
{
    std::optional<MonoTime> scheduled; // when the attempt was due (end of the wait)
    // When it began waiting for a connection, set only when the client's connections per host were all busy
    // (the `queued` phase runs from here to `started`; timeouts count from `started`).
    std::optional<MonoTime> queued;
    // When it began waiting for a half-open circuit's verdict (a breaker whose other callers wait for the
    // probe, cockatiel): the `verdict-wait` phase runs from here until it was let through or refused.
    std::optional<MonoTime> verdictWait;
    std::optional<MonoTime> started; // when it was actually handed to the transport (to the wire)
    std::optional<MonoTime> connecting;
    std::optional<MonoTime> tlsDone;
    std::optional<MonoTime> requestSent;
    std::optional<MonoTime> headersReceived;
    std::optional<MonoTime> firstByte;
    std::optional<MonoTime> finished;
};

// A call a strategy of the policy's pipeline refused before it reached the wire (issue 28 §2). The
// attempt is recorded, never sent: no started moment, no status, no error class.
struct StrategyRefusal
{
    enum class By : quint8 { CircuitBreaker, RateLimiter };
    By by = By::CircuitBreaker;
    QString scope; // the breaker's: "client" or the authority it guards; the limiter's: "client"
    CircuitBreaker::State state = CircuitBreaker::State::Open; // what the call met
    Millis retryIn { 0 }; // until the break ends (0 when unknown, or for a limiter)
    friend bool operator==(const StrategyRefusal&, const StrategyRefusal&) = default;
};

// A copy of a hedged request (issue 28 §2): why it went and whether its answer became the request's. The
// copies of one logical request are its attempts 1, 2, … in the order they went; they overlap in time, and
// a copy still in flight when another won ends with AbortReason::HedgeLost.
struct HedgeFacts
{
    enum class Trigger : quint8 {
        First = 1, // the logical request's first copy
        Delay, // the newest copy had no accepted answer after the hedging delay (latency mode)
        Failure, // a copy's answer was a failure to the hedging: the next one went at once
        Parallel, // every copy at once (delay 0)
    };
    Trigger trigger = Trigger::First;
    bool won = false; // its answer is the request's result
    friend bool operator==(const HedgeFacts&, const HedgeFacts&) = default;
};
QString hedgeTriggerName(HedgeFacts::Trigger trigger); // "first", "delay", "failure", "parallel"

struct AttemptRecord
{
    int runId = 0;
    int index = 1; // 1 = the first attempt of the run
    AttemptTimestamps at;
    AttemptPhase phaseReached = AttemptPhase::Scheduled;

    // ---- request, as sent
    QString method;
    QUrl url;
    QList<SentHeader> requestHeaders;
    qint64 bodySize = 0;
    QByteArray bodySha256; // hex
    qint64 bytesUp = 0; // body bytes the transport actually read from the body device
    qint64 bytesDown = 0; // response body bytes received
    bool connectionReused = false; // no new connection was seen before the request went out
    bool http2Used = false;
    int requestSentSignals = 0; // > 1 would mean a transport re-send (made impossible by the body device)
    QString idempotencyKey; // the key itself; the header carries it as the policy's idempotency.format says
    QString attemptId;

    // ---- answer
    std::optional<int> status;
    QString reasonPhrase;
    HttpHeaderList responseHeaders; // Qt merges duplicates with ", " (Set-Cookie is split back)
    QByteArray bodyExcerpt; // capped (RequestSpec::bodyExcerptCap)
    bool bodyExcerptTruncated = false;
    std::optional<ErrorClass> error; // set when no complete answer arrived
    QString qtError; // Qt's errorString
    int qtErrorCode = 0; // QNetworkReply::NetworkError
    AbortReason abortReason = AbortReason::None;
    std::optional<QUrl> redirectTarget; // Location of a 3xx

    // ---- decision
    std::optional<RetryDecision> decision; // unset for a cancelled attempt
    std::optional<RetryAfterValue> retryAfter; // parsed Retry-After (or retry-after-ms)
    HttpHeaderList rateLimitHeaders; // the rate-limit fields of the answer, as received
    RateLimitParse rateLimit; // every quota they state (any dialect) and the most restrictive one
    BudgetView budgetAfter; // budget and throttle state after the decision
    // How long the per-host throttle held this attempt back before sending it, beyond the wait its decision
    // chose (the first attempt of a run, or a host reset that moved while the run waited).
    Millis throttleWait { 0 };
    std::optional<ObservedAttemptFacts> observed; // set only on an attempt a client made and the lab saw
    std::optional<StrategyRefusal> refused; // set only on a call the pipeline refused (never sent)
    std::optional<HedgeFacts> hedge; // set only on the copies of a hedged request

    std::optional<MonoTime> duration() const
    {
        if (at.started && at.finished)
            return *at.finished - *at.started;
        return std::nullopt;
    }
};

// Emitted while an attempt is under way.
struct AttemptPhaseEvent
{
    int runId = 0;
    int index = 1;
    AttemptPhase phase = AttemptPhase::Started;
    MonoTime at { 0 };
};

// Emitted when a retry is scheduled: the next attempt is due at `dueAt`.
struct WaitInfo
{
    int runId = 0;
    int nextIndex = 2;
    MonoTime scheduledAt { 0 }; // when the decision was taken
    MonoTime dueAt { 0 }; // the deadline of the wait
    RetryDecision decision;
    // The host throttle held the next attempt back (no decision asked for this wait; the attempt's row
    // carries it as its throttle wait).
    bool throttleHold = false;
};

Q_DECLARE_METATYPE(AttemptRecord)
Q_DECLARE_METATYPE(AttemptPhaseEvent)
Q_DECLARE_METATYPE(WaitInfo)
