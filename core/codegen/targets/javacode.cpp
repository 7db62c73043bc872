// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/javacode.h"

#include "policy/backoff.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString ms(double v)
{
    QString t = numberText(v);
    return t.contains(u'.') ? t : t + u".0"_s;
}

QString strings(const QStringList& values)
{
    QStringList q;
    for (const QString& v : values)
        q << quoted(v);
    return q.join(u", "_s);
}

// "a.status() == 429 || a.status() >= 500 && a.status() <= 599", wrapped in parentheses when it has several parts.
QString statusTest(const QList<StatusRange>& ranges)
{
    QStringList parts;
    for (const StatusRange& r : ranges)
        parts << (r.low == r.high ? u"a.status() == %1"_s.arg(r.low) : u"a.status() >= %1 && a.status() <= %2"_s.arg(r.low).arg(r.high));
    if (parts.size() == 1)
        return parts.first();
    for (QString& p : parts)
        if (p.contains(u"&&"_s))
            p = u"("_s + p + u')';
    return u"("_s + parts.join(u" || "_s) + u')';
}

QStringList classNames(bool couldHaveActed)
{
    QStringList out;
    for (const QString& name : errorClassNames())
        if (errorClassServerCouldHaveActed(*errorClassFromName(name)) == couldHaveActed)
            out << name;
    return out;
}

bool keepsPrevious(const RetryPolicy& p)
{
    return std::any_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return !h.advancesBackoff || h.resetsExponent; });
}

// How Java writes a delay's arithmetic (the per-call fields retries and previous, a shared RANDOM).
const DelaySyntax kJava { .draw = u"RANDOM.nextDouble()"_s, .compact = false, .doubleLiterals = true,
    .indent = u"            "_s, .declare = u"double"_s, .pow = u"Math.pow"_s, .min = u"Math.min"_s, .max = u"Math.max"_s,
    .retries = u"retries"_s, .previous = u"previous"_s, .maxWait = u"MAX_WAIT_MS"_s, .v2Curve = u"v2Curve"_s,
    .floor = u"Math.floor"_s };

QString curveLines(const RetryPolicy& p)
{
    return curveBody(p, kJava);
}

QString hintFormat(const DelayHint& h)
{
    switch (h.format) {
    case HintFormat::RetryAfter:
        return u"HintFormat.RETRY_AFTER"_s;
    case HintFormat::Milliseconds:
        return u"HintFormat.MILLISECONDS"_s;
    case HintFormat::Seconds:
        return u"HintFormat.SECONDS"_s;
    }
    return u"HintFormat.RETRY_AFTER"_s;
}

