// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Herd experiments and results as JSON: the experiment file the Herd view saves and opens and the CLI reads
// (`retrylab herd --experiment FILE`), and the result `retrylab herd --json` prints. Policies are embedded
// in policy format (policyjson.h). Series as CSV: one file per policy, one row per bucket.

#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

#include <optional>

struct HerdExperimentParse
{
    std::optional<HerdExperiment> experiment;
    QList<PolicyProblem> problems; // every problem, with JSON paths; empty when experiment is set
    bool ok() const { return experiment.has_value(); }
};

QJsonObject herdExperimentToJson(const HerdExperiment& experiment);
QByteArray herdExperimentToBytes(const HerdExperiment& experiment);
HerdExperimentParse herdExperimentFromBytes(const QByteArray& bytes);

// {"experiment", "seed", "results": [{"policy", "clients", "runs", "completion_ms_mean", …}], "series": {label: […]}}
QJsonObject herdResultToJson(const HerdResult& result, bool withSeries = true);
// "t_ms,offered,attempts,goodput,retries,utilisation,in_service,queue,breaker_open,budget_tokens" and a row a bucket.
QByteArray herdSeriesCsv(const HerdSeries& series);
