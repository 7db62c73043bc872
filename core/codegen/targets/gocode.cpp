// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/gocode.h"

#include "policy/backoff.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString ms(double v)
{
    return numberText(v);
}

QString goStrings(const QStringList& values)
{
    QStringList q;
    for (const QString& v : values)
        q << quoted(v);
    return q.join(u", "_s);
}

QString oneOf(const QString& var, const QStringList& values)
{
    QStringList parts;
    for (const QString& v : values)
        parts << u"%1 == %2"_s.arg(var, quoted(v));
    return parts.size() == 1 ? parts.first() : u"("_s + parts.join(u" || "_s) + u')';
}

QString statusTest(const QList<StatusRange>& ranges)
{
    QStringList parts;
    for (const StatusRange& r : ranges)
        parts << (r.low == r.high ? u"status == %1"_s.arg(r.low) : u"status >= %1 && status <= %2"_s.arg(r.low).arg(r.high));
    return parts.size() == 1 ? parts.first() : u"("_s + parts.join(u" || "_s) + u')';
}

QStringList classNames(bool couldHaveActed)
{
    QStringList out;
    for (const QString& name : errorClassNames())
        if (errorClassServerCouldHaveActed(*errorClassFromName(name)) == couldHaveActed)
            out << name;
    return out;
}

// A duration inside a comparison, as gofmt writes it: 30*time.Second.
QString tight(Millis v)
{
    return goDuration(v).remove(u' ');
}

struct Needs
{
    bool errorClass = false;
    bool body = false;
    bool headers = false;
    bool lostAnswer = false;
};

// The Go condition for WHEN, or empty when it can never hold in Go (a refused call of a breaker).
QString condition(const RuleCondition& when, Needs& needs)
{
    QStringList parts;
    switch (when.outcome) {
    case OutcomeKind::Any:
        break;
    case OutcomeKind::Status:
        parts << u"err == nil"_s;
        break;
    case OutcomeKind::Error:
        parts << u"err != nil"_s;
        break;
    case OutcomeKind::CircuitOpen:
        return {};
    }
    if (!when.methods.isEmpty())
        parts << oneOf(u"s.method"_s, when.methods);
    if (when.idempotencyKey)
        parts << (*when.idempotencyKey ? u"s.hasKey"_s : u"!s.hasKey"_s);
    const bool answerOnly = !when.statuses.isEmpty() || when.body || !when.headers.isEmpty();
    if (answerOnly && when.outcome != OutcomeKind::Status)
        parts << u"err == nil"_s;
    if (!when.statuses.isEmpty())
        parts << statusTest(when.statuses);
    if (!when.errors.isEmpty()) {
        QStringList names;
        for (ErrorClass e : when.errors)
            names << errorClassId(e);
        if (when.outcome != OutcomeKind::Error)
            parts << u"err != nil"_s;
        parts << oneOf(u"class"_s, names);
        needs.errorClass = true;
    }
    if (when.serverCouldHaveActed) {
        // An answer proves the server saw the request.
        const QString errorSide = oneOf(u"class"_s, classNames(*when.serverCouldHaveActed));
        if (*when.serverCouldHaveActed)
            parts << u"(err == nil || %1)"_s.arg(errorSide);
        else
            parts << (when.outcome == OutcomeKind::Error ? errorSide : u"err != nil && %1"_s.arg(errorSide));
        needs.errorClass = true;
    }
    if (when.body) {
        needs.body = true;
        parts << (when.body->values.isEmpty() ? u"bodyHas(body, %1)"_s.arg(quoted(when.body->path))
                                              : u"bodyIs(body, %1, %2)"_s.arg(quoted(when.body->path), goStrings(when.body->values)));
    }
    for (const HeaderMatch& h : when.headers) {
        needs.headers = true;
        if (h.absent)
            parts << u"len(resp.Header.Values(%1)) == 0"_s.arg(quoted(h.name));
        else
            parts << u"headerIs(resp.Header, %1%2)"_s.arg(quoted(h.name), h.values.isEmpty() ? QString() : u", "_s + goStrings(h.values));
    }
    if (when.afterLostAnswer) {
        needs.lostAnswer = true;
        parts << (*when.afterLostAnswer ? u"s.lostAnswer"_s : u"!s.lostAnswer"_s);
    }
    return parts.isEmpty() ? u"true"_s : parts.join(u" && "_s);
}

