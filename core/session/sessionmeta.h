// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>

// Where and when a session was recorded.
struct SessionMeta
{
    QString appVersion;
    QDateTime createdUtc;
    QDateTime wallOriginUtc; // wall-clock time at monotonic 0 (the session axis origin)
    qint64 monotonicOriginNs = 0; // the host's monotonic clock at the origin (informative)
    QString host;
    QString notes;
    int concurrency = 1; // runs in progress at once when recorded (replay uses it)
    QString source; // how it was made: "run", "replay", "recovered", "migrated"
    int readFromVersion = -1; // not saved: the format version the file had when opened (0 = attempt log)

    static SessionMeta current(); // this app, this host, now
};
