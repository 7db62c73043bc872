// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Herd view's files: the experiment saved and opened (herdexperimentjson.h's format, the one
// `retrylab herd --experiment FILE` reads), and the result exported as JSON or CSV — one file with a policy
// column, or a file per policy in a folder. Each writer returns a translated problem, empty on success;
// files are written atomically.

#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace HerdFiles {

struct Opened
{
    std::optional<HerdExperiment> experiment;
    QString problem; // every problem the file has, one a line; empty when experiment is set
};

QString saveExperiment(const HerdExperiment& experiment, const QString& path);
Opened openExperiment(const QString& path);

QString saveJson(const HerdResult& result, const QString& path);
// The series of every policy in one CSV: a "policy" column, then herdSeriesCsv's columns.
QByteArray seriesCsv(const HerdResult& result);
QString saveCsv(const HerdResult& result, const QString& path);
// One herdSeriesCsv file per policy in DIRECTORY, named after its label ("full-jitter.csv"); WRITTEN gets the paths.
QString saveCsvFolder(const HerdResult& result, const QString& directory, QStringList* written = nullptr);
// A file name for LABEL: letters, digits, '-', '_' and '.' kept, the rest '_'.
QString fileNameFor(const QString& label);

} // namespace HerdFiles