QString verdictName(RuleAction a)
{
    switch (a) {
    case RuleAction::Retry:
        return u"verdictRetry"_s;
    case RuleAction::Stop:
        return u"verdictStop"_s;
    case RuleAction::Success:
        return u"verdictSuccess"_s;
    }
    return u"verdictStop"_s;
}

// Go applying the policy's jitter to X (milliseconds, a float64 variable) with draw rand.Float64().
// How Go writes a delay's arithmetic (gofmt's spacing, math/rand).
const DelaySyntax kGo { .draw = u"rand.Float64()"_s, .compact = true, .doubleLiterals = false };

QString jitterExpr(const Jitter& j, const QString& x)
{
    return jitterExpression(j, x, kGo);
}

QString curveLines(const RetryPolicy& p, GoCurve curve)
{
    const Backoff& b = p.backoff;
    const Jitter& j = p.jitter;
    const QString cap = b.cap ? ms(double(b.cap->count())) : u"maxWaitMs"_s;
    const QString base = ms(double(b.base.count()));
    QString out;
    if (curve == GoCurve::CenkaltiExponential)
        return u"\treturn s.curve.NextBackOff()\n"_s;
    if (curve == GoCurve::RetryablehttpDefault)
        return u"\treturn retryablehttp.DefaultBackoff(%1, %2, s.retries-1, nil)\n"_s.arg(tight(b.base), tight(*b.cap));
    if (b.kind == BackoffKind::Exponential && b.origin == ExponentOrigin::FirstRetryIsZero)
        out += u"\tif s.retries == 1 {\n\t\treturn millis(%1) // the first retry waits nothing\n\t}\n"_s.arg(ms(double(j.floor.count())));
    switch (b.kind) {
    case BackoffKind::None:
        out += u"\tceiling := 0.0\n"_s;
        break;
    case BackoffKind::Constant:
        out += u"\tceiling := float64(%1)\n"_s.arg(base);
        break;
    case BackoffKind::Linear:
        out += u"\tceiling := %1 + float64(s.retries-1)*%2\n"_s.arg(base, ms(double(b.increment.count())));
        break;
    case BackoffKind::Exponential:
        out += u"\tceiling := %1 * math.Pow(%2, float64(s.retries-1%3))\n"_s.arg(base, ms(b.multiplier),
            b.exponentOffset == 0 ? QString() : u"%1%2"_s.arg(b.exponentOffset > 0 ? u"+"_s : QString()).arg(b.exponentOffset));
        break;
    case BackoffKind::Decorrelated:
        out += u"\tprevious := s.previous\n\tif previous <= 0 {\n\t\tprevious = %1\n\t}\n"
               "\thigh := math.Max(%1, math.Min(previous*3, maxWaitMs))\n"
               "\tceiling := math.Min(%2, %1+(high-%1)*rand.Float64()) // AWS decorrelated: U(base, previous·3)\n"
               "\ts.previous = ceiling\n"_s.arg(base, cap);
        break;
    case BackoffKind::DecorrelatedV2:
        out += u"\tnext := v2Curve(float64(s.retries-1) + rand.Float64()) // Polly DecorrelatedJitterBackoffV2\n"
               "\tceiling := math.Min(%2, (next-s.previous)/1.4*%1)\n"
               "\ts.previous = next\n"_s.arg(base, cap);
        break;
    }
    if (j.kind != JitterKind::None)
        out += u"\t// %1, the cap %2 the jitter\n"_s.arg(jitterWords(j), j.capOrder == CapOrder::BeforeJitter ? u"before"_s : u"after"_s);
    if (j.kind == JitterKind::None) {
        out += u"\td := math.Min(ceiling, %1)\n"_s.arg(cap);
    } else if (j.capOrder == CapOrder::BeforeJitter) {
        out += u"\td := math.Min(ceiling, %1)\n\td = %2\n"_s.arg(cap, jitterExpr(j, u"d"_s));
    } else {
        out += u"\td := %1\n\td = math.Min(d, %2)\n"_s.arg(jitterExpr(j, u"ceiling"_s), cap);
    }
    if (j.floor.count() > 0)
        out += u"\treturn millis(math.Max(d, %1))\n"_s.arg(ms(double(j.floor.count())));
    else
        out += u"\treturn millis(d)\n"_s;
    return out;
}

