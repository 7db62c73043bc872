// SPDX-License-Identifier: GPL-3.0-or-later
// The `pipeline` array of policy format 2 (resources/docs/policy-format.md): pipelineToJson and
// pipelineFromJson of policyjsonparts.h.

#include "policy/policyjson.h" // PolicyNames
#include "policy/policyjsonparts.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;
using Kind = ResilienceStrategy::Kind;
using O = CircuitBreakerOptions;

namespace {

// The spellings are PolicyNames' (policyjson.h), which the policy editor offers too.
const QStringList& windows() { static const QStringList n = PolicyNames::breakerWindows(); return n; }
const QStringList& bucketStarts() { static const QStringList n = PolicyNames::breakerBucketStarts(); return n; }
const QStringList& comparators() { static const QStringList n = PolicyNames::breakerComparators(); return n; }
const QStringList& halfOpenCallers() { static const QStringList n = PolicyNames::breakerHalfOpenCallers(); return n; }
const QStringList& transitions() { static const QStringList n = PolicyNames::breakerTransitions(); return n; }
const QStringList& scopes() { static const QStringList n = PolicyNames::breakerScopes(); return n; }

QJsonArray failuresToJson(const ResilienceStrategy& s)
{
    QJsonArray failures;
    for (const RuleCondition& c : s.failures)
        failures.append(conditionToJson(c));
    return failures;
}

void failuresFromJson(JsonReader& r, ResilienceStrategy& s)
{
    if (!r.has(u"failures"_s))
        return; // the default: any error
    s.failures.clear();
    const QList<QJsonObject> failures = r.objectList(u"failures"_s);
    for (qsizetype i = 0; i < failures.size(); ++i)
        s.failures.append(conditionFromJson(r.element(u"failures"_s, i, failures.at(i))));
}

QJsonObject breakerToJson(const ResilienceStrategy& s)
{
    const O& b = s.breaker;
    return {
        { u"window"_s, windows().at(int(b.window)) },
        { u"consecutive_failures"_s, b.consecutiveFailures },
        { u"window_calls"_s, b.windowCalls },
        { u"sampling_ms"_s, double(b.samplingDuration.count()) },
        { u"buckets"_s, b.buckets },
        { u"bucket_start"_s, bucketStarts().at(int(b.bucketStart)) },
        { u"failure_ratio"_s, b.failureRatio },
        { u"comparator"_s, comparators().at(int(b.comparator)) },
        { u"minimum_calls"_s, b.minimumCalls },
        { u"minimum_calls_per_second"_s,
            b.minimumCallsPerSecond ? QJsonValue(*b.minimumCallsPerSecond) : QJsonValue(QJsonValue::Null) },
        { u"judge_after_success"_s, b.judgeAfterSuccess },
        { u"count_rejected"_s, b.countRejected },
        { u"reset_on_close"_s, b.resetOnClose },
        { u"break_ms"_s, double(b.breakDuration.count()) },
        { u"break_growth"_s, b.breakGrowth },
        { u"max_break_ms"_s, millisValue(b.maxBreakDuration) },
        { u"half_open_probes"_s, b.halfOpenProbes },
        { u"half_open_callers"_s, halfOpenCallers().at(int(b.halfOpenCallers)) },
        { u"transition"_s, transitions().at(int(b.transition)) },
        { u"scope"_s, scopes().at(int(b.scope)) },
        { u"failures"_s, failuresToJson(s) },
        { u"slow_call_ms"_s, millisValue(s.slowCall) },
    };
}

void breakerFromJson(JsonReader& r, ResilienceStrategy& s)
{
    O& b = s.breaker;
    b.window = r.choice(u"window"_s, b.window, windows());
    b.consecutiveFailures = r.integer(u"consecutive_failures"_s, b.consecutiveFailures);
    b.windowCalls = r.integer(u"window_calls"_s, b.windowCalls);
    b.samplingDuration = r.millis(u"sampling_ms"_s, b.samplingDuration);
    b.buckets = r.integer(u"buckets"_s, b.buckets);
    b.bucketStart = r.choice(u"bucket_start"_s, b.bucketStart, bucketStarts());
    b.failureRatio = r.number(u"failure_ratio"_s, b.failureRatio);
    b.comparator = r.choice(u"comparator"_s, b.comparator, comparators());
    b.minimumCalls = r.integer(u"minimum_calls"_s, b.minimumCalls);
    if (r.has(u"minimum_calls_per_second"_s))
        b.minimumCallsPerSecond = r.number(u"minimum_calls_per_second"_s, 0.0);
    else
        r.string(u"minimum_calls_per_second"_s, {}); // null or absent: marks the key as known
    b.judgeAfterSuccess = r.boolean(u"judge_after_success"_s, b.judgeAfterSuccess);
    b.countRejected = r.boolean(u"count_rejected"_s, b.countRejected);
    b.resetOnClose = r.boolean(u"reset_on_close"_s, b.resetOnClose);
    b.breakDuration = r.millis(u"break_ms"_s, b.breakDuration);
    b.breakGrowth = r.number(u"break_growth"_s, b.breakGrowth);
    b.maxBreakDuration = r.optionalMillis(u"max_break_ms"_s, std::nullopt);
    b.halfOpenProbes = r.integer(u"half_open_probes"_s, b.halfOpenProbes);
    b.halfOpenCallers = r.choice(u"half_open_callers"_s, b.halfOpenCallers, halfOpenCallers());
    b.transition = r.choice(u"transition"_s, b.transition, transitions());
    b.scope = r.choice(u"scope"_s, b.scope, scopes());
    failuresFromJson(r, s);
    s.slowCall = r.optionalMillis(u"slow_call_ms"_s, std::nullopt);
}

} // namespace

