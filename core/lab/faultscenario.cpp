// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/faultscenario.h"

using namespace Qt::StringLiterals;

FaultScenario FaultScenario::defaultScenario()
{
    FaultScenario scenario;
    scenario.name = u"default"_s;
    scenario.description = u"Every request answered 200 at once"_s;
    FaultRoute route;
    route.name = u"any"_s;
    route.path = u"/**"_s;
    FaultStep ok;
    ok.status = 200;
    ok.json = QJsonObject { { u"ok"_s, true }, { u"n"_s, u"{{n}}"_s } };
    route.steps << ok;
    scenario.routes << route;
    scenario.source = QJsonObject { { u"format"_s, currentFormat }, { u"name"_s, scenario.name },
        { u"description"_s, scenario.description } };
    return scenario;
}

bool FaultScenario::hasForwardSteps() const
{
    for (const FaultRoute& route : routes) {
        for (const FaultStep& step : route.steps) {
            if (step.kind == FaultStep::Kind::Forward)
                return true;
        }
    }
    return false;
}
