// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The policy file format (version 1), documented in resources/docs/policy-format.md with its JSON Schema
// in resources/schemas/policy.schema.json. Writing then reading gives back an equal RetryPolicy.

#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

#include <optional>

struct PolicyParseResult
{
    std::optional<RetryPolicy> policy; // set only when there is no problem at all
    QList<PolicyProblem> problems; // syntax, type and unknown-field problems, then validate()'s
    bool ok() const { return policy.has_value(); }
};

QJsonObject policyToJson(const RetryPolicy& policy);
QByteArray policyToJsonBytes(const RetryPolicy& policy); // indented, ends with a newline

// Reads and validates. Every problem is reported with its field path; nothing is clamped.
PolicyParseResult policyFromJson(const QJsonObject& object);
// As above from file bytes; a syntax error names its line and column.
PolicyParseResult policyFromJsonBytes(const QByteArray& bytes);

// The enumeration spellings of the format (shared with the schema, the CLI and the UI).
namespace PolicyNames {
QStringList backoffKinds(); // none constant linear exponential decorrelated decorrelated-v2
QStringList exponentOrigins(); // first-retry-is-base first-retry-is-zero
QStringList jitterKinds(); // none full equal proportional multiplicative additive
QStringList capOrders(); // before-jitter after-jitter
QStringList hintFormats(); // retry-after milliseconds seconds
QStringList hintCombines(); // replace at-least-backoff clamp-around-backoff
QStringList hintOverMax(); // give-up clamp ignore
QStringList ruleActions(); // retry stop success
QStringList outcomeKinds(); // any status error
QStringList keyFormats(); // quoted bare
QStringList budgetScopes(); // client host
QStringList deadlineModes(); // stop-before-wait stop-after-wait
// A pipeline's circuit breaker (CircuitBreakerOptions' enums, in their order)
QStringList breakerWindows(); // consecutive count time
QStringList breakerBucketStarts(); // at-call fixed
QStringList breakerComparators(); // at-least above
QStringList breakerHalfOpenCallers(); // rejected wait
QStringList breakerTransitions(); // lazy timer
QStringList breakerScopes(); // client host
}
