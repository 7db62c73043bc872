// SPDX-License-Identifier: GPL-3.0-or-later
// Microsoft.Extensions.Http.Resilience 9 (retry-systems.md §1b, resilience-fleets.md §1.2): the standard resilience
// handler when the policy's pipeline is its shape (limiter, total timeout, retry, breaker, attempt timeout), the
// standard hedging handler when it is that one's (total timeout, hedging, then per endpoint limiter, breaker,
// timeout), else AddResilienceHandler with the policy's own strategies; and the standard handler's options as an
// appsettings.json section. Option names from dotnet/extensions 5862342c: HttpStandardResilienceOptions.cs,
// HttpStandardHedgingResilienceOptions.cs, HedgingEndpointOptions.cs, HttpRetryStrategyOptions.cs,
// HttpRetryStrategyOptionsExtensions.cs (DisableForUnsafeHttpMethods, since 9.1).
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/dotnetcode.h"
#include "codegen/targets/dotnettargets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {

using Kind = ResilienceStrategy::Kind;

enum class MehrForm { Standard, Hedging, Custom };

bool isLimiter(Kind k)
{
    return k == Kind::RateLimiter || k == Kind::Bulkhead;
}

MehrForm formOf(const RetryPolicy& p)
{
    QList<Kind> kinds;
    for (const ResilienceStrategy& s : p.pipeline)
        kinds << (isLimiter(s.kind) ? Kind::RateLimiter : s.kind);
    if (kinds == QList<Kind> { Kind::RateLimiter, Kind::TotalTimeout, Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout } && p.limits.maxAttempts > 1)
        return MehrForm::Standard;
    if (kinds == QList<Kind> { Kind::TotalTimeout, Kind::Hedging, Kind::RateLimiter, Kind::CircuitBreaker, Kind::AttemptTimeout })
        return MehrForm::Hedging;
    return MehrForm::Custom;
}

const ResilienceStrategy& at(const RetryPolicy& p, qsizetype i)
{
    return p.pipeline.at(i);
}

TargetAbilities mehrAbilities()
{
    TargetAbilities can;
    can.deadline = can.attemptTimeout = can.circuitBreaker = can.timeouts = can.hedging = true;
    return can;
}

RetryPolicy withoutLimiters(RetryPolicy p)
{
    p.pipeline.removeIf([](const ResilienceStrategy& s) { return isLimiter(s.kind); });
    return p;
}

QString limiterStatements(const QString& prefix, const ResilienceStrategy& s, const QString& path, const QString& indent)
{
    return indent + u"%1.DefaultRateLimiterOptions.PermitLimit = %2; // %3: calls at once\n"_s.arg(prefix).arg(s.permits).arg(path)
        + indent + u"%1.DefaultRateLimiterOptions.QueueLimit = %2; // then waiting for one\n"_s.arg(prefix).arg(s.queue);
}

// The custom form's builder calls, the last one ending the statement.
QString customCalls(const RetryPolicy& p, const PipelineShape& shape, const CsRetryPlan& plan, LossList& lost, CsUnit& unit)
{
    RetryPolicy written = p;
    for (qsizetype i = 0; i < written.pipeline.size(); ++i)
        if (written.pipeline.at(i).kind == Kind::Hedging)
            lost.add(u"pipeline[%1]"_s.arg(i), u"hedging in a resilience handler of one's own: only AddStandardHedgingHandler copies the request for each hedge (written without it)"_s);
    written.pipeline.removeIf([](const ResilienceStrategy& s) { return s.kind == Kind::Hedging; });
    QString calls = csPipelineCalls(written, shape, plan, CsFlavour::Mehr, u"                "_s, lost, unit);
    QStringList lines = calls.split(u'\n', Qt::SkipEmptyParts);
    // The statement ends after the last call, before its comment.
    for (qsizetype i = lines.size() - 1; i >= 0; --i) {
        if (lines.at(i).trimmed().startsWith(u"//"_s))
            continue;
        const qsizetype comment = lines.at(i).indexOf(u" // "_s);
        if (comment >= 0)
            lines[i].insert(comment, u';');
        else
            lines[i] += u';';
        break;
    }
    return lines.join(u'\n') + u'\n';
}

