// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultscenario.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// One thing wrong with a scenario document, located by a JSON path ("$.routes[0].steps[2].status").
struct ScenarioProblem
{
    QString path;
    QString message;
    QString toString() const { return path + QLatin1String(": ") + message; }
};

// Reads a scenario document (format 1, resources/docs/scenario-format.md) and reports every problem at
// once. Unknown keys are problems too (a typo must not silently change a scenario); keys starting with
// '_' and "$schema" are free for comments.
class ScenarioLoader
{
public:
    struct Result
    {
        std::optional<FaultScenario> scenario; // set only when there is no problem
        QList<ScenarioProblem> problems;
        bool ok() const { return scenario.has_value(); }
        QString problemText() const; // one problem per line
    };

    static Result fromJson(const QByteArray& json);
    static Result fromObject(const QJsonObject& object);
    static Result fromFile(const QString& fileName);
};