QString hintFormat(const DelayHint& h)
{
    switch (h.format) {
    case HintFormat::RetryAfter:
        return u"hintRetryAfter"_s;
    case HintFormat::Milliseconds:
        return u"hintMilliseconds"_s;
    case HintFormat::Seconds:
        return u"hintSeconds"_s;
    }
    return u"hintRetryAfter"_s;
}

QString hintLines(const RetryPolicy& p, qsizetype i)
{
    const DelayHint& h = p.hints.at(i);
    QString out = u"\t// hints[%1]: %2"_s.arg(i).arg(h.header);
    if (!h.statuses.isEmpty()) {
        QStringList codes;
        for (const StatusRange& r : h.statuses)
            codes << (r.low == r.high ? QString::number(r.low) : u"%1-%2"_s.arg(r.low).arg(r.high));
        out += u" on "_s + codes.join(u", "_s);
    }
    if (h.max)
        out += u", at most %1 ms (%2 above)"_s.arg(h.max->count()).arg(h.overMax == HintOverMax::GiveUp ? u"give up"_s : h.overMax == HintOverMax::Clamp ? u"clamped"_s : u"ignored"_s);
    out += u'\n';
    QString test = u"!hinted && resp != nil"_s;
    if (!h.statuses.isEmpty())
        test += u" && "_s + statusTest(h.statuses).replace(u"status"_s, u"resp.StatusCode"_s);
    out += u"\tif %1 {\n"_s.arg(test);
    QString read = u"headerDelay(resp.Header, %1, %2)"_s.arg(quoted(h.header), hintFormat(h));
    out += u"\t\tasked, present, valid := %1\n"_s.arg(read);
    if (h.alsoRetryAfterMs && h.format == HintFormat::RetryAfter)
        out += u"\t\tif !present {\n\t\t\tasked, present, valid = headerDelay(resp.Header, \"retry-after-ms\", hintMilliseconds)\n\t\t}\n"_s;
    out += u"\t\tswitch {\n\t\tcase !present:\n"_s;
    out += h.invalidMeansStop ? u"\t\tcase !valid:\n\t\t\treturn 0, false // an invalid value means \"don't retry\"\n"_s : u"\t\tcase !valid:\n"_s;
    out += h.negativeMeansStop ? u"\t\tcase asked < 0:\n\t\t\treturn 0, false // a negative value means \"don't retry\"\n"_s : u"\t\tcase asked < 0:\n"_s;
    if (h.zeroFallsBackToBackoff)
        out += u"\t\tcase asked == 0:\n\t\t\thinted = true // 0 falls back to the backoff\n"_s;
    if (h.max && h.overMax == HintOverMax::GiveUp)
        out += u"\t\tcase asked > %1:\n\t\t\treturn 0, false // more than the policy waits: give up\n"_s.arg(tight(*h.max));
    if (h.max && h.overMax == HintOverMax::Ignore)
        out += u"\t\tcase asked > %1:\n\t\t\t// over the limit: ignored\n"_s.arg(tight(*h.max));
    out += u"\t\tdefault:\n\t\t\thinted = true\n"_s;
    if (h.max && h.overMax == HintOverMax::Clamp)
        out += u"\t\t\tif asked > %1 {\n\t\t\t\tasked = %2\n\t\t\t}\n"_s.arg(tight(*h.max), goDuration(*h.max));
    switch (h.combine) {
    case HintCombine::Replace:
        out += u"\t\t\twait = asked\n"_s;
        break;
    case HintCombine::AtLeastBackoff:
        out += u"\t\t\tif asked > wait {\n\t\t\t\twait = asked\n\t\t\t}\n"_s;
        break;
    case HintCombine::ClampAroundBackoff:
        out += u"\t\t\tif asked > wait+%1 {\n\t\t\t\tasked = wait + %2\n\t\t\t}\n\t\t\tif asked > wait {\n\t\t\t\twait = asked\n\t\t\t}\n"_s.arg(tight(h.window), goDuration(h.window));
        break;
    }
    if (h.cappedByBackoffCap && p.backoff.cap)
        out += u"\t\t\tif wait > %1 {\n\t\t\t\twait = %2\n\t\t\t}\n"_s.arg(tight(*p.backoff.cap), goDuration(*p.backoff.cap));
    if (h.jittered && p.jitter.kind != JitterKind::None) {
        out += u"\t\t\tshifted := %1 // the policy's jitter shifts it too\n"_s.arg(jitterExpr(p.jitter, u"float64(wait.Milliseconds())"_s));
        out += p.jitter.floor.count() > 0 ? u"\t\t\twait = millis(math.Max(shifted, %1))\n"_s.arg(ms(double(p.jitter.floor.count())))
                                          : u"\t\t\twait = millis(shifted)\n"_s;
    }
    if (!h.advancesBackoff)
        out += u"\t\t\ts.retries, s.previous = retries, previous // a hinted wait leaves the backoff where it was\n"_s;
    if (h.resetsExponent)
        out += u"\t\t\ts.resetBackoff()\n"_s;
    out += u"\t\t}\n\t}\n"_s;
    return out;
}

} // namespace