CodeExport mehrUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    loseUnsupported(withoutLimiters(p), mehrAbilities(), u"Microsoft.Extensions.Http.Resilience"_s, lost);
    const MehrForm form = formOf(p);
    const PipelineShape shape = readPipeline(p);
    CsUnit unit;
    unit.usings << u"Microsoft.Extensions.DependencyInjection"_s << u"Microsoft.Extensions.Http.Resilience"_s << u"System"_s << u"System.Net.Http"_s;
    CsRetryPlan plan = planCsRetry(p, shape, CsFlavour::Mehr, lost);
    if (form != MehrForm::Standard && plan.disableUnsafe) {
        // DisableForUnsafeHttpMethods is a statement; the other forms write the rules as ShouldHandle.
        plan.disableUnsafe = false;
        plan.ownPredicate = plan.state = true;
    }
    if (plan.disableUnsafe)
        unit.experimental = true;

    const QString in = u"        "_s;
    QString configure;
    bool byAuthority = false;
    if (form == MehrForm::Standard) {
        QString s;
        s += limiterStatements(u"o.RateLimiter"_s, at(p, 0), u"pipeline[0]"_s, in + u"    "_s);
        s += in + u"    o.TotalRequestTimeout.Timeout = %1; // pipeline[1]: the whole request\n"_s.arg(csDuration(at(p, 1).timeout));
        s += csStatements(u"o.Retry"_s, csRetryOptions(shape, plan, CsFlavour::Mehr, unit), in + u"    "_s);
        if (plan.disableUnsafe)
            s += in + u"    o.Retry.DisableForUnsafeHttpMethods(); // POST, PUT, PATCH, DELETE and CONNECT are not retried\n"_s;
        s += csStatements(u"o.CircuitBreaker"_s, csBreakerOptions(at(p, 3), u"pipeline[3]"_s, plan, CsFlavour::Mehr, lost, unit), in + u"    "_s);
        s += in + u"    o.AttemptTimeout.Timeout = %1; // pipeline[4]: each attempt\n"_s.arg(csDuration(at(p, 4).timeout));
        byAuthority = at(p, 3).breaker.scope == CircuitBreakerOptions::Scope::Host;
        configure = in + u"client.AddStandardResilienceHandler(o =>\n"_s + in + u"{\n"_s + s + in + u"})"_s
            + (byAuthority ? u"\n"_s + in + u"    .SelectPipelineByAuthority(); // one pipeline, so one breaker, per host\n"_s : u";\n"_s);
        if (byAuthority)
            lost.add(u"pipeline[0]"_s, u"one concurrency limit for the client: the pipeline per host (for the breaker's scope) limits each host apart"_s);
    } else if (form == MehrForm::Hedging) {
        QString s;
        s += in + u"    o.TotalRequestTimeout.Timeout = %1; // pipeline[0]: the whole request\n"_s.arg(csDuration(at(p, 0).timeout));
        s += csStatements(u"o.Hedging"_s, csHedgingOptions(at(p, 1), u"pipeline[1]"_s, plan, CsFlavour::Mehr, lost, unit), in + u"    "_s);
        s += in + u"    // Per endpoint (scheme, host and port): its limiter, breaker and attempt timeout.\n"_s;
        s += limiterStatements(u"o.Endpoint.RateLimiter"_s, at(p, 2), u"pipeline[2]"_s, in + u"    "_s);
        s += csStatements(u"o.Endpoint.CircuitBreaker"_s, csBreakerOptions(at(p, 3), u"pipeline[3]"_s, plan, CsFlavour::Mehr, lost, unit), in + u"    "_s);
        s += in + u"    o.Endpoint.Timeout.Timeout = %1; // pipeline[4]: each attempt\n"_s.arg(csDuration(at(p, 4).timeout));
        if (at(p, 3).breaker.scope != CircuitBreakerOptions::Scope::Host)
            lost.add(u"pipeline[3].scope"_s, u"one breaker for the client: the standard hedging handler keeps one per endpoint (authority)"_s);
        configure = in + u"client.AddStandardHedgingHandler().Configure(o =>\n"_s + in + u"{\n"_s + s + in + u"});\n"_s;
        // The handler snapshots the request and hedges every method.
        if (!at(p, 1).hedgeUnsafe)
            lost.add(u"pipeline[1].hedge_unsafe"_s, u"hedging only requests with an idempotency key: the standard hedging handler hedges every request"_s);
    } else {
        unit.usings << u"Polly"_s;
        configure = in + u"client.AddResilienceHandler(ClientName, builder =>\n"_s + in + u"{\n"_s + in + u"    builder\n"_s;
        configure += customCalls(p, shape, plan, lost, unit);
        const ResilienceStrategy* breaker = shape.breaker();
        byAuthority = breaker && breaker->breaker.scope == CircuitBreakerOptions::Scope::Host;
        configure += in + u"})"_s + (byAuthority ? u"\n"_s + in + u"    .SelectPipelineByAuthority(); // one pipeline, so one breaker, per host\n"_s : u";\n"_s);
    }
    writeCsState(shape, plan, CsFlavour::Mehr, unit);

    const QString cls = pascalName(p.name) + u"Policy"_s;
    QString c = u"/// <summary>\n/// The \"%1\" retry policy on a named HttpClient with Microsoft.Extensions.Http.Resilience: register it with\n"
                "/// <see cref=\"Add%2HttpClient\"/> and resolve it with IHttpClientFactory.CreateClient(ClientName).\n"
                "/// </summary>\npublic static class %3\n{\n"_s.arg(p.name, pascalName(p.name), cls);
    c += u"    /// <summary>The name of the HttpClient it configures.</summary>\n    public const string ClientName = %1;\n\n"_s.arg(quoted(p.name));
    if (plan.state || p.idempotency.autoAdd)
        c += u"    /// <summary>The request header the policy's idempotency keys travel in.</summary>\n"
             "    public const string IdempotencyKeyHeader = %1;\n\n"_s.arg(quoted(p.idempotency.header));
    c += u"    /// <summary>Registers the HttpClient named <see cref=\"ClientName\"/> with the policy's resilience handler.</summary>\n"
         "    public static IHttpClientBuilder Add%1HttpClient(this IServiceCollection services)\n    {\n"
         "        var client = services.AddHttpClient(ClientName);\n"_s.arg(pascalName(p.name));
    if (p.idempotency.autoAdd) {
        unit.usings << u"System.Threading"_s << u"System.Threading.Tasks"_s;
        c += u"        client.AddHttpMessageHandler(() => new IdempotencyKeyHandler()); // outside the resilience handler: one key per request\n"_s;
    }
    c += configure + u"        return client;\n    }\n\n"_s;
    c += csKeyHelpers(p, CsFlavour::Mehr);
    c += unit.members;
    while (c.endsWith(u"\n\n"_s))
        c.chop(1);
    c += u"}\n"_s;
    CodeExport e;
    e.lost = lost.items();
    e.code = csFile(headerComment(CommentStyle { u"// "_s }, p, u"Http.Resilience"_s, version, e.lost), unit, c);
    return e;
}

