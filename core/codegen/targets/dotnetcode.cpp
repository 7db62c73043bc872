// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/dotnetcode.h"

#include "codegen/targets/proxyoutcomes.h"
#include "policy/backoff.h"
#include "policy/decisiontable.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString ms(double v)
{
    QString t = numberText(v);
    return t.contains(u'.') ? t : t + u".0"_s; // a double literal, so integer division never happens
}

QString strings(const QStringList& values)
{
    QStringList q;
    for (const QString& v : values)
        q << quoted(v);
    return q.join(u", "_s);
}

// `X is "a" or "b"`.
QString isOneOf(const QString& x, const QStringList& values)
{
    return u"%1 is %2"_s.arg(x, strings(values).replace(u", "_s, u" or "_s));
}

// `a.Status is 429 or (>= 500 and <= 599)`.
QString statusPattern(const QString& x, const QList<StatusRange>& ranges)
{
    QStringList parts;
    for (const StatusRange& r : ranges)
        parts << (r.low == r.high ? QString::number(r.low)
                                  : (ranges.size() == 1 ? u">= %1 and <= %2"_s : u"(>= %1 and <= %2)"_s).arg(r.low).arg(r.high));
    return u"%1 is %2"_s.arg(x, parts.join(u" or "_s));
}

QStringList classNames(bool couldHaveActed)
{
    QStringList out;
    for (const QString& name : errorClassNames())
        if (errorClassServerCouldHaveActed(*errorClassFromName(name)) == couldHaveActed)
            out << name;
    return out;
}

struct Needs
{
    bool body = false;
    bool headers = false;
    bool call = false; // the condition reads the call's method, key or lost answer
    bool lostAnswer = false;
};

// The C# condition for WHEN over `a` (an Attempt) and the call's members prefixed with CALL ("" inside RetryCall).
QString condition(const RuleCondition& when, const QString& call, Needs& needs)
{
    QStringList parts;
    switch (when.outcome) {
    case OutcomeKind::Any:
        break;
    case OutcomeKind::Status:
        if (when.statuses.isEmpty()) // a listed status is never 0, the Status of an attempt without an answer
            parts << u"a.Response is not null"_s;
        break;
    case OutcomeKind::Error:
        if (when.errors.isEmpty())
            parts << u"a.Error is not null"_s;
        break;
    case OutcomeKind::CircuitOpen:
        parts << u"a.CircuitOpen"_s;
        break;
    }
    if (!when.methods.isEmpty()) {
        parts << isOneOf(call + u"Method"_s, when.methods);
        needs.call = true;
    }
    if (when.idempotencyKey) {
        parts << (*when.idempotencyKey ? QString(call + u"HasKey"_s) : QString(u"!"_s + call + u"HasKey"_s));
        needs.call = true;
    }
    if (!when.statuses.isEmpty())
        parts << statusPattern(u"a.Status"_s, when.statuses);
    if (!when.errors.isEmpty()) {
        QStringList names;
        for (ErrorClass e : when.errors)
            names << errorClassId(e);
        parts << isOneOf(u"a.Error"_s, names);
    }
    if (when.serverCouldHaveActed) {
        // An answer proves the server saw the request; a call the breaker refused never left.
        if (*when.serverCouldHaveActed)
            parts << u"(a.Response is not null || %1)"_s.arg(isOneOf(u"a.Error"_s, classNames(true)));
        else
            parts << (when.outcome == OutcomeKind::Error ? isOneOf(u"a.Error"_s, classNames(false))
                                                         : u"(a.CircuitOpen || %1)"_s.arg(isOneOf(u"a.Error"_s, classNames(false))));
    }
    if (when.body) {
        needs.body = true;
        if (when.outcome != OutcomeKind::Status)
            parts << u"a.Response is not null"_s;
        parts << (when.body->values.isEmpty() ? u"BodyField(a.Body, %1) is not null"_s.arg(quoted(when.body->path))
                                              : isOneOf(u"BodyField(a.Body, %1)"_s.arg(quoted(when.body->path)), when.body->values));
    }
    for (const HeaderMatch& h : when.headers) {
        needs.headers = true;
        if (h.absent)
            parts << u"!HeaderIs(a.Response, %1)"_s.arg(quoted(h.name));
        else
            parts << u"HeaderIs(a.Response, %1%2)"_s.arg(quoted(h.name), h.values.isEmpty() ? QString() : u", "_s + strings(h.values));
    }
    if (when.afterLostAnswer) {
        needs.call = needs.lostAnswer = true;
        parts << (*when.afterLostAnswer ? QString(call + u"LostAnswer"_s) : QString(u"!"_s + call + u"LostAnswer"_s));
    }
    return parts.isEmpty() ? u"true"_s : parts.join(u" && "_s);
}

bool decorrelated(const Backoff& b)
{
    return b.kind == BackoffKind::Decorrelated || b.kind == BackoffKind::DecorrelatedV2;
}

bool keepsPrevious(const RetryPolicy& p)
{
    return std::any_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return !h.advancesBackoff; });
}

// How C# writes a delay's arithmetic (the per-call fields _retries and _previous, Random.Shared).
const DelaySyntax kCSharp { .draw = u"Random.Shared.NextDouble()"_s, .compact = false, .doubleLiterals = true,
    .indent = u"            "_s, .declare = u"var"_s, .pow = u"Math.Pow"_s, .min = u"Math.Min"_s, .max = u"Math.Max"_s,
    .retries = u"_retries"_s, .previous = u"_previous"_s, .maxWait = u"MaxWaitMs"_s, .v2Curve = u"V2Curve"_s,
    .floor = u"Math.Floor"_s };

// The body of Backoff(): the policy's curve in double milliseconds.
QString curveLines(const RetryPolicy& p)
{
    return curveBody(p, kCSharp);
}

QString hintFormat(const DelayHint& h)
{
    switch (h.format) {
    case HintFormat::RetryAfter:
        return u"HintFormat.RetryAfter"_s;
    case HintFormat::Milliseconds:
        return u"HintFormat.Milliseconds"_s;
    case HintFormat::Seconds:
        return u"HintFormat.Seconds"_s;
    }
    return u"HintFormat.RetryAfter"_s;
}

