// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What `retrylab fleet` was asked, read and checked in full before anything starts: every refusal is one
// line and exit status 2.

#include "cli/cliio.h"

#include "fleet/locustfile.h"
#include "lab/faultscenario.h"
#include "lab/upstreamtarget.h"
#include "policy/retrypolicy.h"

#include <QString>
#include <QStringList>

#include <optional>

struct FleetSettings
{
    RetryPolicy policy;
    QString policyChanges; // "preset x, changed: …", or empty
    QString url; // --url, or the lab's URL once it listens
    std::optional<FaultScenario> scenario;
    QString scenarioName;
    UpstreamTarget upstream;
    QString method = QStringLiteral("GET");
    QString pathAndQuery; // in the scenario
    QString labBind = QStringLiteral("127.0.0.1");
    int users = 1;
    double spawnRate = 1;
    Millis duration { 10000 };
    Millis drain { 30000 };
    int workers = 1;
    LocustFileOptions::Arrival arrival = LocustFileOptions::Arrival::Closed;
    double rate = 0;
    Millis think { 0 };
    QString sessionPath;
    QString locustfilePath;
    bool json = false;
    bool compareHerd = false;
    bool record = true;
    bool master = false;
    int expectWorkers = 0; // with --master
    QString bind = QStringLiteral("127.0.0.1");
    quint16 port = 0;

    // Reads ARGS; nullopt when it can run, else the exit status (the reason already written to io.err).
    std::optional<int> read(const QStringList& args, CliIo& io);
    QString arrivalText() const; // "closed loop (…)" / "open loop (…)"

    static int usage(CliIo& io, const QString& message); // one line, exit status 2
    static QString locustProgram(); // RETRYLAB_LOCUST, else locust on PATH; empty when neither
    static QString noLocust(); // the sentence saying what to install
};