// ---- appsettings.json ------------------------------------------------------------------------------------

// A TimeSpan as configuration binding reads it: "00:00:30", "00:00:00.2", "1.00:00:00", "-00:00:00.001".
QString timeSpanText(Millis value)
{
    qint64 n = value.count();
    const QString sign = n < 0 ? u"-"_s : QString();
    n = std::abs(n);
    const qint64 days = n / 86'400'000;
    const qint64 h = n / 3'600'000 % 24;
    const qint64 m = n / 60'000 % 60;
    const qint64 s = n / 1000 % 60;
    const qint64 f = n % 1000;
    QString out = sign + (days ? u"%1."_s.arg(days) : QString())
        + u"%1:%2:%3"_s.arg(h, 2, 10, QChar(u'0')).arg(m, 2, 10, QChar(u'0')).arg(s, 2, 10, QChar(u'0'));
    if (f) {
        QString frac = u"%1"_s.arg(f, 3, 10, QChar(u'0'));
        while (frac.endsWith(u'0'))
            frac.chop(1);
        out += u'.' + frac;
    }
    return out;
}

QString backoffTypeName(BackoffKind k)
{
    switch (k) {
    case BackoffKind::None:
    case BackoffKind::Constant:
        return u"Constant"_s;
    case BackoffKind::Linear:
        return u"Linear"_s;
    default:
        return u"Exponential"_s;
    }
}