// One hint in ChooseWait; NATIVE: Polly draws the backoff, so only a replacing wait can be set.
QString hintLines(const RetryPolicy& p, qsizetype i, bool native)
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
        test += u" && "_s + statusPattern(u"a.Status"_s, h.statuses);
    out += in + u"if (%1)\n"_s.arg(test) + in + u"{\n"_s;
    const QString in2 = in + u"    "_s;
    out += in2 + u"var (present, valid, asked) = HeaderDelay(a.Response, %1, %2);\n"_s.arg(quoted(h.header), hintFormat(h));
    if (h.alsoRetryAfterMs && h.format == HintFormat::RetryAfter)
        out += in2 + u"if (!present)\n"_s + in2 + u"    (present, valid, asked) = HeaderDelay(a.Response, \"retry-after-ms\", HintFormat.Milliseconds);\n"_s;
    if (h.invalidMeansStop)
        out += in2 + u"if (present && !valid)\n"_s + in2 + u"    return false; // an invalid value means \"don't retry\"\n"_s;
    if (h.negativeMeansStop)
        out += in2 + u"if (present && valid && asked < 0)\n"_s + in2 + u"    return false; // a negative value means \"don't retry\"\n"_s;
    const bool ignoreAbove = h.max && h.overMax == HintOverMax::Ignore;
    out += in2 + u"if (present && valid && asked >= 0%1)%2\n"_s.arg(ignoreAbove ? u" && asked <= %1"_s.arg(ms(double(h.max->count()))) : QString(),
                                                                ignoreAbove ? u" // above: ignored"_s : QString())
        + in2 + u"{\n"_s;
    const QString in3 = in2 + u"    "_s;
    QString chain;
    if (h.zeroFallsBackToBackoff)
        chain += in3 + u"if (asked == 0)\n"_s + in3 + u"    hinted = true; // 0 falls back to the backoff\n"_s + in3 + u"else "_s;
    if (h.max && h.overMax == HintOverMax::GiveUp)
        chain += (chain.isEmpty() ? in3 : QString()) + u"if (asked > %1)\n"_s.arg(ms(double(h.max->count()))) + in3 + u"    return false; // more than the policy waits: give up\n"_s + in3 + u"else "_s;
    QString apply;
    apply += u"hinted = true;\n"_s;
    if (h.max && h.overMax == HintOverMax::Clamp)
        apply += u"asked = Math.Min(asked, %1);\n"_s.arg(ms(double(h.max->count())));
    if (native) {
        apply += u"wait = asked;\n"_s;
    } else {
        apply += hintWaitStatements(p, h, kCSharp);
        if (!h.advancesBackoff)
            apply += u"(_retries, _previous) = (retries, previous); // a hinted wait leaves the backoff where it was\n"_s;
        if (h.resetsExponent)
            apply += u"(_retries, _previous) = (0, 0); // the backoff starts again\n"_s;
    }
    if (chain.isEmpty()) {
        for (const QString& line : apply.split(u'\n', Qt::SkipEmptyParts))
            out += in3 + line + u'\n';
    } else {
        out += chain.chopped(1) + u'\n' + in3 + u"{\n"_s;
        for (const QString& line : apply.split(u'\n', Qt::SkipEmptyParts))
            out += in3 + u"    "_s + line + u'\n';
        out += in3 + u"}\n"_s;
    }
    out += in2 + u"}\n"_s + in + u"}\n"_s;
    return out;
}

// What Polly's or MEHR's default ShouldHandle retries, as outcomes: Polly any exception but an
// OperationCanceledException (HttpClient's timeouts are TaskCanceledException); MEHR IsTransient.
RetriedOutcomes defaultHandled(CsFlavour flavour)
{
    RetriedOutcomes o;
    if (flavour == CsFlavour::Polly) {
        o.errors = { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectionLost, ErrorClass::Protocol };
        return o;
    }
    o.statuses << 408 << 429;
    for (int s = 500; s <= 599; ++s)
        o.statuses << s;
    std::sort(o.statuses.begin(), o.statuses.end());
    o.errors = ProxyOutcomes::allErrors();
    return o;
}

bool simpleConditions(const QList<RuleCondition>& conditions)
{
    return std::all_of(conditions.cbegin(), conditions.cend(), [](const RuleCondition& c) {
        return c.methods.isEmpty() && !c.idempotencyKey && !c.body && c.headers.isEmpty() && !c.afterLostAnswer;
    });
}

bool retriedOnRefusal(const RetryPolicy& p, const QString& method)
{
    RetryPolicy probe = p;
    probe.limits.maxAttempts = 2;
    probe.pipeline.clear();
    ExplainQuery q;
    q.method = method;
    q.outcome = AttemptOutcome::refusedByBreaker(Millis(1000));
    q.now = QDateTime(QDate(2025, 1, 1), QTime(0, 0), Qt::UTC);
    return explain(probe, q).verdict == Verdict::Retry;
}

bool hintNative(const DelayHint& h, const RetryPolicy& p)
{
    return h.combine == HintCombine::Replace && !(h.jittered && p.jitter.kind != JitterKind::None) && h.advancesBackoff
        && !h.resetsExponent && !(h.cappedByBackoffCap && p.backoff.cap);
}

// MEHR's RetryAfterHelper: Retry-After (seconds or a date, past dates 0) on any retried answer, as it is.
bool mehrRetryAfter(const DelayHint& h)
{
    return h.header.compare(u"Retry-After"_s, Qt::CaseInsensitive) == 0 && h.format == HintFormat::RetryAfter
        && h.statuses.isEmpty() && h.combine == HintCombine::Replace && !h.max && !h.zeroFallsBackToBackoff
        && !h.invalidMeansStop && !h.negativeMeansStop && !h.jittered && h.advancesBackoff && !h.resetsExponent
        && !h.alsoRetryAfterMs && !h.cappedByBackoffCap;
}

bool curveNative(const RetryPolicy& p)
{
    const Backoff& b = p.backoff;
    const Jitter& j = p.jitter;
    const Millis day { 86'400'000 };
    if (j.floor.count() > 0 || b.base > day || (b.cap && *b.cap > day))
        return false;
    const bool pollyJitter = j.kind == JitterKind::None
        || (j.kind == JitterKind::Proportional && j.factor == 0.25 && (j.capOrder == CapOrder::AfterJitter || !b.cap));
    switch (b.kind) {
    case BackoffKind::None:
        return true;
    case BackoffKind::Constant:
        return pollyJitter;
    case BackoffKind::Linear:
        return b.increment == b.base && pollyJitter;
    case BackoffKind::Exponential:
        return b.origin == ExponentOrigin::FirstRetryIsBase && b.exponentOffset == 0 && b.multiplier == 2.0 && j.kind == JitterKind::None;
    case BackoffKind::DecorrelatedV2:
        return j.kind == JitterKind::None;
    case BackoffKind::Decorrelated:
        return false;
    }
    return false;
}

