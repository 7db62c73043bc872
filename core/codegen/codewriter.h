// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every target's generator shares: the list of lost behaviours, the losses common to all targets
// (budgets, pipeline strategies, pools), the header comment naming the policy, Retrylab's version and the
// target's, and the literals every language writes the same way.

#include "codegen/codeexport.h"

#include <QString>
#include <QStringList>

// Lost behaviours in the order found, each path once.
class LossList
{
public:
    void add(const QString& path, const QString& what);
    bool contains(const QString& path) const;
    const QList<LostBehaviour>& items() const { return m_items; }

private:
    QList<LostBehaviour> m_items;
};

// What a target can carry of the parts of a policy most targets cannot; everything false is listed lost by
// loseUnsupported().
struct TargetAbilities
{
    bool retryQuota = false; // RetryQuota (AWS token bucket)
    bool retryThrottling = false; // RetryThrottling (gRPC retryThrottling)
    bool hostThrottle = false; // waiting for a reported rate-limit reset before sending
    bool deadline = false; // limits.deadline_ms
    bool attemptTimeout = false; // limits.attempt_timeout_ms
    bool connectTimeout = false; // limits.connect_timeout_ms
    bool connectionPool = false; // limits.connections_per_host
    bool throttlingBase = false; // backoff.throttling_base_ms
    bool circuitBreaker = false; // a circuit_breaker strategy in the pipeline
    bool timeouts = false; // total_timeout / attempt_timeout strategies
    bool hedging = false; // a hedging strategy
};

// Lists as lost, in TARGETNAME's words, each part of POLICY that ABILITIES says the target cannot carry.
void loseUnsupported(const RetryPolicy& policy, const TargetAbilities& abilities, const QString& targetName,
    LossList& lost);

// The policy's first pipeline strategy of KIND (its index in *INDEX), or null when it has none.
const ResilienceStrategy* strategyOf(const RetryPolicy& policy, ResilienceStrategy::Kind kind, qsizetype* index = nullptr);

// ---- The policy's delay curve in a C-family language (C#, Java, Go) ----------------------------------

// How a language writes the few expressions of a delay: every value is double milliseconds.
struct DelaySyntax
{
    QString draw {}; // a uniform draw in [0, 1): "Random.Shared.NextDouble()", "RANDOM.nextDouble()"
    bool compact = false; // gofmt's spacing: "x/2 + x/2*draw" instead of "x / 2 + x / 2 * draw"
    bool doubleLiterals = true; // 200 → "200.0" (C#, Java: integer division never happens)
    // What curveBody() needs besides: statements end with ';', blocks in braces.
    QString indent {}; // of every line
    QString declare {}; // a local double: "var", "double"
    QString pow {}; // "Math.Pow", "Math.pow"
    QString min {}; // "Math.Min", "Math.min"
    QString max {}; // "Math.Max", "Math.max"
    QString retries {}; // the per-call retry counter: "_retries", "retries"
    QString previous {}; // the decorrelated families' last value: "_previous", "previous"
    QString maxWait {}; // the constant used when the policy has no cap: "MaxWaitMs", "MAX_WAIT_MS"
    QString v2Curve {}; // Polly's DecorrelatedJitterBackoffV2 helper: "V2Curve", "v2Curve"
    QString floor {}; // "Math.Floor", "Math.floor"
};

// A number as SYNTAX writes a double.
QString delayNumber(double value, const DelaySyntax& syntax);
// The policy's jitter applied to the expression X: "x * U(0,1)", "x/2 + …" (core/policy/jitter.cpp).
QString jitterExpression(const Jitter& jitter, const QString& x, const DelaySyntax& syntax);
// The jitter in words for a comment: "full jitter U(0, d)", "±25 %".
QString jitterWords(const Jitter& jitter);
// The statements that draw the wait before the next retry as core/policy/backoff.cpp and jitter.cpp do:
// the counter advanced, the curve's ceiling, the cap before or after the jitter, the floor, then
// "return d;". Each line starts with SYNTAX.indent.
QString curveBody(const RetryPolicy& policy, const DelaySyntax& syntax);

// The statements that turn a server's asked delay (the double `asked`) and the drawn backoff (`wait`) into
// the wait, as decide() does for HINT: its combine, the backoff's cap when the hint is bound by it, and the
// policy's jitter and floor when the hint is jittered. One statement a line, no indent.
QString hintWaitStatements(const RetryPolicy& policy, const DelayHint& hint, const DelaySyntax& syntax);

// How a language spells a duration: zero, and a whole number (%1) of each unit.
struct DurationSpelling
{
    QString zero;
    QString hours;
    QString minutes;
    QString seconds;
    QString milliseconds;
};
// V in the largest unit that holds it whole (90000 ms: 90 seconds; 120000 ms: 2 minutes).
QString durationLiteral(Millis v, const DurationSpelling& spelling);

// How a language writes a comment line: "# ", "// ".
struct CommentStyle
{
    QString line; // the prefix of every comment line
};

// The header every unit starts with: the policy's name and description's first sentence, its source, the
// Retrylab version, the target and its version, then "Not expressed by …:" and each lost behaviour, or
// "Exact: …". Each line starts with STYLE.line; ends with a newline.
QString headerComment(const CommentStyle& style, const RetryPolicy& policy, const QString& targetTitle,
    const QString& targetVersion, const QList<LostBehaviour>& lost);

// A name for the policy in code: "slen" → "slen", "aws-standard" → "aws_standard" (snake) or
// "awsStandard" (camel) or "AwsStandard" (pascal); never empty, never starting with a digit.
QString snakeName(const QString& policyName);
QString camelName(const QString& policyName);
QString pascalName(const QString& policyName);

// A double-quoted string literal with \" \\ \n \t and \uXXXX escapes: valid Python, JavaScript, C#, Go,
// Java, JSON and YAML.
QString quoted(const QString& text);
// The shortest decimal text of a number: 0.2, 1, 1.5, 0.25 (never exponent notation).
QString numberText(double value);
// Milliseconds as seconds in decimal: 200 → "0.2", 1000 → "1".
QString secondsText(Millis ms);
// The statuses of a rule or hint as single codes when all ranges are small, e.g. [429, 500, 502];
// ranges wider than MAXSPAN codes are left to the caller (returned empty, *tooWide set).
QList<int> statusCodes(const QList<StatusRange>& ranges, int maxSpan = 100, bool* tooWide = nullptr);
// The error classes' file-format names, "connection-lost".
QString errorClassId(ErrorClass e);
// The first sentence of a policy's description (its summary), or its name.
QString policySummary(const RetryPolicy& policy);
