// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One HAR 1.2 entry (the "entries" item of a HAR log) as a LabExchange: private to harimport.cpp.

#include "lab/labexchange.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QUrl>

struct HarEntry
{
    LabExchange exchange; // times in ms from `started`
    QDateTime started; // startedDateTime
    QUrl url;
    QString connection; // the entry's "connection" (a connection id or port), empty when not recorded
    bool http = true; // false: not an HTTP(S) exchange (data:, ws:, blob:), skipped
};

struct HarFieldProblem
{
    QString field; // relative to the entry: "request.url", "timings.wait"
    QString message;
};

// Reads ENTRY; false with PROBLEM set when a required field is missing or malformed.
bool readHarEntry(const QJsonObject& entry, HarEntry* out, HarFieldProblem* problem);