QString deadlinePath(const RetryPolicy& original)
{
    for (qsizetype i = 0; i < original.pipeline.size(); ++i)
        if (original.pipeline.at(i).kind == ResilienceStrategy::Kind::TotalTimeout)
            return u"pipeline[%1]"_s.arg(i);
    return u"limits.deadline_mode"_s;
}

} // namespace

QString csDuration(Millis v)
{
    static const DurationSpelling spelling { u"TimeSpan.Zero"_s, u"TimeSpan.FromHours(%1)"_s, u"TimeSpan.FromMinutes(%1)"_s,
        u"TimeSpan.FromSeconds(%1)"_s, u"TimeSpan.FromMilliseconds(%1)"_s };
    return durationLiteral(v, spelling);
}

CsRetryPlan planCsRetry(const RetryPolicy& original, const PipelineShape& shape, CsFlavour flavour, LossList& lost)
{
    const RetryPolicy& p = shape.policy;
    CsRetryPlan plan;
    plan.hasRetry = p.limits.maxAttempts > 1 && (original.pipeline.isEmpty() || shape.retryIndex >= 0);
    if (plan.hasRetry) {
        plan.native = curveNative(p) && std::all_of(p.hints.cbegin(), p.hints.cend(), [&](const DelayHint& h) { return hintNative(h, p); });
        plan.retryAfterHeader = flavour == CsFlavour::Mehr && plan.native && p.hints.size() == 1 && mehrRetryAfter(p.hints.first());
        const bool hintCode = !p.hints.isEmpty() && !plan.retryAfterHeader;
        if (p.limits.deadline && plan.native && p.limits.deadlineMode == DeadlineMode::StopBeforeWait)
            lost.add(deadlinePath(original), u"not starting a wait that would end past the %1 ms deadline: Polly's timeout lets the retry wait and cancels it at the deadline (TimeoutRejectedException, not the last answer)"_s.arg(p.limits.deadline->count()));
        plan.chooseWait = !plan.native || hintCode;

        // Is the flavour's default predicate exactly the policy's rules?
        const RetriedOutcomes wanted = defaultHandled(flavour);
        bool same = ProxyOutcomes::conditionsBeyondStatus(p).isEmpty();
        bool safeOnly = same && flavour == CsFlavour::Mehr;
        for (const QString& m : ProxyOutcomes::methods()) {
            const bool unsafe = m != u"GET"_s && m != u"HEAD"_s && m != u"OPTIONS"_s;
            for (const bool key : { false, true }) {
                const RetriedOutcomes got = ProxyOutcomes::retried(p, m, key);
                same = same && got == wanted;
                safeOnly = safeOnly && (unsafe ? got.isEmpty() : got == wanted);
            }
        }
        // A refused call: Polly handles BrokenCircuitException; MEHR's IsTransient does not.
        if (shape.breakerInsideRetry) {
            const bool refusalRetried = retriedOnRefusal(p, u"GET"_s);
            same = same && refusalRetried == (flavour == CsFlavour::Polly);
            safeOnly = safeOnly && !refusalRetried;
        }
        // Polly handles TimeoutRejectedException: an attempt timeout inside the retry is handled.
        if (flavour == CsFlavour::Polly && p.limits.attemptTimeout)
            same = false;
        plan.ownPredicate = plan.chooseWait || (!same && !safeOnly);
        plan.disableUnsafe = !plan.ownPredicate && !same && safeOnly;
        if (plan.ownPredicate) {
            // .NET cannot tell a connect timeout (SocketsHttpHandler.ConnectTimeout) from HttpClient.Timeout.
            for (const QString& m : ProxyOutcomes::methods()) {
                const RetriedOutcomes got = ProxyOutcomes::retried(p, m);
                if (got.contains(ErrorClass::ConnectTimeout) != got.contains(ErrorClass::ResponseTimeout)) {
                    lost.add(u"rules.connect-timeout"_s, u"a connect timeout judged apart from a response timeout: .NET reports SocketsHttpHandler.ConnectTimeout as a TaskCanceledException like HttpClient.Timeout, so both are read as response-timeout"_s);
                    break;
                }
            }
        }
    }
    const auto custom = [&](const ResilienceStrategy* s) {
        if (!s)
            return false;
        const RetriedOutcomes wanted = defaultHandled(flavour);
        return !(simpleConditions(s->failures) && ProxyOutcomes::matchedBy(s->failures) == wanted);
    };
    plan.breakerPredicate = custom(shape.breaker());
    plan.hedgingPredicate = custom(shape.hedging());
    Needs needs;
    if (plan.breakerPredicate)
        for (const RuleCondition& c : shape.breaker()->failures)
            condition(c, u"call."_s, needs);
    if (plan.hedgingPredicate)
        for (const RuleCondition& c : shape.hedging()->failures)
            condition(c, u"call."_s, needs);
    plan.state = plan.ownPredicate || needs.call;
    return plan;
}

