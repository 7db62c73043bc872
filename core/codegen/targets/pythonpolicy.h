// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Python both targets share (urllib3 and tenacity send through urllib3, so they see the same
// answers and exceptions): the policy's rules as one function, and a per-call plan that counts the retries,
// draws the backoff and reads the server's hints exactly as core/policy/decide.cpp does.

#include "policy/retrypolicy.h"

#include <QString>

namespace PythonPolicy {

// What the shared code needs imported, beyond urllib3.
struct Imports
{
    bool json = false, random = false, math = false, time = false, email = false, re = false, uuid = false,
         socket = false;
    QString lines() const; // "import json\n…", sorted
};

// `_error_class`, `_header_values`, `_body_value` (when a rule reads the body) and `_action`: the rules,
// first match wins.
QString rulesCode(const RetryPolicy& policy, Imports& imports);
// `class _Plan`: one call's decisions (rule, attempts left to the library, backoff, hints, deadline).
QString planCode(const RetryPolicy& policy, Imports& imports);
// The statuses and methods any retry rule could match, as a Python expression over `method` and `status`.
QString mayRetryExpression(const RetryPolicy& policy);
// The idempotency-key lines of the function the user calls (empty when the policy adds none); they set
// `headers` and `keyed`.
QString keyLines(const RetryPolicy& policy, Imports& imports, const QString& indent);
// Whether a rule tests the key's presence (so the plan needs `keyed`).
bool rulesUseKey(const RetryPolicy& policy);
// A Python literal tuple of strings or ints.
QString tupleOf(const QStringList& items);

} // namespace PythonPolicy
