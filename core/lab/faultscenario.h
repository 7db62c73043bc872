// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultroute.h"
#include "lab/faultserverlimits.h"
#include "lab/ratelimitspec.h"

#include <QJsonObject>
#include <QList>
#include <QUrl>
#include <QString>

#include <chrono>
#include <optional>

// A stretch of scenario time (from load or reset) during which the whole server is down.
struct OutageWindow
{
    using Mode = OutageMode;
    std::chrono::milliseconds from { 0 };
    std::chrono::milliseconds duration { 0 };
    Mode mode = Mode::Status;
    int status = 503;
};

// A complete fault-lab script: routes, optional shared rate limit and outage windows. Loaded from JSON
// by ScenarioLoader (format 1, resources/docs/scenario-format.md).
struct FaultScenario
{
    static constexpr int currentFormat = 1;

    QString name;
    QString description; // one line
    quint64 seed = 1;
    QList<FaultRoute> routes;
    std::optional<RateLimitSpec> rateLimit; // shared by every route without its own
    QList<OutageWindow> outages;
    int fallbackStatus = 404; // no route matched
    FaultServerLimits limits; // set ones replace the server's own while this scenario plays
    QJsonObject source; // the document it was loaded from (served by GET /_lab/scenario)
    QUrl upstream; // where `forward` steps send requests (FaultServerOptions::upstream overrides it)
    bool forwardedHeaders = false; // "forwarded_headers": Via and X-Forwarded-* on forwarded requests

    bool hasForwardSteps() const;

    // A scenario with one catch-all route answering 200 (what a fresh FaultServer plays).
    static FaultScenario defaultScenario();
};