QList<CsAssign> csRetryOptions(const PipelineShape& shape, const CsRetryPlan& plan, CsFlavour flavour, CsUnit& unit)
{
    const RetryPolicy& p = shape.policy;
    const Backoff& b = p.backoff;
    QList<CsAssign> out;
    out << CsAssign { u"MaxRetryAttempts"_s, QString::number(p.maxRetries()), u"retries after the first attempt: %1 attempts in all"_s.arg(p.limits.maxAttempts) };
    if (plan.native) {
        unit.usings << u"Polly"_s;
        QString type = u"Constant"_s;
        bool jitter = p.jitter.kind != JitterKind::None;
        QString words;
        switch (b.kind) {
        case BackoffKind::None:
            words = u"no wait"_s;
            break;
        case BackoffKind::Constant:
            words = jitter ? u"±25 %"_s : QString();
            break;
        case BackoffKind::Linear:
            type = u"Linear"_s;
            words = u"Delay × retry number"_s + (jitter ? u", ±25 %"_s : QString());
            break;
        case BackoffKind::Exponential:
            type = u"Exponential"_s;
            words = u"Delay × 2^(retry − 1)"_s;
            break;
        case BackoffKind::DecorrelatedV2:
            type = u"Exponential"_s;
            jitter = true;
            words = u"with UseJitter: DecorrelatedJitterBackoffV2, median near Delay × 2^(retry − 1)"_s;
            break;
        case BackoffKind::Decorrelated:
            break;
        }
        out << CsAssign { u"BackoffType"_s, u"DelayBackoffType."_s + type, words };
        out << CsAssign { u"Delay"_s, csDuration(b.kind == BackoffKind::None ? Millis(0) : b.base), {} };
        if (jitter || flavour == CsFlavour::Mehr)
            out << CsAssign { u"UseJitter"_s, jitter ? u"true"_s : u"false"_s, {} };
        if (b.cap && b.kind != BackoffKind::None)
            out << CsAssign { u"MaxDelay"_s, csDuration(*b.cap), u"caps the computed delay, never a server's"_s };
    }
    if (flavour == CsFlavour::Mehr && !plan.chooseWait)
        out << CsAssign { u"ShouldRetryAfterHeader"_s, plan.retryAfterHeader ? u"true"_s : u"false"_s,
            plan.retryAfterHeader ? u"Retry-After (seconds or a date) replaces the delay on any retried answer"_s : QString() };
    if (plan.ownPredicate)
        out << CsAssign { u"ShouldHandle"_s, u"args => CallOf(args.Context).ShouldRetryAsync(args.Outcome, args.Context.CancellationToken)"_s,
            plan.chooseWait ? u"the policy's rules, in order; they choose the wait too"_s : u"the policy's rules, in order"_s };
    if (plan.chooseWait)
        out << CsAssign { u"DelayGenerator"_s, u"args => new ValueTask<TimeSpan?>(CallOf(args.Context).NextDelay)"_s,
            plan.native ? u"a server's wait, else (null) the delay above"_s : u"the wait ShouldHandle chose"_s };
    return out;
}

QList<CsAssign> csBreakerOptions(const ResilienceStrategy& s, const QString& path, const CsRetryPlan& plan, CsFlavour flavour,
    LossList& lost, CsUnit& unit)
{
    const CircuitBreakerOptions& b = s.breaker;
    using B = CircuitBreakerOptions;
    const QString polly = u"Polly's circuit breaker"_s;
    if (b.window != B::Window::Time)
        lost.add(path + u".window"_s, u"%1 counts %2: %3 samples a time window (written as SamplingDuration %4)"_s.arg(
                                           u"the breaker"_s, b.window == B::Window::Count ? u"the last %1 calls"_s.arg(b.windowCalls) : u"%1 failures in a row"_s.arg(b.consecutiveFailures), polly, secondsText(b.samplingDuration) + u" s"_s));
    if (b.window == B::Window::Time && b.buckets != 10)
        lost.add(path + u".buckets"_s, u"%1 buckets: %2 rolls its window in 10"_s.arg(b.buckets).arg(polly));
    if (b.bucketStart != B::BucketStart::AtCall)
        lost.add(path + u".bucket_start"_s, u"buckets turning on a fixed clock: %1 opens a bucket at a call"_s.arg(polly));
    if (b.comparator != B::Comparator::AtLeast)
        lost.add(path + u".comparator"_s, u"opening only above the ratio: %1 opens at the ratio"_s.arg(polly));
    if (b.minimumCallsPerSecond)
        lost.add(path + u".minimum_calls_per_second"_s, u"a minimum rate of calls: %1 counts a minimum number (written as %2)"_s.arg(polly).arg(b.minimumCalls));
    if (b.minimumCalls < 2)
        lost.add(path + u".minimum_calls"_s, u"fewer than 2 calls before a verdict: %1's MinimumThroughput is at least 2"_s.arg(polly));
    if (b.judgeAfterSuccess)
        lost.add(path + u".judge_after_success"_s, u"judging the window after a success: %1 judges it on a failure"_s.arg(polly));
    if (b.countRejected)
        lost.add(path + u".count_rejected"_s, u"counting refused calls: %1 does not"_s.arg(polly));
    if (!b.resetOnClose)
        lost.add(path + u".reset_on_close"_s, u"keeping the window when the breaker closes: %1 empties it"_s.arg(polly));
    if (b.halfOpenProbes != 1)
        lost.add(path + u".half_open_probes"_s, u"%1 probes while half-open: %2 lets one through"_s.arg(b.halfOpenProbes).arg(polly));
    if (b.halfOpenCallers != B::HalfOpenCallers::Rejected)
        lost.add(path + u".half_open_callers"_s, u"holding callers while the probe runs: %1 refuses them"_s.arg(polly));
    if (b.transition != B::Transition::Lazy)
        lost.add(path + u".transition"_s, u"half-opening when the break ends: %1 half-opens on the next call"_s.arg(polly));
    if (b.scope == B::Scope::Host && flavour == CsFlavour::Polly)
        lost.add(path + u".scope"_s, u"one breaker per host: %1 is one for the pipeline"_s.arg(polly));
    if (s.slowCall)
        lost.add(path + u".slow_call_ms"_s, u"slow calls as failures: %1 sees outcomes only"_s.arg(polly));
    QList<CsAssign> out;
    const int minimum = std::max(2, b.minimumCalls);
    out << CsAssign { u"FailureRatio"_s, numberText(b.failureRatio), u"opens at ≥ %1 % failures"_s.arg(numberText(b.failureRatio * 100)) };
    out << CsAssign { u"MinimumThroughput"_s, QString::number(minimum), u"of at least %1 calls"_s.arg(minimum) };
    out << CsAssign { u"SamplingDuration"_s, csDuration(b.samplingDuration), u"in this window"_s };
    out << CsAssign { u"BreakDuration"_s, csDuration(b.breakDuration), {} };
    if (b.breakGrowth != 1.0) {
        QString value = u"TimeSpan.FromMilliseconds(%1 * Math.Pow(%2, args.HalfOpenAttempts))"_s.arg(ms(double(b.breakDuration.count())), ms(b.breakGrowth));
        if (b.maxBreakDuration)
            value = u"TimeSpan.FromMilliseconds(Math.Min(%1 * Math.Pow(%2, args.HalfOpenAttempts), %3))"_s.arg(ms(double(b.breakDuration.count())), ms(b.breakGrowth), ms(double(b.maxBreakDuration->count())));
        out << CsAssign { u"BreakDurationGenerator"_s, u"args => new ValueTask<TimeSpan>(%1)"_s.arg(value), u"each failed probe since the last close lengthens the break"_s };
    }
    if (plan.breakerPredicate)
        out << CsAssign { u"ShouldHandle"_s, u"args => IsBreakerFailureAsync(args.Outcome, args.Context)"_s, path + u".failures"_s };
    if (flavour == CsFlavour::Polly)
        unit.usings << u"Polly.CircuitBreaker"_s; // CircuitBreakerStrategyOptions
    return out;
}

