// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/scenarioloader.h"

#include <QList>
#include <QString>

// The built-in scenarios shipped under :/retrylab/scenarios/, and loading by name or by file path.
class ScenarioCatalog
{
public:
    struct Entry
    {
        QString name; // file name without .json, e.g. "seed-004-pix"
        QString description; // one line
    };

    static QList<Entry> builtIn(); // sorted by name
    static QString defaultScenarioName() { return QStringLiteral("flaky-api"); }
    // NAME of a built-in scenario, or a path to a JSON file.
    static ScenarioLoader::Result load(const QString& nameOrPath);
    // One route for every method and path, one step: forward, forever (pure observation through a proxy).
    static FaultScenario forwardEverything();
};