QString hintLines(const RetryPolicy& p, qsizetype i)
{
    const DelayHint& h = p.hints.at(i);
    const QString in = u"            "_s;
    QString out = in + u"// hints[%1]: %2"_s.arg(i).arg(h.header);
    if (!h.statuses.isEmpty()) {
        QStringList codes;
        for (const StatusRange& r : h.statuses)
            codes << (r.low == r.high ? QString::number(r.low) : u"%1-%2"_s.arg(r.low).arg(r.high));
        out += u" on "_s + codes.join(u", "_s);
    }
    if (h.max)
        out += u", at most %1 ms (%2 above)"_s.arg(h.max->count()).arg(h.overMax == HintOverMax::GiveUp ? u"give up"_s : h.overMax == HintOverMax::Clamp ? u"clamped"_s : u"ignored"_s);
    out += u'\n';
    QString test = u"!hinted"_s;
    if (!h.statuses.isEmpty())
        test += u" && "_s + statusTest(h.statuses);
    out += in + u"if (%1) {\n"_s.arg(test);
    const QString in2 = in + u"    "_s;
    out += in2 + u"Hint hint = headerDelay(a.response(), %1, %2);\n"_s.arg(quoted(h.header), hintFormat(h));
    if (h.alsoRetryAfterMs && h.format == HintFormat::RetryAfter)
        out += in2 + u"if (!hint.present()) {\n"_s + in2 + u"    hint = headerDelay(a.response(), \"retry-after-ms\", HintFormat.MILLISECONDS);\n"_s + in2 + u"}\n"_s;
    if (h.invalidMeansStop)
        out += in2 + u"if (hint.present() && !hint.valid()) {\n"_s + in2 + u"    return false; // an invalid value means \"don't retry\"\n"_s + in2 + u"}\n"_s;
    if (h.negativeMeansStop)
        out += in2 + u"if (hint.present() && hint.valid() && hint.asked() < 0) {\n"_s + in2 + u"    return false; // a negative value means \"don't retry\"\n"_s + in2 + u"}\n"_s;
    const bool ignoreAbove = h.max && h.overMax == HintOverMax::Ignore;
    out += in2 + u"if (hint.present() && hint.valid() && hint.asked() >= 0%1) {%2\n"_s.arg(
        ignoreAbove ? u" && hint.asked() <= %1"_s.arg(ms(double(h.max->count()))) : QString(), ignoreAbove ? u" // above: ignored"_s : QString());
    const QString in3 = in2 + u"    "_s;
    QString apply;
    apply += u"hinted = true;\ndouble asked = hint.asked();\n"_s;
    if (h.max && h.overMax == HintOverMax::Clamp)
        apply += u"asked = Math.min(asked, %1);\n"_s.arg(ms(double(h.max->count())));
    apply += hintWaitStatements(p, h, kJava);
    if (!h.advancesBackoff)
        apply += u"retries = retriesBefore; // a hinted wait leaves the backoff where it was\nprevious = previousBefore;\n"_s;
    if (h.resetsExponent)
        apply += u"retries = 0; // the backoff starts again\nprevious = 0;\n"_s;
    QString body;
    for (const QString& line : apply.split(u'\n', Qt::SkipEmptyParts))
        body += in3 + u"    "_s + line + u'\n';
    if (h.zeroFallsBackToBackoff && h.max && h.overMax == HintOverMax::GiveUp)
        out += in3 + u"if (hint.asked() == 0) {\n"_s + in3 + u"    hinted = true; // 0 falls back to the backoff\n"_s + in3
            + u"} else if (hint.asked() > %1) {\n"_s.arg(ms(double(h.max->count()))) + in3 + u"    return false; // more than the policy waits: give up\n"_s
            + in3 + u"} else {\n"_s + body + in3 + u"}\n"_s;
    else if (h.zeroFallsBackToBackoff)
        out += in3 + u"if (hint.asked() == 0) {\n"_s + in3 + u"    hinted = true; // 0 falls back to the backoff\n"_s + in3 + u"} else {\n"_s + body + in3 + u"}\n"_s;
    else if (h.max && h.overMax == HintOverMax::GiveUp)
        out += in3 + u"if (hint.asked() > %1) {\n"_s.arg(ms(double(h.max->count()))) + in3 + u"    return false; // more than the policy waits: give up\n"_s
            + in3 + u"}\n"_s + body.replace(in3 + u"    "_s, in3);
    else
        out += body.replace(in3 + u"    "_s, in3);
    out += in2 + u"}\n"_s + in + u"}\n"_s;
    return out;
}

} // namespace

QString javaDuration(Millis v)
{
    static const DurationSpelling spelling { u"Duration.ZERO"_s, u"Duration.ofHours(%1)"_s, u"Duration.ofMinutes(%1)"_s,
        u"Duration.ofSeconds(%1)"_s, u"Duration.ofMillis(%1)"_s };
    return durationLiteral(v, spelling);
}

QString springDuration(Millis v)
{
    const qint64 n = v.count();
    if (n != 0 && n % 60000 == 0)
        return u"%1m"_s.arg(n / 60000);
    if (n != 0 && n % 1000 == 0)
        return u"%1s"_s.arg(n / 1000);
    return u"%1ms"_s.arg(n);
}

