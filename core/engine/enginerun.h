// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One run as RetryEngine drives it: the record it reports plus the state kept between attempts. Private to
// the engine (core/engine/retryengine.cpp).

#include "engine/lazyrandomsource.h"
#include "engine/requestheaders.h"
#include "engine/runrecord.h"
#include "engine/scheduler.h"
#include "engine/transport.h"
#include "policy/backoff.h"
#include "policy/randomsource.h"

#include <QNetworkCookieJar>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

struct EngineRun
{
    // The request's timeouts and deadline become part of the run's policy snapshot.
    EngineRun(int id, const RequestSpec& request, const RetryPolicy& policy, std::uint64_t seed, MonoTime submittedAt);

    // The next attempt's request part: index, times, URL, ids, headers as they will be sent, body facts.
    // INDEX 0: the next by count (a retry's); a hedged copy passes its own number.
    AttemptRecord nextAttempt(MonoTime scheduledAt, MonoTime now, int index = 0);
    AttemptLimits limits() const;

    RunRecord record;
    std::unique_ptr<LazyRandomSource> random;
    BackoffState backoff;
    std::unique_ptr<QNetworkCookieJar> cookies;
    QString idempotencyKey;
    QString attemptRun = newAttemptId(); // the run's part of every attempt id (attemptIdFor)
    QUrl target; // where the next attempt goes (changes when a redirect is followed)
    int redirects = 0;
    bool started = false;
    bool answerLost = false;
    bool cancelling = false;
    int quotaAcquired = 0;
    Transport* transport = nullptr;
    int wireSlot = -1; // the slot the attempt in flight holds (engine/wireslots.h)
    // Waiting for a connection (the policy's connections per host are all busy): the host it waits for,
    // since when, and when the attempt had been due.
    QString queuedFor;
    std::optional<MonoTime> queuedSince;
    MonoTime queuedDueAt { 0 };
    std::optional<Scheduler::TaskId> waitTask; // a retry wait, or the deadline while queued
    Millis throttleHeld { 0 }; // held back by the host throttle before the next attempt

    // ---- the pipeline around the retry (issue 28 §2)
    int breakerIndex = -1; // the circuit breaker's strategy in the pipeline, -1: none
    bool breakerPerAttempt = true; // inside the retry (or no retry): every attempt asks it; outside: the run is one call
    bool breakerInsideRetry = false; // a call it refuses is the retry's to decide on (else the run ends)
    std::optional<CircuitBreaker::Ticket> breakerTicket; // admitted, result not yet recorded
    QString breakerKey; // the breaker the ticket (or the wait below) belongs to
    std::optional<MonoTime> verdictWaitSince; // waiting for a half-open verdict (cockatiel)
    MonoTime verdictDueAt { 0 }; // when the attempt waiting for the verdict had been due
    int limiterIndex = -1; // a rate limiter or bulkhead outside the retry, -1: none
    bool holdsPermit = false;
    bool limiterQueued = false;

    // ---- hedging (issue 28 §2): copies of the logical request in flight at once, each an attempt. The
    // strategies inside the hedging (a breaker, a limiter, the attempt timeout) guard each copy.
    int hedgingIndex = -1; // the hedging strategy in the pipeline, -1: none
    bool breakerPerCopy = false; // the breaker is inside the hedging
    bool limiterPerCopy = false; // the limiter is inside the hedging (a permit per copy, no queue)
    std::optional<Hedging> hedging; // made when the first copy goes
    struct HedgeCopy
    {
        int index = 0;
        Transport* transport = nullptr;
        int wireSlot = -1;
        std::optional<CircuitBreaker::Ticket> breakerTicket;
        bool holdsPermit = false;
    };
    std::vector<HedgeCopy> copies; // in flight
    std::optional<Scheduler::TaskId> hedgeTask; // the next copy's delay
    HedgeCopy* copy(int index)
    {
        for (HedgeCopy& c : copies)
            if (c.index == index)
                return &c;
        return nullptr;
    }
    // Milliseconds since the run started: the hedging machine's clock.
    Millis sinceStart(MonoTime now) const { return std::chrono::duration_cast<Millis>(now - record.startedAt.value_or(now)); }

    // One limiter per policy and limiter strategy, shared by the policy's runs.
    QString limiterKey() const { return record.policy.name + u'|' + QString::number(limiterIndex); }
    const ResilienceStrategy* breaker() const
    {
        return breakerIndex >= 0 ? &record.policy.pipeline.at(breakerIndex) : nullptr;
    }
    QByteArray bodySha256; // hashed once per run (set when it starts)
};
