// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/scenariocatalog.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace {
const QString resourceDir = u":/retrylab/scenarios"_s;
}

QList<ScenarioCatalog::Entry> ScenarioCatalog::builtIn()
{
    QList<Entry> entries;
    const QStringList files = QDir(resourceDir).entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        const ScenarioLoader::Result result = ScenarioLoader::fromFile(resourceDir + u'/' + file);
        Entry entry;
        entry.name = QFileInfo(file).completeBaseName();
        entry.description = result.ok() ? result.scenario->description : u"(invalid: %1)"_s.arg(result.problemText());
        entries << entry;
    }
    return entries;
}

ScenarioLoader::Result ScenarioCatalog::load(const QString& nameOrPath)
{
    const QString builtInPath = resourceDir + u'/' + nameOrPath + u".json"_s;
    if (!nameOrPath.contains(u'/') && QFileInfo::exists(builtInPath))
        return ScenarioLoader::fromFile(builtInPath);
    if (QFileInfo::exists(nameOrPath))
        return ScenarioLoader::fromFile(nameOrPath);
    ScenarioLoader::Result result;
    QStringList names;
    for (const Entry& e : builtIn())
        names << e.name;
    result.problems.append({ u"$"_s,
        u"no built-in scenario or file named '%1' (built-in: %2)"_s.arg(nameOrPath, names.join(u", "_s)) });
    return result;
}

FaultScenario ScenarioCatalog::forwardEverything()
{
    const ScenarioLoader::Result r = ScenarioLoader::fromJson(R"json({"format":1,"name":"observe",
        "description":"every request forwarded to the upstream, as it is (pure observation)",
        "routes":[{"name":"forward","path":"/**","steps":[{"kind":"forward","repeat":"forever"}]}]})json");
    return r.scenario.value_or(FaultScenario {});
}
