// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultscenario.h"

#include <QByteArray>
#include <QString>

#include <optional>

// The fault-lab scenario a command was given, and which of its routes `run --scenario` sends to.
namespace ScenarioChoice {

// A built-in scenario or a scenario file; nullopt with *error set to one line naming every problem.
std::optional<FaultScenario> load(const QString& nameOrPath, QString* error);

// The method and path a request to the scenario uses: the first route (in the scenario's order, as the
// lab matches them) that accepts METHOD and PATH when they are given; its first method and a sample
// path ("*" → "x") for what is not given. nullopt with *error listing the routes when no route fits.
struct Target
{
    QString method;
    QString pathAndQuery; // "/v1/payments/x"
};
std::optional<Target> target(const FaultScenario& scenario, const std::optional<QString>& method,
    const std::optional<QString>& pathAndQuery, QString* error);

// One line per route: name, methods, path pattern and a path that reaches it.
QString routeTable(const FaultScenario& scenario);

} // namespace ScenarioChoice