R4jInterval r4jInterval(const RetryPolicy& p, LossList* lost)
{
    const Backoff& b = p.backoff;
    const Jitter& j = p.jitter;
    R4jInterval r;
    r.exact = true;
    const auto lose = [&](const QString& path, const QString& what) {
        r.exact = false;
        if (lost)
            lost->add(path, what);
    };
    r.wait = b.base;
    switch (b.kind) {
    case BackoffKind::None:
        r.wait = Millis(0);
        break;
    case BackoffKind::Constant:
        break;
    case BackoffKind::Linear:
        lose(u"backoff.kind"_s, u"a linear backoff: resilience4j's waits are fixed or exponential (written as a fixed %1 ms)"_s.arg(b.base.count()));
        break;
    case BackoffKind::Exponential:
        r.exponential = true;
        r.multiplier = b.multiplier;
        r.max = b.cap;
        if (b.origin == ExponentOrigin::FirstRetryIsZero)
            lose(u"backoff.origin"_s, u"a first retry without a wait: resilience4j's first wait is waitDuration"_s);
        if (b.exponentOffset != 0) {
            r.wait = Millis(qint64(double(b.base.count()) * std::pow(b.multiplier, b.exponentOffset)));
            if (r.wait.count() < 1)
                lose(u"backoff.exponent_offset"_s, u"a first wait under 1 ms: resilience4j's waitDuration is at least 1 ms"_s);
        }
        if (b.multiplier < 1)
            lose(u"backoff.multiplier"_s, u"a multiplier below 1: resilience4j's exponentialBackoffMultiplier grows the wait"_s);
        break;
    case BackoffKind::Decorrelated:
    case BackoffKind::DecorrelatedV2:
        r.exponential = true;
        r.multiplier = 2;
        r.randomized = true;
        r.factor = 0.5;
        r.max = b.cap;
        lose(u"backoff.kind"_s, u"decorrelated jitter: resilience4j's randomized waits grow by a multiplier (written as doubling, ±50 %)"_s);
        break;
    }
    if (r.exponential && r.wait.count() < 1 && b.kind != BackoffKind::None) {
        lose(u"backoff.base_ms"_s, u"a base of 0: resilience4j's exponential waits start at 1 ms or more (written as 1 ms)"_s);
        r.wait = Millis(1);
    }
    if (!(b.kind == BackoffKind::Decorrelated || b.kind == BackoffKind::DecorrelatedV2)) {
        switch (j.kind) {
        case JitterKind::None:
            if (j.floor.count() > 0)
                lose(u"jitter.floor_ms"_s, u"a floor under every wait: resilience4j has none"_s);
            break;
        case JitterKind::Proportional:
            r.randomized = true;
            r.factor = std::min(j.factor, 0.999);
            if (j.factor >= 1)
                lose(u"jitter.factor"_s, u"±%1 %: resilience4j's randomizedWaitFactor is below 1"_s.arg(numberText(j.factor * 100)));
            if (j.capOrder == CapOrder::BeforeJitter && b.cap && r.exponential)
                lose(u"jitter.cap"_s, u"the cap before the jitter: resilience4j caps the randomized wait (a hard cap at %1 ms)"_s.arg(b.cap->count()));
            if (j.floor.count() > 1)
                lose(u"jitter.floor_ms"_s, u"a floor of %1 ms: resilience4j's randomized waits are at least 1 ms"_s.arg(j.floor.count()));
            break;
        default:
            r.randomized = true;
            r.factor = 0.5;
            lose(u"jitter.kind"_s, u"%1: resilience4j's randomized wait is ±randomizedWaitFactor (written as ±50 %)"_s.arg(jitterWords(j)));
            break;
        }
    }
    if (b.kind == BackoffKind::Constant && b.cap && *b.cap < b.base && j.kind == JitterKind::None)
        lose(u"backoff.cap_ms"_s, u"a cap below the fixed wait"_s);
    return r;
}