QJsonObject breakerJson(const ResilienceStrategy& s)
{
    const CircuitBreakerOptions& b = s.breaker;
    return QJsonObject { { u"FailureRatio"_s, b.failureRatio }, { u"MinimumThroughput"_s, std::max(2, b.minimumCalls) },
        { u"SamplingDuration"_s, timeSpanText(b.samplingDuration) }, { u"BreakDuration"_s, timeSpanText(b.breakDuration) } };
}

QJsonObject limiterJson(int permits, int queue)
{
    return QJsonObject { { u"DefaultRateLimiterOptions"_s, QJsonObject { { u"PermitLimit"_s, permits }, { u"QueueLimit"_s, queue } } } };
}

// VALUE as JSON, objects' members in the options' own order (QJsonObject sorts them), nested by two spaces.
QString jsonText(const QJsonValue& value, const QString& indent)
{
    static const QStringList order { u"RateLimiter"_s, u"DefaultRateLimiterOptions"_s, u"PermitLimit"_s, u"QueueLimit"_s,
        u"TotalRequestTimeout"_s, u"Timeout"_s, u"Retry"_s, u"MaxRetryAttempts"_s, u"BackoffType"_s, u"UseJitter"_s, u"Delay"_s,
        u"MaxDelay"_s, u"ShouldRetryAfterHeader"_s, u"Hedging"_s, u"MaxHedgedAttempts"_s, u"Endpoint"_s, u"CircuitBreaker"_s,
        u"FailureRatio"_s, u"MinimumThroughput"_s, u"SamplingDuration"_s, u"BreakDuration"_s, u"AttemptTimeout"_s };
    if (!value.isObject())
        return QString::fromUtf8(QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact)).chopped(1).mid(1);
    const QJsonObject o = value.toObject();
    QStringList keys = o.keys();
    std::stable_sort(keys.begin(), keys.end(), [](const QString& a, const QString& b) {
        const qsizetype ia = order.indexOf(a), ib = order.indexOf(b);
        return (ia < 0 ? order.size() : ia) < (ib < 0 ? order.size() : ib);
    });
    QStringList members;
    for (const QString& k : std::as_const(keys))
        members << indent + u"  "_s + quoted(k) + u": "_s + jsonText(o.value(k), indent + u"  "_s);
    return u"{\n"_s + members.join(u",\n"_s) + u'\n' + indent + u'}';
}

