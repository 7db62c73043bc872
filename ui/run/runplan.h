// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/requestspec.h"
#include "policy/retrypolicy.h"
#include "policy/settings/policychanges.h"

#include <QString>

// What the user asked for when pressing Run: the request, whether it goes to the built-in lab (then only
// the URL's path and query are used), and how many runs at once. A plain value the editors fill in.
struct RunPlan
{
    RequestSpec request;
    bool targetLab = true;
    QString labPath = QStringLiteral("/");
    RetryPolicy policy;
    PolicyChanges policyChanges; // what the editor changed in the preset it started from (recorded in the session)
    int repeat = 1;
    int concurrency = 1;
    Millis interval { 0 }; // > 0: one run started every INTERVAL (a fixed call rate); 0: as fast as allowed
};
