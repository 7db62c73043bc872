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

struct EngineRun
{
    // The request's timeouts and deadline become part of the run's policy snapshot.
    EngineRun(int id, const RequestSpec& request, const RetryPolicy& policy, std::uint64_t seed, MonoTime submittedAt);

    // The next attempt's request part: index, times, URL, ids, headers as they will be sent, body facts.
    AttemptRecord nextAttempt(MonoTime scheduledAt, MonoTime now);
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

    const ResilienceStrategy* breaker() const
    {
        return breakerIndex >= 0 ? &record.policy.pipeline.at(breakerIndex) : nullptr;
    }
    QByteArray bodySha256; // hashed once per run (set when it starts)
};
