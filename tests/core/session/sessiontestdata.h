// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Synthetic runs and attempts with every field set, for the session tests and the benchmark.

#include "engine/attemptrecord.h"
#include "engine/runrecord.h"
#include "session/session.h"

#include <chrono>

namespace SessionTestData {

using namespace std::chrono_literals;

inline AttemptRecord attempt(int runId, int index, bool last, int variant = 0)
{
    AttemptRecord a;
    a.runId = runId;
    a.index = index;
    const MonoTime base = MonoTime(std::chrono::milliseconds(qint64(runId) * 10000 + index * 1000)) + MonoTime(123456);
    a.at.scheduled = base;
    a.at.started = base + 250us;
    a.at.connecting = base + 300us;
    a.at.requestSent = base + 1ms + 1ns;
    a.at.headersReceived = base + 40ms;
    a.at.firstByte = base + 41ms;
    a.at.finished = base + 42ms + 7ns;
    a.phaseReached = AttemptPhase::Finished;
    a.method = QStringLiteral("POST");
    a.url = QUrl(QStringLiteral("http://127.0.0.1:8080/v1/runs?token=abc&page=2"));
    a.requestHeaders = { { "Host", "127.0.0.1:8080", false }, { "Authorization", "Bearer sk_live_123456789", true },
        { "Idempotency-Key", "\"k-1\"", false }, { "X-Retrylab-Attempt", QByteArray::number(runId * 100 + index), false } };
    a.bodySize = 17;
    a.bodySha256 = "ab12";
    a.bytesUp = 17;
    a.bytesDown = variant % 3 == 2 ? 0 : 52;
    a.connectionReused = index > 1;
    a.requestSentSignals = 1;
    a.idempotencyKey = QStringLiteral("k-1");
    a.attemptId = QString::number(runId * 100 + index);
    RetryDecision d;
    if (variant % 3 == 2) { // a reset: no answer
        a.at.headersReceived.reset();
        a.at.firstByte.reset();
        a.phaseReached = AttemptPhase::RequestSent;
        a.error = ErrorClass::ConnectionLost;
        a.qtError = QStringLiteral("Connection closed");
        a.qtErrorCode = 2;
    } else {
        a.status = last ? 201 : 503;
        a.reasonPhrase = last ? QStringLiteral("Created") : QStringLiteral("Service Unavailable");
        a.responseHeaders = { { "Content-Type", "application/json" }, { "Retry-After", "1" },
            { "Set-Cookie", "session=s3cr3t; Path=/" }, { "RateLimit", "limit=10, remaining=3, reset=5" } };
        a.bodyExcerpt = last ? QByteArrayLiteral("{\"id\":\"run_1\",\"status\":\"succeeded\"}") : QByteArrayLiteral("{\"error\":\"x\"}");
        a.rateLimitHeaders = { { "RateLimit", "limit=10, remaining=3, reset=5" } };
        RetryAfterValue r;
        r.delay = std::chrono::milliseconds(1000);
        r.raw = "1";
        r.source = QStringLiteral("retry-after");
        a.retryAfter = r;
    }
    if (last) {
        d.verdict = a.status ? Verdict::Success : Verdict::Stop;
        d.finalKind = a.status ? FinalKind::Success : FinalKind::Network;
        d.reason = a.status ? QStringLiteral("201 is a success") : QStringLiteral("connection lost on POST is not retried");
    } else {
        d.verdict = Verdict::Retry;
        d.delay = std::chrono::milliseconds(900 + index);
        d.ceiling = std::chrono::milliseconds(1000);
        d.delayLow = std::chrono::milliseconds(0);
        d.delayHigh = std::chrono::milliseconds(1000);
        d.source = variant % 2 ? DelaySource::RetryAfter : DelaySource::Backoff;
        d.serverAskedFor = std::chrono::milliseconds(1000);
        d.ruleName = QStringLiteral("503");
        d.quotaCost = 5;
        d.reason = QStringLiteral("503 on POST with a key is retried; Retry-After 1 s honoured");
    }
    a.decision = d;
    a.budgetAfter.quotaTokens = 495;
    return a;
}

inline RunRecord run(int runId, int attempts)
{
    RunRecord r;
    r.runId = runId;
    r.request.method = QStringLiteral("POST");
    r.request.url = QUrl(QStringLiteral("http://127.0.0.1:8080/v1/runs?token=abc&page=2"));
    r.request.headers = { { "Authorization", "Bearer sk_live_123456789" }, { "Content-Type", "application/json" } };
    r.request.body = QByteArrayLiteral("{\"amount\": 1000}");
    r.seed = 41 + std::uint64_t(runId);
    r.submittedAt = MonoTime(std::chrono::milliseconds(qint64(runId) * 10000));
    r.startedAt = r.submittedAt;
    for (int i = 1; i <= attempts; ++i)
        r.attempts.append(attempt(runId, i, i == attempts, runId + i));
    r.finishedAt = r.attempts.last().at.finished;
    r.outcome = r.attempts.last().decision->finalKind;
    r.reason = r.attempts.last().decision->reason;
    r.totalWait = std::chrono::milliseconds(1800);
    return r;
}

inline Session session(int runs, int attemptsPerRun)
{
    Session s;
    s.meta = SessionMeta::current();
    s.meta.notes = QStringLiteral("synthetic");
    s.redaction.salt = "00112233";
    for (int i = 1; i <= runs; ++i)
        s.addRun(run(i, attemptsPerRun));
    return s;
}

} // namespace SessionTestData
