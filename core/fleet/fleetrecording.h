// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a fleet's master wrote (RETRYLAB_FLEET_OUT, locustfile.h): every attempt the workers recorded, and
// each worker's closing count of the attempts it sent, so a lost batch shows.

#include "fleet/fleetattempt.h"

#include <QList>
#include <QString>

struct FleetWorkerReport
{
    QString worker;
    qint64 attemptsSent = 0;
    qint64 logicalRequests = 0;
    int users = 0;
};

struct FleetRecording
{
    QList<FleetAttempt> attempts; // in the order the master received them
    QList<FleetWorkerReport> workers; // those that said they were done
    QString problem; // why the file could not be read; empty when it was

    qint64 attemptsSent() const; // what the workers say they sent, all together
    static FleetRecording readFile(const QString& path);
};