void r4jBreakerLosses(const ResilienceStrategy& s, const QString& path, LossList& lost)
{
    const CircuitBreakerOptions& b = s.breaker;
    using B = CircuitBreakerOptions;
    const QString r4j = u"resilience4j's circuit breaker"_s;
    if (b.window == B::Window::Consecutive)
        lost.add(path + u".window"_s, u"%1 failures in a row: %2 counts a window of calls (written as the last %1 calls, all failed)"_s.arg(b.consecutiveFailures).arg(r4j));
    if (b.window == B::Window::Time) {
        if (b.samplingDuration.count() % 1000 != 0 || b.buckets != int(b.samplingDuration.count() / 1000))
            lost.add(path + u".buckets"_s, u"%1 buckets over %2 ms: %3 rolls a TIME_BASED window in whole seconds, one bucket each"_s.arg(b.buckets).arg(b.samplingDuration.count()).arg(r4j));
        if (b.bucketStart != B::BucketStart::Fixed)
            lost.add(path + u".bucket_start"_s, u"buckets opened at a call: %1 turns them on the clock's seconds"_s.arg(r4j));
        if (b.minimumCallsPerSecond)
            lost.add(path + u".minimum_calls_per_second"_s, u"a minimum rate of calls: %1 counts a minimum number"_s.arg(r4j));
    }
    if (b.comparator != B::Comparator::AtLeast)
        lost.add(path + u".comparator"_s, u"opening only above the ratio: %1 opens at the ratio"_s.arg(r4j));
    if (!b.judgeAfterSuccess)
        lost.add(path + u".judge_after_success"_s, u"judging the window only on a failure: %1 judges it after every call"_s.arg(r4j));
    if (b.countRejected)
        lost.add(path + u".count_rejected"_s, u"counting refused calls: %1 does not"_s.arg(r4j));
    if (!b.resetOnClose)
        lost.add(path + u".reset_on_close"_s, u"keeping the window when the breaker closes: %1 empties it"_s.arg(r4j));
    if (b.halfOpenCallers != B::HalfOpenCallers::Rejected)
        lost.add(path + u".half_open_callers"_s, u"holding callers while the probes run: %1 refuses them"_s.arg(r4j));
    if (b.breakGrowth != 1.0)
        lost.add(path + u".break_growth"_s, u"a break growing after each failed probe: written as a fixed waitDurationInOpenState"_s);
    if (b.scope == B::Scope::Host)
        lost.add(path + u".scope"_s, u"one breaker per host: %1 is one for the application here"_s.arg(r4j));
    if (s.slowCall)
        lost.add(path + u".slow_call_ms"_s, u"a slow call as a failure: %1 rates slow calls apart (slowCallRateThreshold)"_s.arg(r4j));
}

QString javaCondition(const RuleCondition& when, bool isStatic, JavaUnit& unit)
{
    QStringList parts;
    switch (when.outcome) {
    case OutcomeKind::Any:
        break;
    case OutcomeKind::Status:
        if (when.statuses.isEmpty())
            parts << u"a.response() != null"_s;
        break;
    case OutcomeKind::Error:
        if (when.errors.isEmpty())
            parts << u"a.error() != null"_s;
        break;
    case OutcomeKind::CircuitOpen:
        parts << u"a.circuitOpen()"_s;
        break;
    }
    if ((!when.methods.isEmpty() || when.idempotencyKey || when.afterLostAnswer) && isStatic)
        return {};
    if (!when.methods.isEmpty())
        parts << (when.methods.size() == 1 ? u"%1.equals(method)"_s.arg(quoted(when.methods.first())) : u"in(method, %1)"_s.arg(strings(when.methods)));
    if (when.idempotencyKey)
        parts << (*when.idempotencyKey ? u"hasKey"_s : u"!hasKey"_s);
    if (!when.statuses.isEmpty())
        parts << statusTest(when.statuses);
    if (!when.errors.isEmpty()) {
        QStringList names;
        for (ErrorClass e : when.errors)
            names << errorClassId(e);
        parts << u"in(a.error(), %1)"_s.arg(strings(names));
    }
    if (when.serverCouldHaveActed) {
        if (*when.serverCouldHaveActed)
            parts << u"(a.response() != null || in(a.error(), %1))"_s.arg(strings(classNames(true)));
        else
            parts << (when.outcome == OutcomeKind::Error ? u"in(a.error(), %1)"_s.arg(strings(classNames(false)))
                                                         : u"(a.circuitOpen() || in(a.error(), %1))"_s.arg(strings(classNames(false))));
    }
    if (when.body) {
        unit.imports << u"com.fasterxml.jackson.databind.JsonNode"_s << u"com.fasterxml.jackson.databind.ObjectMapper"_s
                     << u"com.fasterxml.jackson.core.JsonProcessingException"_s;
        if (when.outcome != OutcomeKind::Status)
            parts << u"a.response() != null"_s;
        parts << (when.body->values.isEmpty() ? u"bodyField(a.body(), %1) != null"_s.arg(quoted(when.body->path))
                                              : u"in(bodyField(a.body(), %1), %2)"_s.arg(quoted(when.body->path), strings(when.body->values)));
    }
    for (const HeaderMatch& h : when.headers) {
        if (h.absent)
            parts << u"!headerIs(a.response(), %1)"_s.arg(quoted(h.name));
        else
            parts << u"headerIs(a.response(), %1%2)"_s.arg(quoted(h.name), h.values.isEmpty() ? QString() : u", "_s + strings(h.values));
    }
    if (when.afterLostAnswer)
        parts << (*when.afterLostAnswer ? u"lostAnswer"_s : u"!lostAnswer"_s);
    if (parts.size() == 1 && when.statuses.size() > 1 && parts.first() == statusTest(when.statuses))
        parts.first() = parts.first().mid(1).chopped(1); // the statuses alone need no parentheses
    return parts.isEmpty() ? u"true"_s : parts.join(u" && "_s);
}

