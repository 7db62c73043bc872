// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small, fully known session for the live-view tests: three runs on the fault lab's axis.
//   run 1  attempt 1 (new HTTP connection) 429 with RateLimit r=0, Retry-After 1 s → wait 1 s (Retry-After)
//          attempt 2 (reused connection) 201, RateLimit r=9 → success
//   run 2  attempt 1 (TLS) 500 → wait 200 ms (backoff); attempt 2 connection reset → stop (network)
//   run 3  attempt 1 still in flight (latest time 450 ms)
// Lab events: four requests received (three with an attempt id, one without), one operation applied.

#include "livefeed.h"

#include <chrono>

namespace livefixture {

inline MonoTime at(double ms)
{
    return MonoTime(qint64(ms * 1e6));
}

inline AttemptRecord attempt(int runId, int index, double started, double finished)
{
    AttemptRecord a;
    a.runId = runId;
    a.index = index;
    a.method = QStringLiteral("POST");
    a.url = QUrl(QStringLiteral("http://127.0.0.1:8080/api/orders"));
    a.attemptId = QStringLiteral("a-%1-%2").arg(runId).arg(index);
    a.at.scheduled = a.at.started = at(started);
    if (finished >= 0)
        a.at.finished = at(finished);
    a.phaseReached = finished >= 0 ? AttemptPhase::Finished : AttemptPhase::RequestSent;
    return a;
}

inline RetryDecision retryAfter(Millis delay, DelaySource source)
{
    RetryDecision d;
    d.verdict = Verdict::Retry;
    d.delay = delay;
    d.ceiling = Millis(400);
    d.delayHigh = Millis(400);
    d.source = source;
    d.reason = QStringLiteral("retried because the fixture says so");
    return d;
}

inline RetryDecision finalDecision(Verdict verdict, FinalKind kind)
{
    RetryDecision d;
    d.verdict = verdict;
    d.finalKind = kind;
    d.reason = QStringLiteral("final by fixture");
    return d;
}

inline LabEvent labEvent(LabEvent::Kind kind, qint64 ms, const QString& attemptId)
{
    LabEvent e;
    e.kind = kind;
    e.atMs = ms;
    e.attemptId = attemptId;
    e.method = "POST";
    e.path = QStringLiteral("/api/orders");
    return e;
}

// Into LIVE (cleared first), through a recorder as a batch does.
inline void fill(LiveFeed& s)
{
    RunRecord r1;
    r1.runId = 1;
    r1.startedAt = at(0);
    RunRecord r2;
    r2.runId = 2;
    r2.startedAt = at(10);
    RunRecord r3;
    r3.runId = 3;
    r3.startedAt = at(400);
    s.onRunStarted(r1);
    s.onRunStarted(r2);

    AttemptRecord a11 = attempt(1, 1, 0, 60);
    a11.at.connecting = at(1);
    a11.at.requestSent = at(3);
    a11.at.headersReceived = at(50);
    a11.at.firstByte = at(52);
    a11.status = 429;
    a11.rateLimitHeaders = { { "RateLimit-Policy", "\"burst\";q=10;w=5" }, { "RateLimit", "\"burst\";r=0;t=1" } };
    a11.decision = retryAfter(Millis(1000), DelaySource::RetryAfter);
    s.onAttemptStarted(a11);
    s.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, 5, a11.attemptId));
    s.onAttemptFinished(a11);
    s.onWaitScheduled(WaitInfo { 1, 2, at(60), at(1060), *a11.decision });

    AttemptRecord a21 = attempt(2, 1, 10, 90);
    a21.at.connecting = at(11);
    a21.at.tlsDone = at(30);
    a21.at.requestSent = at(31);
    a21.at.headersReceived = at(80);
    a21.status = 500;
    a21.decision = retryAfter(Millis(200), DelaySource::Backoff);
    s.onAttemptStarted(a21);
    s.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, 35, a21.attemptId));
    s.onAttemptFinished(a21);
    s.onWaitScheduled(WaitInfo { 2, 2, at(90), at(290), *a21.decision });

    AttemptRecord a22 = attempt(2, 2, 290, 320);
    a22.at.connecting = at(291);
    a22.at.requestSent = at(300);
    a22.error = ErrorClass::ConnectionLost;
    a22.decision = finalDecision(Verdict::Stop, FinalKind::Network);
    s.onAttemptStarted(a22);
    s.onAttemptFinished(a22);
    r2.attempts = { a21, a22 };
    r2.finishedAt = at(320);
    r2.outcome = FinalKind::Network;
    r2.totalWait = Millis(200);
    r2.reason = QStringLiteral("connection reset; no retries left");
    s.onRunFinished(r2);

    s.onRunStarted(r3);
    AttemptRecord a31 = attempt(3, 1, 400, -1);
    a31.at.connecting = at(401);
    s.onAttemptStarted(a31);
    s.onAttemptPhase(AttemptPhaseEvent { 3, 1, AttemptPhase::RequestSent, at(405) });
    s.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, 500, QString()));

    AttemptRecord a12 = attempt(1, 2, 1060, 1120);
    a12.at.headersReceived = at(1100);
    a12.status = 201;
    a12.rateLimitHeaders = { { "RateLimit-Policy", "\"burst\";q=10;w=5" }, { "RateLimit", "\"burst\";r=9;t=5" } };
    a12.decision = finalDecision(Verdict::Success, FinalKind::Success);
    s.onAttemptStarted(a12);
    s.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, 1065, a12.attemptId));
    LabEvent applied = labEvent(LabEvent::Kind::OperationApplied, 1105, a12.attemptId);
    applied.idempotencyKey = QStringLiteral("k1");
    applied.applied = true;
    s.onLabEvent(applied);
    s.onAttemptFinished(a12);
    r1.attempts = { a11, a12 };
    r1.finishedAt = at(1120);
    r1.outcome = FinalKind::Success;
    r1.totalWait = Millis(1000);
    s.onRunFinished(r1);
    s.flush();
}

inline void fill(LiveSession& live)
{
    LiveFeed feed(live);
    fill(feed);
}

} // namespace livefixture
