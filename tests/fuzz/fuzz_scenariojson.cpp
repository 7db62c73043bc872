// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario JSON (resources/docs/scenario-format.md): any bytes give a scenario or located problems.
#include "fuzzsupport.h"
#include "lab/scenarioloader.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const ScenarioLoader::Result result = ScenarioLoader::fromJson(Fuzz::bytes(data, size));
    Fuzz::check(result.ok() == result.problems.isEmpty(), "a scenario with problems, or neither");
    for (const ScenarioProblem& p : result.problems)
        Fuzz::check(p.path.startsWith(QLatin1Char('$')) && !p.message.isEmpty(), "a problem without path or message",
            p.toString().toUtf8());
    return 0;
}
