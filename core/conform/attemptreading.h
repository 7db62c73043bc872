// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the judge reads from an observed attempt, and how a finding names it.

#include "engine/attemptrecord.h"
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QString>

#include <optional>

// The value of the policy's idempotency-key field (HEADER) the attempt carried, as sent; empty when none.
QByteArray idempotencyKeyOf(const AttemptRecord& attempt, const QString& header);

// "429 on GET (Retry-After: 2)", "connection-lost on POST without Idempotency-Key", "503 on POST with
// Idempotency-Key (error.code ledger_unavailable)": the outcome, the method, the key where the method is not
// safe, and the fields and body codes POLICY reads, as they came.
QString describeAnswer(const AttemptRecord& attempt, const RetryPolicy& policy);

// Whether the first Retry-After-style hint of POLICY that ATTEMPT's answer carries is an HTTP-date: those
// count whole seconds, so a client that computes in seconds may be up to a second off either way.
bool waitSetByHttpDate(const AttemptRecord& attempt, const RetryPolicy& policy, const QDateTime& now);