QList<CsAssign> csHedgingOptions(const ResilienceStrategy& s, const QString& path, const CsRetryPlan& plan, CsFlavour flavour,
    LossList& lost, CsUnit& unit)
{
    const HedgingOptions& h = s.hedging;
    QList<CsAssign> out;
    const int hedges = std::clamp(h.maxHedges, 1, 10);
    if (hedges != h.maxHedges)
        lost.add(path + u".max_hedges"_s, u"%1 hedges: Polly sends 1 to 10 (written as %2)"_s.arg(h.maxHedges).arg(hedges));
    out << CsAssign { u"MaxHedgedAttempts"_s, QString::number(hedges), u"copies beyond the first"_s };
    if (h.delay == HedgingOptions::kFallback) {
        unit.usings << u"System.Threading"_s;
        out << CsAssign { u"Delay"_s, u"Timeout.InfiniteTimeSpan"_s, u"the next copy only after a failure"_s };
    } else {
        out << CsAssign { u"Delay"_s, csDuration(h.delay), h.delay.count() == 0 ? u"every copy at once"_s : u"the next copy when the last has not answered by then"_s };
    }
    if (plan.hedgingPredicate)
        out << CsAssign { u"ShouldHandle"_s, u"args => IsHedgingFailureAsync(args.Outcome, args.Context)"_s, path + u".failures: send the next copy at once"_s };
    if (flavour == CsFlavour::Polly)
        unit.usings << u"Polly.Hedging"_s; // HedgingStrategyOptions
    return out;
}

QString csInitializer(const QString& type, const QList<CsAssign>& members, const QString& indent)
{
    QString out = u"new %1\n"_s.arg(type) + indent + u"{\n"_s;
    for (const CsAssign& a : members)
        out += indent + u"    %1 = %2,%3\n"_s.arg(a.member, a.value, a.comment.isEmpty() ? QString() : u" // "_s + a.comment);
    return out + indent + u'}';
}

QString csStatements(const QString& prefix, const QList<CsAssign>& members, const QString& indent)
{
    QString out;
    for (const CsAssign& a : members)
        out += indent + u"%1.%2 = %3;%4\n"_s.arg(prefix, a.member, a.value, a.comment.isEmpty() ? QString() : u" // "_s + a.comment);
    return out;
}

QString csPipelineCalls(const RetryPolicy& original, const PipelineShape& shape, const CsRetryPlan& plan, CsFlavour flavour,
    const QString& indent, LossList& lost, CsUnit& unit)
{
    const bool mehr = flavour == CsFlavour::Mehr;
    QString out;
    const auto retry = [&]() -> QString {
        if (!plan.hasRetry)
            return u"%1// no retry: the policy makes one attempt\n"_s.arg(indent);
        if (!mehr)
            unit.usings << u"Polly.Retry"_s; // RetryStrategyOptions
        return QString(indent + u".AddRetry("_s) + csInitializer(mehr ? u"HttpRetryStrategyOptions"_s : u"RetryStrategyOptions<HttpResponseMessage>"_s,
                                               csRetryOptions(shape, plan, flavour, unit), indent) + u")\n"_s;
    };
    const auto timeout = [&](Millis t, const QString& what) -> QString {
        return indent + u".AddTimeout(%1) // %2\n"_s.arg(csDuration(t), what);
    };
    if (original.pipeline.isEmpty()) {
        if (shape.policy.limits.deadline)
            out += timeout(*shape.policy.limits.deadline, u"limits.deadline_ms: the whole request, waits included"_s);
        out += retry();
        if (shape.policy.limits.attemptTimeout)
            out += timeout(*shape.policy.limits.attemptTimeout, u"limits.attempt_timeout_ms: each attempt"_s);
        return out;
    }
    for (qsizetype i = 0; i < original.pipeline.size(); ++i) {
        const ResilienceStrategy& s = original.pipeline.at(i);
        const QString path = u"pipeline[%1]"_s.arg(i);
        switch (s.kind) {
        case ResilienceStrategy::Kind::TotalTimeout:
            out += timeout(s.timeout, path + u": the whole request"_s);
            break;
        case ResilienceStrategy::Kind::AttemptTimeout:
            out += timeout(s.timeout, path + u": each attempt"_s);
            break;
        case ResilienceStrategy::Kind::Retry:
            out += retry();
            break;
        case ResilienceStrategy::Kind::CircuitBreaker:
            out += indent + u".AddCircuitBreaker("_s + csInitializer(mehr ? u"HttpCircuitBreakerStrategyOptions"_s : u"CircuitBreakerStrategyOptions<HttpResponseMessage>"_s,
                                                           csBreakerOptions(s, path, plan, flavour, lost, unit), indent) + u")\n"_s;
            break;
        case ResilienceStrategy::Kind::Hedging:
            out += indent + u".AddHedging("_s + csInitializer(mehr ? u"HttpHedgingStrategyOptions"_s : u"HedgingStrategyOptions<HttpResponseMessage>"_s,
                                                    csHedgingOptions(s, path, plan, flavour, lost, unit), indent) + u")\n"_s;
            break;
        case ResilienceStrategy::Kind::RateLimiter:
        case ResilienceStrategy::Kind::Bulkhead:
            out += indent + u".AddConcurrencyLimiter(%1, %2) // %3: calls at once, then a queue (Polly.RateLimiting)\n"_s.arg(s.permits).arg(s.queue).arg(path);
            break;
        }
    }
    return out;
}

