// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attempt a fleet worker made and recorded, as the master wrote it (one JSON line, locustfile.h).

#include "http/httpfield.h"

#include <QJsonObject>
#include <QString>

#include <optional>

struct FleetAttempt
{
    QString logical; // the logical request's id (the attempt header's, before ";attempt=")
    int attempt = 1; // 1 = its first attempt
    QString worker; // Locust's id of the worker process
    int user = 0; // the user within that worker, from 1
    QString method;
    QString url;
    QString key; // the idempotency key it carried
    double startS = 0; // wall clock, seconds since the epoch
    double endS = 0;
    std::optional<int> status;
    QString error; // Retrylab's error class id ("refused", "response-timeout"…), empty with a status
    double waitS = 0; // the wait the policy drew before it (0 on the first attempt)
    QString decision; // "retry", "stop", "success", "cut" (the run's time was up), or empty (no rule)
    double delayS = 0; // with "retry": the wait drawn for the next attempt
    qint64 bytes = 0;
    HttpHeaderList responseHeaders;

    // Null with *error when OBJECT lacks a field an attempt must have.
    static std::optional<FleetAttempt> fromJson(const QJsonObject& object, QString* error);
};
