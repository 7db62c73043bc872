// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QString>

// A readable account of a whole policy (`policy show`, the policy editor's summary).
QString describePolicy(const RetryPolicy& policy);
// One line each, used by the description and by tables.
QString describeLimits(const Limits& limits); // "3 attempts (2 retries); deadline 30 s; attempt timeout 65 s"
QString describeBackoff(const Backoff& backoff, const Jitter& jitter);
QString describeCondition(const RuleCondition& when);
QString describeHint(const DelayHint& hint);
// A pipeline's strategies (resilience/pipelinedescription.cpp): one strategy, possibly on several lines,
// and the whole pipeline, outermost first, indented by depth; empty for no pipeline.
QString describeStrategy(const ResilienceStrategy& strategy);
QString describePipeline(const QList<ResilienceStrategy>& pipeline);