void writeJavaState(const PipelineShape& shape, const R4jInterval& interval, JavaUnit& unit)
{
    const RetryPolicy& p = shape.policy;
    const bool native = interval.exact && p.hints.isEmpty() && !p.limits.deadline;
    const bool lost = std::any_of(p.rules.cbegin(), p.rules.cend(), [](const RetryRule& r) { return r.when.afterLostAnswer.has_value(); });
    const bool deadline = p.limits.deadline.has_value();
    const bool timeout = p.limits.attemptTimeout || deadline;
    unit.imports << u"io.github.resilience4j.retry.RetryConfig"_s << u"java.net.http.HttpRequest"_s << u"java.net.http.HttpResponse"_s
                 << u"java.util.Locale"_s;
    QString c;
    c += u"    /**\n     * One logical request through its attempts: its method and key"_s;
    if (lost)
        c += u", whether an earlier attempt lost its\n     * answer"_s;
    if (!native)
        c += lost ? u", the wait chosen for the next retry"_s : u", the wait chosen for the next\n     * retry"_s;
    c += u".\n     */\n    private static final class RetryCall {\n"_s;
    c += u"        private final HttpRequest request;\n        private final String method;\n        private final boolean hasKey;\n"_s;
    if (deadline)
        c += u"        private final long start = System.nanoTime();\n"_s;
    if (lost)
        c += u"        private boolean lostAnswer;\n"_s;
    if (!native) {
        c += u"        private int retries; // retries drawn so far\n"_s;
        if (p.backoff.kind == BackoffKind::Decorrelated || p.backoff.kind == BackoffKind::DecorrelatedV2 || keepsPrevious(p))
            c += u"        private double previous; // the decorrelated backoff's last value\n"_s;
        c += u"        private long nextWait; // milliseconds\n"_s;
    }
    c += u"\n        RetryCall(HttpRequest request) {\n            this.request = request;\n"
         "            this.method = request.method().toUpperCase(Locale.ROOT);\n"
         "            this.hasKey = request.headers().firstValue(IDEMPOTENCY_KEY_HEADER).isPresent();\n        }\n\n"_s;

    // The config.
    c += u"        /** resilience4j's retry for this call: the policy's rules decide%1. */\n        RetryConfig retryConfig() {\n"
         "            return RetryConfig.<HttpResponse<String>>custom()\n"
         "                .maxAttempts(%2) // attempts, the first included: %3 retries\n"_s
             .arg(native ? QString() : u" and choose the wait"_s).arg(p.limits.maxAttempts).arg(p.maxRetries());
    if (native) {
        unit.imports << u"io.github.resilience4j.core.IntervalFunction"_s;
        QString f;
        if (interval.exponential && interval.randomized)
            f = interval.max ? u"IntervalFunction.ofExponentialRandomBackoff(%1, %2, %3, %4)"_s.arg(interval.wait.count()).arg(numberText(interval.multiplier), numberText(interval.factor)).arg(interval.max->count())
                             : u"IntervalFunction.ofExponentialRandomBackoff(%1, %2, %3)"_s.arg(interval.wait.count()).arg(numberText(interval.multiplier), numberText(interval.factor));
        else if (interval.exponential)
            f = interval.max ? u"IntervalFunction.ofExponentialBackoff(%1, %2, %3)"_s.arg(interval.wait.count()).arg(numberText(interval.multiplier)).arg(interval.max->count())
                             : u"IntervalFunction.ofExponentialBackoff(%1, %2)"_s.arg(interval.wait.count()).arg(numberText(interval.multiplier));
        else if (interval.randomized)
            f = u"IntervalFunction.ofRandomized(%1, %2)"_s.arg(interval.wait.count()).arg(numberText(interval.factor));
        if (f.isEmpty()) {
            unit.imports << u"java.time.Duration"_s;
            c += u"                .waitDuration(%1)\n"_s.arg(javaDuration(interval.wait));
        } else {
            c += u"                .intervalFunction(%1)\n"_s.arg(f);
        }
    }
    c += u"                .retryOnResult(response -> shouldRetry(Attempt.answered(response)))\n"
         "                .retryOnException(e -> !(e instanceof InterruptedException) && shouldRetry(Attempt.failed(e)))\n"_s;
    if (!native)
        c += u"                .intervalBiFunction((attempt, outcome) -> nextWait) // the wait shouldRetry chose\n"_s;
    c += u"                .failAfterMaxAttempts(false) // the last answer, not MaxRetriesExceededException\n                .build();\n        }\n\n"_s;

    // The attempt's request.
    if (timeout) {
        unit.imports << u"java.time.Duration"_s;
        c += u"        /** The request of the next attempt: %1. */\n        HttpRequest attemptRequest() {\n"_s.arg(
            deadline ? u"it ends when the deadline does"_s : u"one attempt's timeout"_s);
        if (deadline) {
            c += u"            long timeout = %1;\n"_s.arg(p.limits.attemptTimeout ? QString::number(p.limits.attemptTimeout->count()) + u"L"_s : u"Long.MAX_VALUE"_s);
            c += u"            timeout = Math.max(1, Math.min(timeout, %1L - (System.nanoTime() - start) / 1_000_000));\n"_s.arg(p.limits.deadline->count());
            c += u"            return HttpRequest.newBuilder(request, (name, value) -> true).timeout(Duration.ofMillis(timeout)).build();\n        }\n\n"_s;
        } else {
            c += u"            return HttpRequest.newBuilder(request, (name, value) -> true).timeout(%1).build();\n        }\n\n"_s.arg(javaDuration(*p.limits.attemptTimeout));
        }
    } else {
        c += u"        HttpRequest attemptRequest() {\n            return request;\n        }\n\n"_s;
    }

    // shouldRetry, judge.
    c += u"        private boolean shouldRetry(Attempt a) {\n            boolean retry = judge(a);\n"_s;
    if (lost)
        c += u"            if (in(a.error(), %1)) {\n                lostAnswer = true; // sent, and the answer lost\n            }\n"_s.arg(strings(classNames(true)));
    c += native ? u"            return retry;\n        }\n\n"_s : u"            return retry && chooseWait(a);\n        }\n\n"_s;
    c += u"        /**\n         * What the policy's rules say: the first that matches decides; with none, 1xx–3xx are a success and\n"
         "         * everything else is final.\n         */\n        private boolean judge(Attempt a) {\n"_s;
    for (qsizetype i = 0; i < p.rules.size(); ++i) {
        const RetryRule& r = p.rules.at(i);
        c += u"            if (%1) {\n                return %2; // %3%4\n            }\n"_s.arg(javaCondition(r.when, false, unit),
            r.action == RuleAction::Retry ? u"true"_s : u"false"_s, r.name.isEmpty() ? u"rules[%1]"_s.arg(i) : r.name,
            r.action == RuleAction::Success ? u": a success"_s : QString());
    }
    c += u"            return false;\n        }\n\n"_s;

    if (!native) {
        c += u"        /** The wait before the next attempt, from the backoff and the server's hints; false to give up instead. */\n"
             "        private boolean chooseWait(Attempt a) {\n"_s;
        if (keepsPrevious(p))
            c += u"            int retriesBefore = retries;\n            double previousBefore = previous;\n"_s;
        c += u"            double wait = backoff();\n"_s;
        if (!p.hints.isEmpty()) {
            c += u"            boolean hinted = false;\n"_s;
            for (qsizetype i = 0; i < p.hints.size(); ++i)
                c += hintLines(p, i);
        }
        if (deadline) {
            const QString d = QString::number(p.limits.deadline->count());
            c += p.limits.deadlineMode == DeadlineMode::StopBeforeWait
                ? u"            if ((System.nanoTime() - start) / 1e6 + wait > %1) {\n                return false; // the wait would pass the deadline\n            }\n"_s.arg(d)
                : u"            if ((System.nanoTime() - start) / 1e6 >= %1) {\n                return false; // the deadline has passed\n            }\n"_s.arg(d);
        }
        c += u"            nextWait = (long) Math.floor(Math.min(Math.max(wait, 0), MAX_WAIT_MS) + 1e-3);\n            return true;\n        }\n\n"_s;
        c += u"        /** The policy's wait before the next retry, in milliseconds, before any server hint. */\n        private double backoff() {\n"_s;
        c += curveLines(p) + u"        }\n"_s;
    }
    while (c.endsWith(u"\n\n"_s))
        c.chop(1);
    c += u"    }\n\n"_s;

    if (!native) {
        unit.imports << u"java.util.Random"_s;
        c += u"    private static final double MAX_WAIT_MS = %1;\n    private static final Random RANDOM = new Random();\n\n"_s.arg(kMaxBackoffDelay.count());
        if (p.backoff.kind == BackoffKind::DecorrelatedV2)
            c += u"    private static double v2Curve(double t) {\n        return t <= 0 ? 0 : Math.pow(2, t) * Math.tanh(Math.sqrt(4 * t));\n    }\n\n"_s;
    }
    if (!native && !p.hints.isEmpty()) {
        unit.imports << u"java.time.ZonedDateTime"_s << u"java.time.format.DateTimeFormatter"_s << u"java.time.format.DateTimeParseException"_s;
        c += u"    private enum HintFormat { RETRY_AFTER, MILLISECONDS, SECONDS }\n\n"
             "    private record Hint(boolean present, boolean valid, double asked) {\n    }\n\n"
             "    /** The wait (milliseconds) a server asks for in header NAME: RETRY_AFTER is delta-seconds or an HTTP-date. */\n"
             "    private static Hint headerDelay(HttpResponse<?> response, String name, HintFormat format) {\n"
             "        String value = response == null ? null : response.headers().firstValue(name).map(String::trim).orElse(null);\n"
             "        if (value == null) {\n            return new Hint(false, false, 0);\n        }\n"
             "        try {\n"
             "            if (format == HintFormat.MILLISECONDS) {\n                return new Hint(true, true, Math.floor(Double.parseDouble(value)));\n            }\n"
             "            if (format == HintFormat.SECONDS || value.chars().allMatch(Character::isDigit)) {\n"
             "                long seconds = Long.parseLong(value);\n"
             "                return new Hint(true, true, Math.max(-3_153_600_000L, Math.min(seconds, 3_153_600_000L)) * 1000.0);\n            }\n"
             "            ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);\n"
             "            return new Hint(true, true, Math.max(0, at.toInstant().toEpochMilli() - System.currentTimeMillis()));\n"
             "        } catch (NumberFormatException | DateTimeParseException e) {\n"
             "            return new Hint(true, false, 0);\n        }\n    }\n\n"_s;
    }
    unit.members += c;
}