CodeExport mehrJsonUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    loseUnsupported(withoutLimiters(p), mehrAbilities(), u"Microsoft.Extensions.Http.Resilience"_s, lost);
    const MehrForm form = formOf(p);
    const PipelineShape shape = readPipeline(p);
    const RetryPolicy& q = shape.policy;
    const CsRetryPlan plan = planCsRetry(p, shape, CsFlavour::Mehr, lost);
    QStringList notes;
    QJsonObject options;
    const auto retryJson = [&]() {
        QJsonObject r;
        r.insert(u"MaxRetryAttempts"_s, std::max(1, q.maxRetries()));
        if (q.maxRetries() < 1)
            lost.add(u"limits.max_attempts"_s, u"a single attempt: the standard handler's retry makes at least one retry (written as 1)"_s);
        const Backoff& b = q.backoff;
        const bool jitter = b.kind == BackoffKind::DecorrelatedV2 || q.jitter.kind != JitterKind::None;
        r.insert(u"BackoffType"_s, backoffTypeName(b.kind));
        r.insert(u"UseJitter"_s, jitter);
        r.insert(u"Delay"_s, timeSpanText(b.kind == BackoffKind::None ? Millis(0) : b.base));
        if (b.cap && b.kind != BackoffKind::None)
            r.insert(u"MaxDelay"_s, timeSpanText(*b.cap));
        if (!plan.native)
            lost.add(u"backoff"_s, u"this backoff and jitter: they need a DelayGenerator in code (written as Polly's nearest: %1%2 from %3 ms)"_s.arg(
                                      backoffTypeName(b.kind), jitter ? u" with jitter"_s : QString()).arg(b.base.count()));
        if (!plan.native && q.limits.deadline && q.limits.deadlineMode == DeadlineMode::StopBeforeWait)
            lost.add(u"limits.deadline_mode"_s, u"not starting a wait that would end past the %1 ms deadline: the total timeout lets the retry wait and cancels it at the deadline"_s.arg(q.limits.deadline->count()));
        r.insert(u"ShouldRetryAfterHeader"_s, plan.retryAfterHeader);
        if (!plan.retryAfterHeader)
            for (qsizetype i = 0; i < q.hints.size(); ++i)
                lost.add(u"hints[%1]"_s.arg(i), u"%1 from the server read this way: only Retry-After as it is (ShouldRetryAfterHeader) can be configured; anything else needs a DelayGenerator in code"_s.arg(q.hints.at(i).header));
        if (plan.ownPredicate) {
            // Is it the rules, or only the wait they choose? Plan the rules alone, on a curve the options draw.
            RetryPolicy probe = p;
            probe.hints.clear();
            probe.limits.deadline.reset();
            probe.backoff = Backoff {};
            probe.backoff.kind = BackoffKind::Exponential;
            probe.backoff.base = Millis(2000);
            probe.backoff.multiplier = 2.0;
            probe.jitter = Jitter {};
            LossList ignored;
            const CsRetryPlan rulesOnly = planCsRetry(probe, readPipeline(probe), CsFlavour::Mehr, ignored);
            if (rulesOnly.ownPredicate || rulesOnly.disableUnsafe)
                lost.add(u"rules"_s, u"what is retried: the JSON keeps the handler's own test (status ≥ 500, 408, 429, transport errors and timeouts, every method); the policy's rules need ShouldHandle in code"_s);
        }
        return r;
    };
    const QString section = pascalName(p.name);
    QString bind;
    if (form == MehrForm::Hedging) {
        options.insert(u"TotalRequestTimeout"_s, QJsonObject { { u"Timeout"_s, timeSpanText(at(p, 0).timeout) } });
        const HedgingOptions& h = at(p, 1).hedging;
        options.insert(u"Hedging"_s, QJsonObject { { u"MaxHedgedAttempts"_s, std::clamp(h.maxHedges, 1, 10) }, { u"Delay"_s, timeSpanText(h.delay) } });
        QJsonObject endpoint;
        endpoint.insert(u"RateLimiter"_s, limiterJson(at(p, 2).permits, at(p, 2).queue));
        endpoint.insert(u"CircuitBreaker"_s, breakerJson(at(p, 3)));
        endpoint.insert(u"Timeout"_s, QJsonObject { { u"Timeout"_s, timeSpanText(at(p, 4).timeout) } });
        options.insert(u"Endpoint"_s, endpoint);
        CsUnit unused;
        csBreakerOptions(at(p, 3), u"pipeline[3]"_s, plan, CsFlavour::Mehr, lost, unused);
        csHedgingOptions(at(p, 1), u"pipeline[1]"_s, plan, CsFlavour::Mehr, lost, unused);
        if (plan.hedgingPredicate)
            lost.add(u"pipeline[1].failures"_s, u"what sends the next copy: the JSON keeps the handler's own test (status ≥ 500, 408, 429, transport errors, timeouts, an open breaker)"_s);
        if (plan.breakerPredicate)
            lost.add(u"pipeline[3].failures"_s, u"what the breaker counts: the JSON keeps the handler's own test (status ≥ 500, 408, 429, transport errors, timeouts)"_s);
        if (at(p, 3).breaker.scope != CircuitBreakerOptions::Scope::Host)
            lost.add(u"pipeline[3].scope"_s, u"one breaker for the client: the standard hedging handler keeps one per endpoint (authority)"_s);
        if (!at(p, 1).hedgeUnsafe)
            lost.add(u"pipeline[1].hedge_unsafe"_s, u"hedging only requests with an idempotency key: the standard hedging handler hedges every request"_s);
        bind = u"services.AddHttpClient(%1).AddStandardHedgingHandler().Configure(configuration.GetSection(%2));"_s.arg(quoted(p.name), quoted(section));
    } else {
        // The standard handler always has all five strategies: those the policy lacks are set so they never act.
        const Millis day { 86'400'000 };
        const std::optional<Millis> deadline = q.limits.deadline;
        const Millis total = deadline.value_or(day);
        if (!deadline)
            lost.add(u"limits.deadline_ms"_s, u"no overall deadline: the standard handler always has one (written as its longest, 1 day)"_s);
        Millis attempt = q.limits.attemptTimeout.value_or(std::min(total, Millis(43'200'000)));
        if (!q.limits.attemptTimeout)
            lost.add(u"limits.attempt_timeout_ms"_s, u"no timeout per attempt: the standard handler always has one (written as %1)"_s.arg(timeSpanText(attempt)));
        qsizetype limiterIndex = -1, breakerIndex = -1, retryIndex = -1;
        for (qsizetype i = 0; i < p.pipeline.size(); ++i) {
            const Kind k = p.pipeline.at(i).kind;
            if (isLimiter(k))
                limiterIndex = i;
            else if (k == Kind::CircuitBreaker)
                breakerIndex = i;
            else if (k == Kind::Retry)
                retryIndex = i;
            else if (k == Kind::Hedging)
                lost.add(u"pipeline[%1]"_s.arg(i), u"hedging: the standard resilience handler does not hedge (the standard hedging handler's section has another shape)"_s);
        }
        if (form == MehrForm::Custom && !p.pipeline.isEmpty())
            lost.add(u"pipeline"_s, u"the order of the strategies: the standard handler's is fixed (limiter, total timeout, retry, breaker, attempt timeout)"_s);
        if (limiterIndex >= 0) {
            options.insert(u"RateLimiter"_s, limiterJson(at(p, limiterIndex).permits, at(p, limiterIndex).queue));
        } else {
            options.insert(u"RateLimiter"_s, limiterJson(2147483647, 0));
            notes << u"The policy has no concurrency limit: the handler's limiter is set to the largest number of permits."_s;
        }
        options.insert(u"TotalRequestTimeout"_s, QJsonObject { { u"Timeout"_s, timeSpanText(total) } });
        if (!p.pipeline.isEmpty() && retryIndex < 0) {
            QJsonObject r { { u"MaxRetryAttempts"_s, 1 } };
            options.insert(u"Retry"_s, r);
            lost.add(u"limits.max_attempts"_s, u"a single attempt: the standard handler's retry makes at least one retry (written as 1)"_s);
        } else {
            options.insert(u"Retry"_s, retryJson());
        }
        if (breakerIndex >= 0) {
            CsUnit unused;
            csBreakerOptions(at(p, breakerIndex), u"pipeline[%1]"_s.arg(breakerIndex), plan, CsFlavour::Mehr, lost, unused);
            if (plan.breakerPredicate)
                lost.add(u"pipeline[%1].failures"_s.arg(breakerIndex), u"what the breaker counts: the JSON keeps the handler's own test (status ≥ 500, 408, 429, transport errors, timeouts)"_s);
            if (at(p, breakerIndex).breaker.scope == CircuitBreakerOptions::Scope::Host)
                lost.add(u"pipeline[%1].scope"_s.arg(breakerIndex), u"one breaker per host: that is SelectPipelineByAuthority() in code"_s);
            options.insert(u"CircuitBreaker"_s, breakerJson(at(p, breakerIndex)));
        } else {
            QJsonObject b { { u"FailureRatio"_s, 1.0 }, { u"MinimumThroughput"_s, 2147483647 },
                { u"SamplingDuration"_s, timeSpanText(std::min(day, std::max(Millis(30000), 2 * attempt))) }, { u"BreakDuration"_s, timeSpanText(Millis(500)) } };
            options.insert(u"CircuitBreaker"_s, b);
            notes << u"The policy has no circuit breaker: the handler's is set so that it never opens."_s;
        }
        options.insert(u"AttemptTimeout"_s, QJsonObject { { u"Timeout"_s, timeSpanText(attempt) } });
        bind = u"services.AddHttpClient(%1).AddStandardResilienceHandler(configuration.GetSection(%2));"_s.arg(quoted(p.name), quoted(section));
    }
    if (p.idempotency.autoAdd)
        lost.add(u"idempotency"_s, u"adding an idempotency key: JSON cannot add a handler (a DelegatingHandler before the resilience handler, in code)"_s);

    // The header as headerComment() writes it, one string a line, unwrapped (JSON has no comments).
    QStringList header { u"Retry policy \"%1\", exported by Retrylab %2 for Http.Resilience JSON %3 (Microsoft.Extensions.Http.Resilience)."_s.arg(p.name, QStringLiteral(RETRYLAB_VERSION), version) };
    if (const QString summary = policySummary(p); !summary.isEmpty() && summary != p.name)
        header << summary;
    if (!p.sourceTitle.isEmpty())
        header << u"Source: "_s + p.sourceTitle;
    if (lost.items().isEmpty())
        header << u"Exact: every behaviour of the policy is expressed below."_s;
    else
        header << u"NOT EXPRESSED by Http.Resilience JSON %1 (%2), so this configuration differs from the policy here:"_s.arg(version).arg(lost.items().size());
    for (const LostBehaviour& l : lost.items())
        header << u"- %1: %2"_s.arg(l.path, l.what);
    header << notes;
    header << u"Bind it: "_s + bind;
    header << u"JSON has no comments: these members carry them; the section below is what the handler reads."_s;
    // Written by hand so the members keep this order (QJsonObject sorts its keys).
    QString j = u"{\n  \"_retrylab_policy\": "_s + quoted(p.name) + u",\n  \"_retrylab\": [\n"_s;
    for (qsizetype i = 0; i < header.size(); ++i)
        j += u"    "_s + quoted(header.at(i)) + (i + 1 < header.size() ? u",\n"_s : u"\n"_s);
    j += u"  ],\n  "_s + quoted(section) + u": "_s;
    j += jsonText(options, u"  "_s) + u"\n}\n"_s;
    return CodeExport { j, lost.items() };
}

} // namespace

QList<CodeTarget> mehrTargets()
{
    CodeTarget code;
    code.id = u"ms-http-resilience"_s;
    code.title = u"Http.Resilience"_s; // Microsoft.Extensions.Http.Resilience, short enough for the header's first line
    code.language = u"csharp"_s;
    code.versions = QStringList { u"9"_s };
    code.runtime = u".NET 8 (Microsoft.Extensions.Http.Resilience 9.1 or later)"_s;
    code.generate = mehrUnit;

    CodeTarget json;
    json.id = u"ms-http-resilience-json"_s;
    json.title = u"Http.Resilience JSON"_s;
    json.language = u"json"_s;
    json.versions = QStringList { u"9"_s };
    // JSON has no comments: the header and the lost list travel in "_retrylab", outside the bound section.
    json.runtime = u".NET 8 (appsettings.json for Microsoft.Extensions.Http.Resilience 9; the header is in \"_retrylab\")"_s;
    json.generate = mehrJsonUnit;
    return { code, json };
}
