// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The built-in presets (resources/presets/*.json, shipped as :/retrylab/presets/) and policy files.

#include "policy/policyjson.h"
#include "policy/retrypolicy.h"

#include <QList>
#include <QString>

struct PresetInfo
{
    QString name; // the file's base name, e.g. "aws-standard"
    QString description; // first sentence is the one-line summary
    QString source; // citation
    QString sourceTitle; // the cited document's own title and section
};

namespace PresetCatalog {
// Every built-in preset, sorted by name.
QList<PresetInfo> list();
QStringList names();
// A built-in preset by name; problems say why when it is unknown.
PolicyParseResult load(const QString& name);
// NAME_OR_FILE: a built-in preset name, else a path to a policy JSON file. Unreadable files are reported.
PolicyParseResult resolve(const QString& nameOrFile);
// The one-line summary of a description (up to the first ". " or the end).
QString summaryOf(const QString& description);
} // namespace PresetCatalog
