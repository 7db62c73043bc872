// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The C# both .NET targets share (Polly 8, Microsoft.Extensions.Http.Resilience): the options of Polly's
// strategies in the policy's pipeline order, and, where Polly's own options are not exact, a per-call
// `RetryCall` that judges each attempt by the policy's rules in order, draws the policy's own backoff, reads its
// server hints and keeps its deadline as core/policy/decide.cpp does, handing its wait to DelayGenerator.
// Facts: retry-systems.md §1a–1b, resilience-fleets.md §1.1–1.3 and §5 (App-vNext/Polly 173d6d1d:
// src/Polly.Core/Retry/RetryResilienceStrategy.cs, RetryHelper.cs; dotnet/extensions 5862342c:
// src/Libraries/Microsoft.Extensions.Http.Resilience/).

#include "codegen/codewriter.h"
#include "policy/resilience/pipelineshape.h"

#include <QSet>
#include <QString>

// Which library's option types and defaults the strategies are written with.
enum class CsFlavour {
    Polly, // RetryStrategyOptions<HttpResponseMessage>…: Constant 2 s, exceptions handled
    Mehr, // HttpRetryStrategyOptions…: Exponential with jitter, Retry-After, IsTransient handled
};

struct CsUnit
{
    QSet<QString> usings; // namespaces
    QString members; // the class's private members after the public ones (types, helpers)
    bool experimental = false; // uses MEHR's [Experimental] APIs (diagnostic EXTEXP0001)
};

// What the retry needs beyond Polly's options, decided once per policy.
struct CsRetryPlan
{
    bool hasRetry = false; // a retry strategy with at least one retry
    bool native = false; // Delay/BackoffType/UseJitter/MaxDelay draw exactly the policy's curve
    bool ownPredicate = false; // ShouldHandle asks RetryCall (else the flavour's default, maybe DisableForUnsafe)
    bool disableUnsafe = false; // MEHR: IsTransient, then DisableForUnsafeHttpMethods()
    bool retryAfterHeader = false; // MEHR: ShouldRetryAfterHeader reads the policy's one hint exactly
    bool chooseWait = false; // RetryCall chooses the wait (hints, the own curve or the deadline) for DelayGenerator
    bool state = false; // a RetryCall exists (the retry's or a breaker's or hedge's predicate needs it)
    bool breakerPredicate = false; // the breaker's ShouldHandle is written out
    bool hedgingPredicate = false; // the hedging's ShouldHandle is written out
};

// Plans FLAVOUR's retry for SHAPE's policy and lists what neither options nor code can carry.
CsRetryPlan planCsRetry(const RetryPolicy& original, const PipelineShape& shape, CsFlavour flavour, LossList& lost);

// One options member: "MaxRetryAttempts = 2, // retries…".
struct CsAssign
{
    QString member;
    QString value;
    QString comment; // without "// "
};

// The retry's, breaker's and hedging's members (the flavour's defaults left out where the policy agrees).
QList<CsAssign> csRetryOptions(const PipelineShape& shape, const CsRetryPlan& plan, CsFlavour flavour, CsUnit& unit);
QList<CsAssign> csBreakerOptions(const ResilienceStrategy& s, const QString& path, const CsRetryPlan& plan, CsFlavour flavour,
    LossList& lost, CsUnit& unit);
QList<CsAssign> csHedgingOptions(const ResilienceStrategy& s, const QString& path, const CsRetryPlan& plan, CsFlavour flavour,
    LossList& lost, CsUnit& unit);

// `new TYPE\n{\n    A = 1,\n}` indented by INDENT (the first line unindented).
QString csInitializer(const QString& type, const QList<CsAssign>& members, const QString& indent);
// `PREFIX.A = 1;` lines, each indented by INDENT.
QString csStatements(const QString& prefix, const QList<CsAssign>& members, const QString& indent);

// The builder calls of the pipeline, outermost first, each on its own line starting with INDENT ".AddRetry(…)";
// BUILDER is what the extension methods are called on in comments only. Adds losses for strategies Polly
// cannot carry.
QString csPipelineCalls(const RetryPolicy& original, const PipelineShape& shape, const CsRetryPlan& plan, CsFlavour flavour,
    const QString& indent, LossList& lost, CsUnit& unit);

// The private types and helpers: RetryCall (when plan.state), Attempt, error classes, headers, body, hints.
// MEHR builds RetryCall from the request the handler sends; Polly's SendAsync prepares it per attempt.
void writeCsState(const PipelineShape& shape, const CsRetryPlan& plan, CsFlavour flavour, CsUnit& unit);

// The idempotency-key generator (and, for Polly, the helper adding it to an attempt's request).
QString csKeyHelpers(const RetryPolicy& policy, CsFlavour flavour);

// "TimeSpan.FromSeconds(2)", "TimeSpan.FromMilliseconds(200)".
QString csDuration(Millis ms);
// The whole file: header, usings, namespace, the class text.
QString csFile(const QString& header, const CsUnit& unit, const QString& classText);
