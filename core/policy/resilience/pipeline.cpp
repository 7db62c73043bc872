// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/resilience/pipeline.h"

#include "policy/retrypolicy.h"

#include <QCoreApplication>

using Kind = ResilienceStrategy::Kind;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ResiliencePipeline", text);
}

QString at(qsizetype index, const char* field = nullptr)
{
    QString path = QStringLiteral("pipeline[%1]").arg(index);
    if (field)
        path += u'.' + QString::fromLatin1(field);
    return path;
}

// The first strategy of KIND, or -1.
qsizetype find(const QList<ResilienceStrategy>& pipeline, Kind kind)
{
    for (qsizetype i = 0; i < pipeline.size(); ++i)
        if (pipeline.at(i).kind == kind)
            return i;
    return -1;
}

QString msText(Millis value)
{
    return QStringLiteral("%1 ms").arg(value.count());
}

} // namespace

QStringList strategyKindNames()
{
    return { QStringLiteral("total_timeout"), QStringLiteral("retry"), QStringLiteral("circuit_breaker"),
        QStringLiteral("attempt_timeout"), QStringLiteral("hedging"), QStringLiteral("rate_limiter"),
        QStringLiteral("bulkhead") };
}

QString strategyKindName(Kind kind)
{
    return strategyKindNames().value(int(kind));
}

QList<PolicyProblem> validatePipeline(const RetryPolicy& policy)
{
    const QList<ResilienceStrategy>& pipeline = policy.pipeline;
    QList<PolicyProblem> problems;
    if (pipeline.isEmpty())
        return problems; // the retry alone
    const auto add = [&](const QString& path, const QString& message) { problems.append({ path, message }); };

    for (qsizetype i = 0; i < pipeline.size(); ++i) {
        const ResilienceStrategy& s = pipeline.at(i);
        const qsizetype first = find(pipeline, s.kind);
        if (first != i && s.kind != Kind::RateLimiter && s.kind != Kind::Bulkhead)
            add(at(i, "strategy"),
                tr("a second %1 (the first is pipeline[%2]); a pipeline has one of each").arg(strategyKindName(s.kind)).arg(first));
        switch (s.kind) {
        case Kind::TotalTimeout:
        case Kind::AttemptTimeout:
            if (s.timeout.count() < 1 || s.timeout.count() > 86400000)
                add(at(i, "timeout_ms"), tr("must be given, from 1 ms to a day"));
            break;
        case Kind::CircuitBreaker:
            for (const CircuitBreakerProblem& p : validate(s.breaker))
                add(at(i) + u'.' + p.path, p.message);
            if (s.failures.isEmpty() && !s.slowCall)
                add(at(i, "failures"), tr("is empty: nothing would ever open the breaker"));
            if (s.slowCall && s.slowCall->count() < 1)
                add(at(i, "slow_call_ms"), tr("must be 1 ms or more"));
            break;
        case Kind::Hedging:
            for (const HedgingProblem& p : validate(s.hedging))
                add(at(i) + u'.' + p.path, p.message);
            break;
        case Kind::RateLimiter:
        case Kind::Bulkhead:
            if (s.permits < 1 || s.permits > 1000000)
                add(at(i, "permits"), tr("must be from 1 to 1 000 000"));
            if (s.queue < 0 || s.queue > 1000000)
                add(at(i, "queue"), tr("must be from 0 to 1 000 000"));
            break;
        case Kind::Retry:
            break;
        }
    }

    // The pipeline's timeouts are its strategies: the same limit written twice would be two rules.
    const qsizetype total = find(pipeline, Kind::TotalTimeout);
    const qsizetype attempt = find(pipeline, Kind::AttemptTimeout);
    if (total >= 0 && policy.limits.deadline)
        add(QStringLiteral("limits.deadline_ms"), tr("is also pipeline[%1] (total_timeout): give it once").arg(total));
    if (attempt >= 0 && policy.limits.attemptTimeout)
        add(QStringLiteral("limits.attempt_timeout_ms"),
            tr("is also pipeline[%1] (attempt_timeout): give it once").arg(attempt));
    if (find(pipeline, Kind::Retry) < 0 && policy.limits.maxAttempts != 1)
        add(QStringLiteral("limits.max_attempts"),
            tr("is %1, but the pipeline has no retry: without one a call is one attempt").arg(policy.limits.maxAttempts));

    // Microsoft.Extensions.Http.Resilience's validators (resilience-fleets.md §1.2).
    if (total >= 0 && attempt >= 0 && pipeline.at(attempt).timeout > pipeline.at(total).timeout)
        add(at(attempt, "timeout_ms"), tr("is %1, longer than the total timeout of pipeline[%2] (%3)")
                                           .arg(msText(pipeline.at(attempt).timeout))
                                           .arg(total)
                                           .arg(msText(pipeline.at(total).timeout)));
    const qsizetype breaker = find(pipeline, Kind::CircuitBreaker);
    // On Polly's breaker only (a time window whose buckets start at a call): opossum's own defaults are a
    // 10 s window around a 10 s timeout.
    const auto pollyWindow = [&](const CircuitBreakerOptions& b) {
        return b.window == CircuitBreakerOptions::Window::Time && b.bucketStart == CircuitBreakerOptions::BucketStart::AtCall;
    };
    if (breaker >= 0 && attempt >= 0 && pollyWindow(pipeline.at(breaker).breaker)
        && pipeline.at(breaker).breaker.samplingDuration < 2 * pipeline.at(attempt).timeout)
        add(at(breaker, "sampling_ms"), tr("must be at least twice the attempt timeout of pipeline[%1] (%2)")
                                            .arg(attempt)
                                            .arg(msText(2 * pipeline.at(attempt).timeout)));
    const qsizetype hedging = find(pipeline, Kind::Hedging);
    if (hedging >= 0) {
        const ResilienceStrategy& h = pipeline.at(hedging);
        if (total >= 0 && h.hedging.delay.count() > 0
            && h.hedging.maxHedges * h.hedging.delay > pipeline.at(total).timeout)
            add(at(hedging, "delay_ms"), tr("%1 hedges × %2 is beyond the total timeout of pipeline[%3] (%4)")
                                             .arg(h.hedging.maxHedges)
                                             .arg(msText(h.hedging.delay))
                                             .arg(total)
                                             .arg(msText(pipeline.at(total).timeout)));
        // Copies of a request the server may apply twice: only with a key, unless the policy says so.
        const QStringList& keyed = policy.idempotency.methods;
        const bool keysUnsafe = policy.idempotency.autoAdd && keyed.contains(QStringLiteral("POST"))
            && keyed.contains(QStringLiteral("PATCH"));
        if (!keysUnsafe && !h.hedgeUnsafe)
            add(at(hedging, "hedge_unsafe"),
                tr("hedging would send copies of POST and PATCH requests without an idempotency key, which the server "
                   "may apply twice: add keys (idempotency.auto with POST and PATCH) or set hedge_unsafe to true"));
    }
    return problems;
}
