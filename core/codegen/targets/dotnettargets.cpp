// SPDX-License-Identifier: GPL-3.0-or-later
// The Polly 8 and Microsoft.Extensions.Http.Resilience targets (retry-systems.md §1a–1b, resilience-fleets.md
// §1.1–1.3 and §5). The strategies are Polly's own, in the policy's pipeline order; what their options cannot
// say exactly (rules, Retry-After limits, curves Polly does not draw) is code in dotnetcode.cpp.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/dotnetcode.h"
#include "codegen/targets/dotnettargets.h"

using namespace Qt::StringLiterals;

namespace {

// The policy without the rate limiters, which the .NET targets write (AddConcurrencyLimiter, the standard
// handlers' RateLimiter) and loseUnsupported() would list.
RetryPolicy withoutLimiters(RetryPolicy p)
{
    p.pipeline.removeIf([](const ResilienceStrategy& s) {
        return s.kind == ResilienceStrategy::Kind::RateLimiter || s.kind == ResilienceStrategy::Kind::Bulkhead;
    });
    return p;
}

TargetAbilities dotnetAbilities()
{
    TargetAbilities can;
    can.deadline = true; // an outer AddTimeout (and RetryCall's check before a wait)
    can.attemptTimeout = true; // an inner AddTimeout
    can.circuitBreaker = true;
    can.timeouts = true;
    can.hedging = true;
    return can;
}

QString keyConstant(const RetryPolicy& p, const CsRetryPlan& plan)
{
    if (!plan.state && !p.idempotency.autoAdd)
        return {};
    return u"    /// <summary>The request header the policy's idempotency keys travel in.</summary>\n"
           "    public const string IdempotencyKeyHeader = %1;\n\n"_s.arg(quoted(p.idempotency.header));
}

QString pollySend(const RetryPolicy& p, const CsRetryPlan& plan, CsUnit& unit)
{
    unit.usings << u"System"_s << u"System.Net.Http"_s << u"System.Threading"_s << u"System.Threading.Tasks"_s;
    QString s = u"    /// <summary>\n"
                "    /// Sends one logical request through <see cref=\"Pipeline\"/> and returns the last answer.\n"
                "    /// <paramref name=\"newRequest\"/> builds each attempt's request, body included: an HttpRequestMessage can be\n"
                "    /// sent only once.\n    /// </summary>\n"_s;
    const bool key = p.idempotency.autoAdd;
    if (!plan.state && !key)
        return s + u"    public static ValueTask<HttpResponseMessage> SendAsync(HttpClient client, Func<HttpRequestMessage> newRequest,\n"
                   "        CancellationToken cancellationToken = default) =>\n"
                   "        Pipeline.ExecuteAsync(async token => await client.SendAsync(newRequest(), token).ConfigureAwait(false), cancellationToken);\n\n"_s;
    s += u"    public static async ValueTask<HttpResponseMessage> SendAsync(HttpClient client, Func<HttpRequestMessage> newRequest,\n"
         "        CancellationToken cancellationToken = default)\n    {\n"_s;
    if (key)
        s += u"        var key = NewIdempotencyKey(); // one key per logical request, sent on every attempt\n"_s;
    const QString attempt = key ? u"            var request = newRequest();\n            AddIdempotencyKey(request, key);\n"_s
                                : u"            var request = newRequest();\n"_s;
    if (!plan.state)
        return s + u"        return await Pipeline.ExecuteAsync(async token =>\n        {\n"_s + attempt
            + u"            return await client.SendAsync(request, token).ConfigureAwait(false);\n"
              "        }, cancellationToken).ConfigureAwait(false);\n    }\n\n"_s;
    s += u"        var call = new RetryCall();\n"
         "        var context = ResilienceContextPool.Shared.Get(cancellationToken);\n"
         "        context.Properties.Set(CallKey, call);\n"
         "        try\n        {\n"
         "            return await Pipeline.ExecuteAsync(async ctx =>\n            {\n"_s;
    for (const QString& line : attempt.split(u'\n', Qt::SkipEmptyParts))
        s += u"    "_s + line + u'\n';
    s += u"                call.Prepare(request);\n"
         "                return await client.SendAsync(request, ctx.CancellationToken).ConfigureAwait(false);\n"
         "            }, context).ConfigureAwait(false);\n        }\n"
         "        finally\n        {\n            ResilienceContextPool.Shared.Return(context);\n        }\n    }\n\n"_s;
    return s;
}

CodeExport pollyUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    loseUnsupported(withoutLimiters(p), dotnetAbilities(), u"Polly"_s, lost);
    const PipelineShape shape = readPipeline(p);
    CsUnit unit;
    unit.usings << u"Polly"_s << u"System.Net.Http"_s;
    const CsRetryPlan plan = planCsRetry(p, shape, CsFlavour::Polly, lost);
    const QString calls = csPipelineCalls(p, shape, plan, CsFlavour::Polly, u"        "_s, lost, unit);
    writeCsState(shape, plan, CsFlavour::Polly, unit);

    QString c = u"/// <summary>\n/// The \"%1\" retry policy as a Polly 8 resilience pipeline. Send each request with <see cref=\"SendAsync\"/>.\n"
                "/// </summary>\npublic static class %2Policy\n{\n"_s.arg(p.name, pascalName(p.name));
    c += keyConstant(p, plan);
    c += u"    /// <summary>The pipeline, outermost strategy first: build it once and share it%1.</summary>\n"
         "    public static readonly ResiliencePipeline<HttpResponseMessage> Pipeline = new ResiliencePipelineBuilder<HttpResponseMessage>()\n"_s
             .arg(shape.breaker() ? u" (the circuit breaker's state is the application's)"_s : QString());
    c += calls + u"        .Build();\n\n"_s;
    c += pollySend(p, plan, unit);
    c += csKeyHelpers(p, CsFlavour::Polly);
    c += unit.members;
    while (c.endsWith(u"\n\n"_s))
        c.chop(1);
    c += u"}\n"_s;
    CodeExport e;
    e.lost = lost.items();
    e.code = csFile(headerComment(CommentStyle { u"// "_s }, p, u"Polly"_s, version, e.lost), unit, c);
    return e;
}

} // namespace

QList<CodeTarget> dotnetTargets()
{
    CodeTarget polly;
    polly.id = u"polly"_s;
    polly.title = u"Polly"_s;
    polly.language = u"csharp"_s;
    polly.versions = QStringList { u"8"_s };
    polly.runtime = u".NET 8"_s;
    polly.generate = pollyUnit;

    QList<CodeTarget> out { polly };
    out << mehrTargets();
    return out;
}