QString goDuration(Millis v)
{
    static const DurationSpelling spelling { u"0"_s, u"%1 * time.Hour"_s, u"%1 * time.Minute"_s, u"%1 * time.Second"_s,
        u"%1 * time.Millisecond"_s };
    return durationLiteral(v, spelling);
}

bool cenkaltiCurveIsExact(const RetryPolicy& p)
{
    const bool jitterOk = p.jitter.kind == JitterKind::None
        || (p.jitter.kind == JitterKind::Proportional && p.jitter.capOrder == CapOrder::BeforeJitter && p.jitter.factor <= 1);
    const bool hintsOk = std::all_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return h.advancesBackoff; });
    return p.backoff.kind == BackoffKind::Exponential && p.backoff.origin == ExponentOrigin::FirstRetryIsBase
        && p.backoff.exponentOffset == 0 && p.backoff.multiplier >= 1 && p.backoff.base.count() > 0 && jitterOk
        && p.jitter.floor.count() == 0 && hintsOk;
}

bool retryablehttpCurveIsExact(const RetryPolicy& p)
{
    return p.backoff.kind == BackoffKind::Exponential && p.backoff.origin == ExponentOrigin::FirstRetryIsBase
        && p.backoff.exponentOffset == 0 && p.backoff.multiplier == 2.0 && p.backoff.cap && p.jitter.kind == JitterKind::None
        && p.jitter.floor.count() == 0 && std::all_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return h.advancesBackoff; });
}

