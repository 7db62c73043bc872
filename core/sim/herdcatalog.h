// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The built-in herd experiments, each reproducing a published result (issue 29 §2; sources in
// resilience-fleets.md §2): aws-2015, retry-collapse, metastable-osdi22.

#include "sim/herdexperiment.h"

#include <QStringList>

#include <optional>

namespace HerdCatalog {
QStringList names();
// The experiment with its default policies; nullopt for an unknown name.
std::optional<HerdExperiment> experiment(const QString& name);
}