QJsonArray pipelineToJson(const QList<ResilienceStrategy>& pipeline)
{
    QJsonArray out;
    for (const ResilienceStrategy& s : pipeline) {
        QJsonObject o;
        switch (s.kind) {
        case Kind::TotalTimeout:
        case Kind::AttemptTimeout:
            o.insert(u"timeout_ms"_s, double(s.timeout.count()));
            break;
        case Kind::CircuitBreaker:
            o = breakerToJson(s);
            break;
        case Kind::Hedging:
            o.insert(u"max_hedges"_s, s.hedging.maxHedges);
            o.insert(u"delay_ms"_s, double(s.hedging.delay.count()));
            o.insert(u"hedge_unsafe"_s, s.hedgeUnsafe);
            o.insert(u"failures"_s, failuresToJson(s));
            break;
        case Kind::RateLimiter:
        case Kind::Bulkhead:
            o.insert(u"permits"_s, s.permits);
            o.insert(u"queue"_s, s.queue);
            break;
        case Kind::Retry:
            break; // the policy's own fields
        }
        o.insert(u"strategy"_s, strategyKindName(s.kind));
        out.append(o);
    }
    return out;
}

QList<ResilienceStrategy> pipelineFromJson(JsonReader& r, const QString& key)
{
    QList<ResilienceStrategy> pipeline;
    const QList<QJsonObject> objects = r.objectList(key);
    for (qsizetype i = 0; i < objects.size(); ++i) {
        JsonReader e = r.element(key, i, objects.at(i));
        ResilienceStrategy s;
        if (!e.has(u"strategy"_s))
            e.problem(u"strategy"_s, QCoreApplication::translate("ResiliencePipeline", "is required: one of %1")
                                         .arg(strategyKindNames().join(u", "_s)));
        s.kind = e.choice(u"strategy"_s, Kind::Retry, strategyKindNames());
        switch (s.kind) {
        case Kind::TotalTimeout:
        case Kind::AttemptTimeout:
            s.timeout = e.millis(u"timeout_ms"_s, s.timeout);
            break;
        case Kind::CircuitBreaker:
            breakerFromJson(e, s);
            break;
        case Kind::Hedging:
            s.hedging.maxHedges = e.integer(u"max_hedges"_s, s.hedging.maxHedges);
            // −1 is Polly's fallback mode: read as a plain integer, not as a duration (which must be ≥ 0).
            s.hedging.delay = Millis { e.integer(u"delay_ms"_s, int(s.hedging.delay.count())) };
            s.hedgeUnsafe = e.boolean(u"hedge_unsafe"_s, s.hedgeUnsafe);
            failuresFromJson(e, s);
            break;
        case Kind::RateLimiter:
        case Kind::Bulkhead:
            s.permits = e.integer(u"permits"_s, s.permits);
            s.queue = e.integer(u"queue"_s, s.queue);
            break;
        case Kind::Retry:
            break;
        }
        e.rejectUnknownKeys();
        pipeline.append(s);
    }
    return pipeline;
}