void writeCsState(const PipelineShape& shape, const CsRetryPlan& plan, CsFlavour flavour, CsUnit& unit)
{
    const RetryPolicy& p = shape.policy;
    const bool polly = flavour == CsFlavour::Polly;
    Needs needs;
    QString judge;
    if (plan.ownPredicate) {
        for (qsizetype i = 0; i < p.rules.size(); ++i) {
            const RetryRule& r = p.rules.at(i);
            const QString c = condition(r.when, QString(), needs);
            judge += u"            if (%1)\n                return %2; // %3%4\n"_s.arg(c, r.action == RuleAction::Retry ? u"true"_s : u"false"_s,
                r.name.isEmpty() ? u"rules[%1]"_s.arg(i) : r.name,
                r.action == RuleAction::Success ? u": a success"_s : QString());
        }
    }
    QString predicates;
    const auto predicate = [&](const QString& name, const QString& what, const QList<RuleCondition>& conditions) {
        Needs own;
        QStringList parts;
        for (const RuleCondition& c : conditions)
            parts << condition(c, u"call."_s, own);
        if (parts.size() > 1)
            for (QString& part : parts)
                part = u"(%1)"_s.arg(part);
        needs.body |= own.body;
        needs.headers |= own.headers;
        needs.lostAnswer |= own.lostAnswer;
        QString out = u"    // %1\n    private static async ValueTask<bool> %2(Outcome<HttpResponseMessage> outcome, ResilienceContext context)\n    {\n"
                      "        var a = await Attempt.ReadAsync(outcome, context.CancellationToken).ConfigureAwait(false);\n"_s.arg(what, name);
        if (own.call)
            out += u"        var call = CallOf(context);\n"_s;
        out += u"        return a is not null && (%1);\n    }\n\n"_s.arg(parts.isEmpty() ? u"false"_s : parts.join(u"\n            || "_s));
        predicates += out;
    };
    if (plan.breakerPredicate)
        predicate(u"IsBreakerFailureAsync"_s, u"What the circuit breaker counts as a failure."_s, shape.breaker()->failures);
    if (plan.hedgingPredicate)
        predicate(u"IsHedgingFailureAsync"_s, u"An answer that sends the next copy at once."_s, shape.hedging()->failures);
    const bool anyAttempt = plan.ownPredicate || plan.breakerPredicate || plan.hedgingPredicate;
    unit.usings << u"System.Net.Http"_s;

    QString b;
    if (plan.state) {
        unit.usings << u"Polly"_s;
        b += u"    private static readonly ResiliencePropertyKey<RetryCall> CallKey = new(\"retrylab.call\");\n\n"_s;
        if (polly) {
            unit.usings << u"System"_s;
            b += u"    private static RetryCall CallOf(ResilienceContext context) =>\n"
                 "        context.Properties.TryGetValue(CallKey, out var call) ? call : throw new InvalidOperationException(\"Send through SendAsync.\");\n\n"_s;
        } else {
            unit.experimental = true;
            b += u"    // The call's state, made at its first decision from the request the handler sends.\n"
                 "    private static RetryCall CallOf(ResilienceContext context)\n    {\n"
                 "        if (!context.Properties.TryGetValue(CallKey, out var call))\n        {\n"
                 "            call = new RetryCall(context.GetRequestMessage());\n            context.Properties.Set(CallKey, call);\n        }\n"
                 "        return call;\n    }\n\n"_s;
        }
    }
    b += predicates;

    // RetryCall.
    const bool own = plan.hasRetry && !plan.native;
    const bool deadline = plan.chooseWait && !plan.native && p.limits.deadline;
    if (plan.state) {
        QString c;
        c += u"    // One logical request through its attempts: its method and key"_s;
        if (needs.lostAnswer)
            c += u", whether an earlier attempt lost its\n    // answer after sending"_s;
        if (plan.chooseWait)
            c += u", the wait chosen for the next retry"_s;
        c += u".\n    private sealed class RetryCall\n    {\n"_s;
        if (deadline) {
            unit.usings << u"System.Diagnostics"_s;
            c += u"        private readonly Stopwatch _clock = Stopwatch.StartNew();\n"_s;
        }
        if (own) {
            c += u"        private int _retries; // retries drawn so far\n"_s;
            if (decorrelated(p.backoff) || keepsPrevious(p) || std::any_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return h.resetsExponent; }))
                c += u"        private double _previous; // the decorrelated backoff's last value\n"_s;
        }
        if (deadline || own)
            c += u'\n';
        if (!polly)
            c += u"        public RetryCall(HttpRequestMessage? request)\n        {\n"
                 "            Method = request?.Method.Method.ToUpperInvariant() ?? \"GET\";\n"
                 "            HasKey = request?.Headers.Contains(IdempotencyKeyHeader) ?? false;\n        }\n\n"_s;
        const QString set = polly ? u" private set;"_s : QString();
        c += u"        public string Method { get;%1 }%2\n\n        public bool HasKey { get;%1 }\n\n"_s.arg(set, polly ? u" = \"GET\";"_s : QString());
        if (needs.lostAnswer)
            c += u"        public bool LostAnswer { get; private set; }\n\n"_s;
        if (plan.chooseWait)
            c += u"        public TimeSpan? NextDelay { get; private set; }\n\n"_s;
        if (polly)
            c += u"        // The method and key of the attempt about to be sent.\n        public void Prepare(HttpRequestMessage request)\n        {\n"
                 "            Method = request.Method.Method.ToUpperInvariant();\n"
                 "            HasKey = request.Headers.Contains(IdempotencyKeyHeader);\n        }\n\n"_s;
        if (plan.ownPredicate) {
            unit.usings << u"System.Threading"_s << u"System.Threading.Tasks"_s;
            c += u"        // Whether the policy retries this attempt%1.\n"
                 "        public async ValueTask<bool> ShouldRetryAsync(Outcome<HttpResponseMessage> outcome, CancellationToken cancellationToken)\n        {\n"
                 "            var a = await Attempt.ReadAsync(outcome, cancellationToken).ConfigureAwait(false);\n"
                 "            if (a is null)\n                return false; // the caller cancelled\n"
                 "            var retry = Judge(a);\n"_s.arg(plan.chooseWait ? u", and after how long (NextDelay)"_s : QString());
            if (needs.lostAnswer)
                c += u"            if (%1)\n                LostAnswer = true; // sent, and the answer lost\n"_s.arg(isOneOf(u"a.Error"_s, classNames(true)));
            c += plan.chooseWait ? u"            return retry && ChooseWait(a);\n        }\n\n"_s : u"            return retry;\n        }\n\n"_s;
            c += u"        // What the policy's rules say: the first that matches decides; with none, 1xx–3xx are a success and\n"
                 "        // everything else is final.\n        private bool Judge(Attempt a)\n        {\n"_s;
            c += judge + u"            return false;\n        }\n\n"_s;
        }
        if (plan.chooseWait) {
            unit.usings << u"System"_s;
            c += u"        // The wait before the next attempt%1; false when the policy gives up instead.\n"
                 "        private bool ChooseWait(Attempt a)\n        {\n"_s.arg(plan.native ? u" when a server asks for one (null: Polly's own delay)"_s : u", from the backoff and the server's hints"_s);
            if (own && keepsPrevious(p))
                c += u"            var (retries, previous) = (_retries, _previous);\n"_s;
            c += plan.native ? u"            double? wait = null;\n"_s : u"            var wait = Backoff();\n"_s;
            if (!p.hints.isEmpty()) {
                c += u"            var hinted = false;\n"_s;
                for (qsizetype i = 0; i < p.hints.size(); ++i)
                    c += hintLines(p, i, plan.native);
            }
            if (deadline) {
                const QString d = ms(double(p.limits.deadline->count()));
                c += p.limits.deadlineMode == DeadlineMode::StopBeforeWait
                    ? u"            if (_clock.Elapsed.TotalMilliseconds + wait > %1)\n                return false; // the wait would pass the deadline\n"_s.arg(d)
                    : u"            if (_clock.Elapsed.TotalMilliseconds >= %1)\n                return false; // the deadline has passed\n"_s.arg(d);
            }
            c += plan.native ? u"            NextDelay = wait is null ? null : Millis(wait.Value);\n"_s : u"            NextDelay = Millis(wait);\n"_s;
            c += u"            return true;\n        }\n\n"_s;
        }
        if (own) {
            c += u"        // The policy's wait before the next retry, in milliseconds, before any server hint.\n        private double Backoff()\n        {\n"_s;
            c += curveLines(p) + u"        }\n\n"_s;
        }
        while (c.endsWith(u"\n\n"_s))
            c.chop(1);
        b += c + u"    }\n\n"_s;
    }

    // Helpers, only those used.
    if (anyAttempt) {
        unit.usings << u"Polly"_s << u"Polly.CircuitBreaker"_s << u"System"_s << u"System.Threading"_s << u"System.Threading.Tasks"_s;
        const QString wrap = needs.body ? u"%1"_s : u"ValueTask.FromResult<Attempt?>(%1)"_s;
        b += u"    // One attempt's outcome as the policy's rules see it: the answer, how the attempt failed (Error), or the\n"
             "    // circuit breaker's refusal.\n"_s;
        b += u"    private sealed record Attempt(HttpResponseMessage? Response, string? Error, bool CircuitOpen%1)\n    {\n"
             "        public int Status => Response is null ? 0 : (int)Response.StatusCode;\n\n"
             "        // Null when the caller cancelled: never retried.\n"
             "        public static %2ValueTask<Attempt?> ReadAsync(Outcome<HttpResponseMessage> outcome, CancellationToken cancellationToken)\n        {\n"
             "            switch (outcome.Exception)\n            {\n"
             "                case OperationCanceledException when cancellationToken.IsCancellationRequested:\n                    return %3;\n"
             "                case BrokenCircuitException:\n                    return %4;\n"
             "                case { } e:\n                    return %5;\n            }\n"_s
                 .arg(needs.body ? u", string Body"_s : QString(), needs.body ? u"async "_s : QString(), wrap.arg(u"null"_s),
                     wrap.arg(needs.body ? u"new Attempt(null, null, true, \"\")"_s : u"new Attempt(null, null, true)"_s),
                     wrap.arg(needs.body ? u"new Attempt(null, ErrorClass(e), false, \"\")"_s : u"new Attempt(null, ErrorClass(e), false)"_s));
        if (needs.body)
            b += u"            // Reading the body buffers it: the caller can still read it.\n"
                 "            var body = await outcome.Result!.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);\n"
                 "            return new Attempt(outcome.Result, null, false, body);\n        }\n    }\n\n"_s;
        else
            b += u"            return ValueTask.FromResult<Attempt?>(new Attempt(outcome.Result, null, false));\n        }\n    }\n\n"_s;
        unit.usings << u"System.IO"_s << u"System.Net.Sockets"_s << u"Polly.Timeout"_s;
        b += u"    // How an attempt failed without an answer, in the policy's words (HttpRequestError is .NET 8's).\n"
             "    private static string ErrorClass(Exception e) => e switch\n    {\n"
             "        TimeoutRejectedException => \"response-timeout\", // Polly's timeout ended the attempt\n"
             "        OperationCanceledException => \"response-timeout\", // HttpClient.Timeout (and SocketsHttpHandler.ConnectTimeout)\n"
             "        HttpRequestException { HttpRequestError: HttpRequestError.NameResolutionError } => \"dns\",\n"
             "        HttpRequestException { HttpRequestError: HttpRequestError.SecureConnectionError } => \"tls\",\n"
             "        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError, InnerException: SocketException { SocketErrorCode: SocketError.TimedOut } }\n"
             "            => \"connect-timeout\",\n"
             "        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError } => \"refused\",\n"
             "        HttpRequestException { HttpRequestError: HttpRequestError.ResponseEnded } => \"connection-lost\",\n"
             "        HttpRequestException { InnerException: IOException } => \"connection-lost\",\n"
             "        _ => \"protocol\",\n    };\n\n"_s;
    }
    if (own) {
        b += u"    private const double MaxWaitMs = %1;\n\n"
             "    // MS whole milliseconds, rounded down.\n"
             "    private static TimeSpan Millis(double ms) => TimeSpan.FromMilliseconds(Math.Floor(Math.Clamp(ms, 0, MaxWaitMs) + 1e-3));\n\n"_s
                 .arg(kMaxBackoffDelay.count());
        if (p.backoff.kind == BackoffKind::DecorrelatedV2)
            b += u"    private static double V2Curve(double t) => t <= 0 ? 0 : Math.Pow(2, t) * Math.Tanh(Math.Sqrt(4 * t));\n\n"_s;
    } else if (plan.chooseWait) {
        b += u"    // MS whole milliseconds, rounded down.\n"
             "    private static TimeSpan Millis(double ms) => TimeSpan.FromMilliseconds(Math.Floor(Math.Max(ms, 0) + 1e-3));\n\n"_s;
    }
    if (plan.chooseWait && !p.hints.isEmpty()) {
        unit.usings << u"System.Globalization"_s << u"System.Linq"_s;
        b += u"    private enum HintFormat { RetryAfter, Milliseconds, Seconds }\n\n"
             "    // The wait (milliseconds) a server asks for in header NAME: RetryAfter is delta-seconds or an HTTP-date.\n"
             "    private static (bool Present, bool Valid, double Asked) HeaderDelay(HttpResponseMessage? response, string name, HintFormat format)\n    {\n"
             "        if (response is null || !(response.Headers.TryGetValues(name, out var values) || response.Content.Headers.TryGetValues(name, out values)))\n"
             "            return (false, false, 0);\n"
             "        var value = values.First().Trim();\n"
             "        if (format == HintFormat.Milliseconds)\n"
             "            return double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var n) ? (true, true, Math.Floor(n)) : (true, false, 0);\n"
             "        var sign = format == HintFormat.Seconds ? NumberStyles.AllowLeadingSign : NumberStyles.None;\n"
             "        if (long.TryParse(value, sign, CultureInfo.InvariantCulture, out var seconds))\n"
             "            return (true, true, Math.Clamp(seconds, -3_153_600_000L, 3_153_600_000L) * 1000.0);\n"
             "        if (format == HintFormat.RetryAfter\n"
             "            && DateTimeOffset.TryParse(value, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at))\n"
             "            return (true, true, Math.Max(0, Math.Floor((at - DateTimeOffset.UtcNow).TotalMilliseconds)));\n"
             "        return (true, false, 0);\n    }\n\n"_s;
    }
    if (needs.headers) {
        unit.usings << u"System"_s << u"System.Linq"_s;
        b += u"    // Whether header NAME is on the answer with one of VALUES (any value when none), case-insensitively.\n"
             "    private static bool HeaderIs(HttpResponseMessage? response, string name, params string[] values)\n    {\n"
             "        if (response is null || !(response.Headers.TryGetValues(name, out var got) || response.Content.Headers.TryGetValues(name, out got)))\n"
             "            return false;\n"
             "        return values.Length == 0 || got.Any(v => values.Any(w => string.Equals(v.Trim(), w, StringComparison.OrdinalIgnoreCase)));\n    }\n\n"_s;
    }
    if (needs.body) {
        unit.usings << u"System.Globalization"_s << u"System.Text.Json"_s;
        b += u"    // The value at PATH (\"error.code\", \"errors[0].code\") of a JSON body, as text; null when there is none.\n"
             "    private static string? BodyField(string body, string path)\n    {\n"
             "        try\n        {\n"
             "            using var document = JsonDocument.Parse(body);\n"
             "            var e = document.RootElement;\n"
             "            foreach (var step in path.Split('.', '['))\n            {\n"
             "                if (step.Length == 0)\n                    continue;\n"
             "                if (step.EndsWith(']'))\n                {\n"
             "                    if (e.ValueKind != JsonValueKind.Array || !int.TryParse(step[..^1], out var i) || i < 0 || i >= e.GetArrayLength())\n"
             "                        return null;\n"
             "                    e = e[i];\n                }\n"
             "                else if (e.ValueKind != JsonValueKind.Object || !e.TryGetProperty(step, out e))\n                {\n"
             "                    return null;\n                }\n            }\n"
             "            return e.ValueKind switch\n            {\n"
             "                JsonValueKind.String => e.GetString(),\n"
             "                JsonValueKind.Number => e.GetDouble().ToString(\"G17\", CultureInfo.InvariantCulture),\n"
             "                JsonValueKind.True => \"true\",\n                JsonValueKind.False => \"false\",\n"
             "                JsonValueKind.Null => \"null\",\n                _ => null,\n            };\n        }\n"
             "        catch (JsonException)\n        {\n            return null;\n        }\n    }\n\n"_s;
    }
    unit.members += b;
}

