// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/attemptoutcome.h"
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QString>

#include <optional>

// True when every condition RULE sets holds for this request and outcome.
bool conditionMatches(const RuleCondition& when, const RequestFacts& request, const AttemptOutcome& outcome);

// The first rule of POLICY that matches, or nullptr (then the built-in fallback applies).
const RetryRule* firstMatchingRule(const RetryPolicy& policy, const RequestFacts& request, const AttemptOutcome& outcome);

// The scalar at PATH ("errors[0].code", "error.type") in a JSON BODY, as text; nullopt when the body is not
// JSON or the path leads nowhere (or to an object/array).
std::optional<QString> jsonBodyValue(const QByteArray& body, const QString& path);
