// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QList>
#include <QString>

// The problems a policy reader reported about WHAT (a preset name or file), as one line for an error
// message: `policy "x.json": limits.max_attempts: must be at least 1; backoff.kind: …`. A message that
// already quotes WHAT ("\"nosuch\" is neither a preset …") is not prefixed with it again.
QString policyProblemLine(const QString& what, const QList<PolicyProblem>& problems);
// The problems alone: "limits.max_retries: must be a number, not a string; backoff.kind: …".
QString policyProblemsText(const QList<PolicyProblem>& problems);