void writeGoState(const RetryPolicy& p, GoCurve curve, GoUnit& unit, LossList& lost)
{
    Needs needs;
    QString rules;
    for (qsizetype i = 0; i < p.rules.size(); ++i) {
        const RetryRule& r = p.rules.at(i);
        const QString c = condition(r.when, needs);
        if (c.isEmpty()) {
            lost.add(u"rules[%1]"_s.arg(i), u"rule \"%1\" looks at calls a circuit breaker refused; this code has no breaker"_s.arg(r.name));
            continue;
        }
        rules += u"\tif %1 {\n\t\treturn %2 // %3\n\t}\n"_s.arg(c, verdictName(r.action), r.name.isEmpty() ? u"rules[%1]"_s.arg(i) : r.name);
    }
    const bool ownCurve = curve == GoCurve::Own;
    const bool decorrelated = ownCurve && (p.backoff.kind == BackoffKind::Decorrelated || p.backoff.kind == BackoffKind::DecorrelatedV2);
    const bool keepPrevious = std::any_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return !h.advancesBackoff; });
    const bool usesRand = ownCurve && (p.jitter.kind != JitterKind::None || decorrelated);
    const bool hintJitter = std::any_of(p.hints.cbegin(), p.hints.cend(), [&](const DelayHint& h) { return h.jittered; }) && p.jitter.kind != JitterKind::None;
    unit.imports << u"net/http"_s << u"time"_s;
    if (ownCurve || hintJitter)
        unit.imports << u"math"_s;
    if (usesRand || hintJitter)
        unit.imports << u"math/rand"_s;

    QString b;
    b += u"// IdempotencyKeyHeader is the request header the policy's idempotency keys travel in.\n"
         "const IdempotencyKeyHeader = %1\n\n"_s.arg(quoted(p.idempotency.header));
    QList<std::pair<QString, QString>> fields { { u"method"_s, u"string"_s }, { u"hasKey"_s, u"bool"_s } };
    if (needs.lostAnswer)
        fields.append({ u"lostAnswer"_s, u"bool"_s });
    if (p.limits.deadline)
        fields.append({ u"start"_s, u"time.Time"_s });
    fields.append({ u"retries"_s, u"int"_s });
    if (decorrelated || keepPrevious)
        fields.append({ u"previous"_s, u"float64"_s });
    if (curve == GoCurve::CenkaltiExponential)
        fields.append({ u"curve"_s, u"*backoff.ExponentialBackOff"_s });
    qsizetype width = 0;
    for (const auto& f : std::as_const(fields))
        width = std::max(width, f.first.size());
    b += u"// retryState follows one logical request through its attempts: its method and key, whether an\n"
         "// earlier attempt lost its answer after sending, and where the backoff is (retries: the next retry's\n"
         "// number; previous: the decorrelated backoff's last value).\ntype retryState struct {\n"_s;
    for (const auto& f : std::as_const(fields))
        b += u"\t%1 %2\n"_s.arg(f.first.leftJustified(width), f.second);
    b += u"}\n\ntype verdict int\n\nconst (\n\tverdictStop verdict = iota\n\tverdictRetry\n\tverdictSuccess\n)\n\n"_s;
    b += u"// judge is what the policy's rules say about one attempt's answer or error: the first that matches\n"
         "// decides; with none, 1xx–3xx are a success and everything else is final.\n"
         "func (s *retryState) judge(resp *http.Response, err error) verdict {\n"_s;
    if (needs.errorClass || needs.lostAnswer)
        b += u"\tclass := \"\"\n\tif err != nil {\n\t\tclass = errorClass(err)\n\t}\n"_s;
    if (needs.lostAnswer) {
        b += u"\tv := s.match(resp, err, class)\n\tif err != nil && %1 {\n\t\ts.lostAnswer = true\n\t}\n\treturn v\n}\n\n"_s.arg(oneOf(u"class"_s, classNames(true)));
        b += u"func (s *retryState) match(resp *http.Response, err error, class string) verdict {\n"_s;
    }
    b += u"\tstatus := 0\n\tif err == nil {\n\t\tstatus = resp.StatusCode\n\t}\n"_s;
    if (needs.body) {
        unit.imports << u"bytes"_s << u"io"_s;
        b += u"\tvar body []byte\n\tif err == nil {\n\t\tbody, _ = io.ReadAll(resp.Body)\n\t\tresp.Body.Close()\n"
             "\t\tresp.Body = io.NopCloser(bytes.NewReader(body))\n\t}\n"_s;
    }
    b += rules;
    b += u"\tif err == nil && status < 400 {\n\t\treturn verdictSuccess\n\t}\n\treturn verdictStop\n}\n\n"_s;

    // The wait.
    b += u"// wait is how long to wait before the next attempt, from the backoff and the server's hints; false\n"
         "// when the policy gives up instead.\nfunc (s *retryState) wait(resp *http.Response) (time.Duration, bool) {\n"_s;
    if (keepPrevious)
        b += u"\tretries, previous := s.retries, s.previous\n"_s;
    b += u"\twait := s.backoff()\n"_s;
    if (!p.hints.isEmpty()) {
        b += u"\thinted := false\n"_s;
        for (qsizetype i = 0; i < p.hints.size(); ++i)
            b += hintLines(p, i);
        b += u"\t_ = hinted\n"_s;
    }
    if (p.limits.deadline) {
        if (p.limits.deadlineMode == DeadlineMode::StopBeforeWait)
            b += u"\tif time.Since(s.start)+wait > %1 {\n\t\treturn 0, false // the wait would pass the deadline\n\t}\n"_s.arg(tight(*p.limits.deadline));
        else
            b += u"\tif time.Since(s.start) >= %1 {\n\t\treturn 0, false // the deadline has passed\n\t}\n"_s.arg(tight(*p.limits.deadline));
    }
    b += u"\treturn wait, true\n}\n\n"_s;

    b += u"// backoff is the policy's wait before the next retry, before any server hint.\n"
         "func (s *retryState) backoff() time.Duration {\n\ts.retries++\n"_s;
    b += curveLines(p, curve);
    b += u"}\n\n"_s;
    if (std::any_of(p.hints.cbegin(), p.hints.cend(), [](const DelayHint& h) { return h.resetsExponent; })) {
        b += u"// resetBackoff starts the backoff again from its first wait.\nfunc (s *retryState) resetBackoff() {\n\ts.retries = 0\n"_s;
        if (decorrelated || keepPrevious)
            b += u"\ts.previous = 0\n"_s;
        if (curve == GoCurve::CenkaltiExponential)
            b += u"\ts.curve.Reset()\n"_s;
        b += u"}\n\n"_s;
    }

    // Helpers, only those used.
    if (ownCurve || hintJitter)
        b += u"const maxWaitMs = %1\n\n// millis is MS whole milliseconds, rounded down.\nfunc millis(ms float64) time.Duration {\n"
             "\treturn time.Duration(math.Floor(math.Min(math.Max(ms, 0), maxWaitMs)+1e-3)) * time.Millisecond\n}\n\n"_s.arg(kMaxBackoffDelay.count());
    if (ownCurve && p.backoff.kind == BackoffKind::DecorrelatedV2)
        b += u"func v2Curve(t float64) float64 {\n\tif t <= 0 {\n\t\treturn 0\n\t}\n\treturn math.Pow(2, t) * math.Tanh(math.Sqrt(4*t))\n}\n\n"_s;
    if (!p.hints.isEmpty()) {
        unit.imports << u"strconv"_s << u"strings"_s;
        b += u"const (\n\thintRetryAfter = iota // delta-seconds or an HTTP-date\n\thintMilliseconds\n\thintSeconds\n)\n\n"
             "// headerDelay reads a server's asked delay from header NAME.\n"
             "func headerDelay(h http.Header, name string, format int) (asked time.Duration, present, valid bool) {\n"
             "\tvalue := strings.TrimSpace(h.Get(name))\n\tif value == \"\" {\n\t\treturn 0, false, false\n\t}\n"
             "\tif format == hintMilliseconds {\n\t\tn, err := strconv.ParseFloat(value, 64)\n"
             "\t\treturn time.Duration(n * float64(time.Millisecond)), true, err == nil\n\t}\n"
             "\tif n, err := strconv.ParseInt(value, 10, 64); err == nil {\n\t\treturn time.Duration(n) * time.Second, true, true\n\t}\n"
             "\tif format == hintRetryAfter {\n\t\tif at, err := http.ParseTime(value); err == nil {\n"
             "\t\t\tif d := time.Until(at).Truncate(time.Millisecond); d > 0 {\n\t\t\t\treturn d, true, true\n\t\t\t}\n"
             "\t\t\treturn 0, true, true\n\t\t}\n\t}\n\treturn 0, true, false\n}\n\n"_s;
    }
    if (needs.errorClass || needs.lostAnswer) {
        unit.imports << u"errors"_s << u"io"_s << u"net"_s << u"os"_s << u"strings"_s << u"syscall"_s;
        b += u"// errorClass names how an attempt failed, as the policy's rules do.\nfunc errorClass(err error) string {\n"
             "\tvar dnsErr *net.DNSError\n\tvar opErr *net.OpError\n\tswitch {\n"
             "\tcase errors.As(err, &dnsErr):\n\t\treturn \"dns\"\n"
             "\tcase errors.Is(err, syscall.ECONNREFUSED):\n\t\treturn \"refused\"\n"
             "\tcase strings.Contains(err.Error(), \"tls: \") || strings.Contains(err.Error(), \"x509: \"):\n\t\treturn \"tls\"\n"
             "\tcase errors.As(err, &opErr) && opErr.Op == \"dial\" && opErr.Timeout():\n\t\treturn \"connect-timeout\"\n"
             "\tcase os.IsTimeout(err):\n\t\treturn \"response-timeout\"\n"
             "\tcase errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),\n"
             "\t\terrors.Is(err, syscall.EPIPE):\n\t\treturn \"connection-lost\"\n\t}\n\treturn \"protocol\"\n}\n\n"_s;
    }
    if (needs.headers) {
        unit.imports << u"strings"_s;
        b += u"// headerIs tells whether header NAME is present with one of VALUES (any value when none).\n"
             "func headerIs(h http.Header, name string, values ...string) bool {\n\tfor _, got := range h.Values(name) {\n"
             "\t\tif len(values) == 0 {\n\t\t\treturn true\n\t\t}\n\t\tfor _, v := range values {\n"
             "\t\t\tif strings.EqualFold(strings.TrimSpace(got), v) {\n\t\t\t\treturn true\n\t\t\t}\n\t\t}\n\t}\n\treturn false\n}\n\n"_s;
    }
    if (needs.body) {
        unit.imports << u"encoding/json"_s << u"strconv"_s << u"strings"_s;
        b += u"// bodyField is the value at PATH (\"error.code\", \"errors[0].code\") of a JSON body, as text.\n"
             "func bodyField(body []byte, path string) (string, bool) {\n\tvar v interface{}\n"
             "\tif json.Unmarshal(body, &v) != nil {\n\t\treturn \"\", false\n\t}\n"
             "\tfor _, step := range strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '[' }) {\n"
             "\t\tif strings.HasSuffix(step, \"]\") {\n"
             "\t\t\tarray, ok := v.([]interface{})\n\t\t\tn, err := strconv.Atoi(strings.TrimSuffix(step, \"]\"))\n"
             "\t\t\tif !ok || err != nil || n < 0 || n >= len(array) {\n\t\t\t\treturn \"\", false\n\t\t\t}\n\t\t\tv = array[n]\n\t\t\tcontinue\n\t\t}\n"
             "\t\tobject, ok := v.(map[string]interface{})\n\t\tif !ok {\n\t\t\treturn \"\", false\n\t\t}\n"
             "\t\tif v, ok = object[step]; !ok {\n\t\t\treturn \"\", false\n\t\t}\n\t}\n"
             "\tswitch x := v.(type) {\n\tcase string:\n\t\treturn x, true\n\tcase float64:\n\t\treturn strconv.FormatFloat(x, 'g', 17, 64), true\n"
             "\tcase bool:\n\t\treturn strconv.FormatBool(x), true\n\tcase nil:\n\t\treturn \"null\", true\n\t}\n\treturn \"\", false\n}\n\n"
             "func bodyHas(body []byte, path string) bool {\n\t_, ok := bodyField(body, path)\n\treturn ok\n}\n\n"
             "func bodyIs(body []byte, path string, values ...string) bool {\n\tgot, ok := bodyField(body, path)\n"
             "\tfor _, v := range values {\n\t\tif ok && got == v {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n\n"_s;
    }
    unit.body += b;
}

