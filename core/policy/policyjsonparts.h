// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Pieces of the policy file format (policyjson.h) that more than one part of it reads and writes: a
// duration, a rule's condition (the retry's rules and a circuit breaker's failures) and the resilience
// pipeline (format 2).

#include "policy/jsonreader.h"
#include "policy/resilience/pipeline.h"

#include <QJsonArray>
#include <QJsonObject>

// A duration, or null for none.
QJsonValue millisValue(const std::optional<Millis>& value);

QJsonObject conditionToJson(const RuleCondition& when);
RuleCondition conditionFromJson(JsonReader r);

QJsonArray pipelineToJson(const QList<ResilienceStrategy>& pipeline);
// The array KEY of R, each strategy's fields by its kind; problems with their paths.
QList<ResilienceStrategy> pipelineFromJson(JsonReader& r, const QString& key);
