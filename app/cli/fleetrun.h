// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One `retrylab fleet` run: the lab (with --scenario), the locustfile, the Locust processes, then the
// session, the counts that must agree, the report and (--compare-herd) the simulation beside it.

#include "cli/cliio.h"
#include "cli/fleetsettings.h"

#include <QJsonObject>

class FaultServer;
struct FleetRecording;

class FleetRun
{
public:
    FleetRun(const FleetSettings& settings, CliIo& io);
    int exec();

private:
    int report(const FleetRecording& recording, const FaultServer* lab, int masterExit, const QString& locustfile,
        const QString& masterLog);

    FleetSettings m_settings;
    CliIo& m_io;
};