void writeJavaHelpers(JavaUnit& unit)
{
    unit.imports << u"io.github.resilience4j.circuitbreaker.CallNotPermittedException"_s << u"java.io.IOException"_s
                 << u"java.net.ConnectException"_s << u"java.net.ProtocolException"_s << u"java.net.UnknownHostException"_s
                 << u"java.net.http.HttpConnectTimeoutException"_s << u"java.net.http.HttpTimeoutException"_s
                 << u"java.nio.channels.UnresolvedAddressException"_s << u"javax.net.ssl.SSLException"_s << u"java.util.Arrays"_s;
    QString c;
    c += u"    /** One attempt's outcome as the policy's rules see it: the answer, how it failed, or the breaker's refusal. */\n"
         "    private record Attempt(HttpResponse<?> response, String error, boolean circuitOpen) {\n"
         "        static Attempt answered(HttpResponse<?> response) {\n            return new Attempt(response, null, false);\n        }\n\n"
         "        static Attempt failed(Throwable e) {\n"
         "            return e instanceof CallNotPermittedException ? new Attempt(null, null, true) : new Attempt(null, errorClass(e), false);\n        }\n\n"
         "        int status() {\n            return response == null ? 0 : response.statusCode();\n        }\n"_s;
    if (unit.imports.contains(u"com.fasterxml.jackson.databind.JsonNode"_s))
        c += u"\n        String body() {\n            return response != null && response.body() instanceof String text ? text : \"\";\n        }\n"_s;
    c += u"    }\n\n"_s;
    c += u"    /** How an attempt failed without an answer, in the policy's words. */\n"
         "    private static String errorClass(Throwable e) {\n"
         "        if (e instanceof HttpConnectTimeoutException) {\n            return \"connect-timeout\";\n        }\n"
         "        if (e instanceof HttpTimeoutException) {\n            return \"response-timeout\";\n        }\n"
         "        if (e instanceof UnknownHostException || e.getCause() instanceof UnresolvedAddressException) {\n            return \"dns\";\n        }\n"
         "        if (e instanceof ConnectException) {\n            return \"refused\";\n        }\n"
         "        if (e instanceof SSLException) {\n            return \"tls\";\n        }\n"
         "        if (e instanceof ProtocolException) {\n            return \"protocol\";\n        }\n"
         "        return e instanceof IOException ? \"connection-lost\" : \"protocol\";\n    }\n\n"
         "    private static boolean in(String value, String... values) {\n        return value != null && Arrays.asList(values).contains(value);\n    }\n\n"_s;
    if (unit.members.contains(u"headerIs("_s) || c.contains(u"headerIs("_s))
        c += u"    /** Whether header NAME is on the answer with one of VALUES (any value when none), case-insensitively. */\n"
             "    private static boolean headerIs(HttpResponse<?> response, String name, String... values) {\n"
             "        if (response == null) {\n            return false;\n        }\n"
             "        return response.headers().allValues(name).stream()\n"
             "            .anyMatch(got -> values.length == 0 || Arrays.stream(values).anyMatch(v -> v.equalsIgnoreCase(got.trim())));\n    }\n\n"_s;
    if (unit.imports.contains(u"com.fasterxml.jackson.databind.JsonNode"_s))
        c += u"    private static final ObjectMapper JSON = new ObjectMapper();\n\n"
             "    /** The value at PATH (\"error.code\", \"errors[0].code\") of a JSON body, as text; null when there is none. */\n"
             "    private static String bodyField(String body, String path) {\n"
             "        JsonNode node;\n        try {\n            node = JSON.readTree(body);\n        } catch (JsonProcessingException e) {\n            return null;\n        }\n"
             "        for (String step : path.split(\"[.\\\\[]\")) {\n"
             "            if (step.isEmpty()) {\n                continue;\n            }\n"
             "            if (node == null) {\n                return null;\n            }\n"
             "            if (step.endsWith(\"]\")) {\n"
             "                try {\n                    node = node.isArray() ? node.get(Integer.parseInt(step.substring(0, step.length() - 1))) : null;\n"
             "                } catch (NumberFormatException e) {\n                    return null;\n                }\n"
             "            } else {\n                node = node.isObject() ? node.get(step) : null;\n            }\n        }\n"
             "        if (node == null || node.isMissingNode() || node.isContainerNode()) {\n            return null;\n        }\n"
             "        return node.isNull() ? \"null\" : node.asText();\n    }\n\n"_s;
    unit.members += c;
}