QString goStateSetup(const RetryPolicy& p, const QString& headers, GoUnit& unit)
{
    QString out;
    const IdempotencyPolicy& k = p.idempotency;
    if (k.autoAdd) {
        unit.imports << u"crypto/rand"_s << u"fmt"_s;
        out += u"\t// One key per logical call, made before the first attempt and sent on every retry.\n"
               "\tif %1 && %2.Get(IdempotencyKeyHeader) == \"\" {\n"
               "\t\t%2.Set(IdempotencyKeyHeader, newIdempotencyKey())\n\t}\n"_s.arg(oneOf(u"method"_s, k.methods), headers);
        QString value = k.prefix.isEmpty() ? u"id"_s : u"%1 + id"_s.arg(quoted(k.prefix));
        if (k.format == KeyFormat::Quoted)
            value = u"`\"` + %1 + `\"`"_s.arg(value); // sf-string
        unit.body += u"// newIdempotencyKey is a random (version 4) UUID%1.\nfunc newIdempotencyKey() string {\n"
                     "\tvar b [16]byte\n\tif _, err := cryptorand.Read(b[:]); err != nil {\n\t\tpanic(err)\n\t}\n"
                     "\tb[6] = b[6]&0x0f | 0x40\n\tb[8] = b[8]&0x3f | 0x80\n"
                     "\tid := fmt.Sprintf(\"%x-%x-%x-%x-%x\", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])\n\treturn %2\n}\n\n"_s
                         .arg(k.format == KeyFormat::Quoted ? u", as an sf-string (in double quotes)"_s : QString(), value);
    }
    out += u"\ts := &retryState{method: method, hasKey: %1.Get(IdempotencyKeyHeader) != \"\""_s.arg(headers);
    if (p.limits.deadline)
        out += u", start: time.Now()"_s;
    out += u"}\n"_s;
    return out;
}

QString goFile(const QString& header, const GoUnit& unit)
{
    QStringList std, other;
    for (const QString& i : unit.imports)
        (i.contains(u'.') ? other : std) << i;
    std.sort();
    other.sort();
    QString out = header + u"\n// Package main: rename it to your package.\npackage main\n\nimport (\n"_s;
    for (const QString& i : std::as_const(std))
        out += i == u"crypto/rand"_s ? u"\tcryptorand \"crypto/rand\"\n"_s : u"\t\"%1\"\n"_s.arg(i);
    if (!other.isEmpty()) {
        out += u'\n';
        for (const QString& i : std::as_const(other))
            out += u"\t\"%1\"\n"_s.arg(i);
    }
    out += u")\n\n"_s + unit.body;
    while (out.endsWith(u"\n\n"_s))
        out.chop(1);
    return out;
}
