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
