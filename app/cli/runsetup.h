// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/requestspec.h"
#include "lab/faultscenario.h"
#include "policy/retrypolicy.h"
#include "policy/settings/policychanges.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

// What `retrylab run` was asked to do.
struct RunSetup
{
    RetryPolicy policy;
    PolicyChanges policyChanges; // what --set changed in the preset or file
    RequestSpec spec;
    std::optional<FaultScenario> scenario;
    int repeat = 1;
    int concurrency = 1;
    // > 0: the runs are submitted on a fixed beat (run i at i × interval from the first), as a client making
    // calls at a fixed rate does, whether or not earlier ones have ended; 0: all at once.
    Millis interval { 0 };
    std::uint64_t seed = 0;
    QString exportPath;
    QString sessionPath;
    QString ledgerPath;
    bool json = false;
    bool quiet = false;
    bool listRoutes = false;

    // Reads `retrylab run` ARGS; nullopt with *error set (one line) when they are bad. Everything is
    // checked here, before anything is sent: the policy, the target, the request, every output path.
    static std::optional<RunSetup> parse(const QStringList& args, QString* error);
};