QString csKeyHelpers(const RetryPolicy& p, CsFlavour flavour)
{
    const IdempotencyPolicy& k = p.idempotency;
    if (!k.autoAdd)
        return {};
    QString value = k.prefix.isEmpty() ? u"Guid.NewGuid().ToString()"_s : u"%1 + Guid.NewGuid()"_s.arg(quoted(k.prefix));
    if (k.format == KeyFormat::Quoted)
        value = u"$\"\\\"{%1}\\\"\""_s.arg(value); // an sf-string
    QString out = u"    // A random (version 4) UUID%1.\n    private static string NewIdempotencyKey() => %2;\n\n"_s.arg(
        k.format == KeyFormat::Quoted ? u", as an sf-string (in double quotes)"_s : QString(), value);
    const QString methods = isOneOf(u"request.Method.Method.ToUpperInvariant()"_s, k.methods);
    if (flavour == CsFlavour::Polly)
        out += u"    // The call's KEY on a request whose method takes one, unless the caller set one.\n"
               "    private static void AddIdempotencyKey(HttpRequestMessage request, string key)\n    {\n"
               "        if (%1 && !request.Headers.Contains(IdempotencyKeyHeader))\n"
               "            request.Headers.TryAddWithoutValidation(IdempotencyKeyHeader, key);\n    }\n\n"_s.arg(methods);
    else
        out += u"    // Adds one key per logical request, outside the resilience handler, so every retry and hedge sends it.\n"
               "    private sealed class IdempotencyKeyHandler : DelegatingHandler\n    {\n"
               "        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)\n        {\n"
               "            if (%1 && !request.Headers.Contains(IdempotencyKeyHeader))\n"
               "                request.Headers.TryAddWithoutValidation(IdempotencyKeyHeader, NewIdempotencyKey());\n"
               "            return base.SendAsync(request, cancellationToken);\n        }\n    }\n\n"_s.arg(methods);
    return out;
}

QString csFile(const QString& header, const CsUnit& unit, const QString& classText)
{
    QStringList system, other;
    for (const QString& u : unit.usings)
        (u == u"System"_s || u.startsWith(u"System."_s) ? system : other) << u;
    system.sort();
    other.sort();
    QString out = header;
    if (unit.experimental)
        out += u"\n// DisableForUnsafeHttpMethods and GetRequestMessage are marked [Experimental] in Microsoft.Extensions.Http.Resilience.\n#pragma warning disable EXTEXP0001\n"_s;
    out += u'\n';
    for (const QString& u : std::as_const(system))
        out += u"using %1;\n"_s.arg(u);
    for (const QString& u : std::as_const(other))
        out += u"using %1;\n"_s.arg(u);
    out += u"\nnamespace RetrylabExport; // rename to your namespace\n\n"_s + classText;
    while (out.endsWith(u"\n\n"_s))
        out.chop(1);
    return out;
}
