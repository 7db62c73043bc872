// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One row of the herd experiment form: its editor, how it reads from and writes to a HerdExperiment, when
// it applies (rate only in an open loop), and the JSON path validate() reports its problems under, so the
// right field turns red.

#include "sim/herdexperiment.h"

#include <QString>
#include <QStringList>

#include <functional>

class QLabel;
class QWidget;

struct HerdField
{
    QString path; // "server.concurrency"
    QStringList aliases; // other paths that belong here ("server.cut" for the fraction's window)
    QWidget* label = nullptr; // a QLabel, or the check box that turns an optional window on
    QWidget* editor = nullptr;
    QLabel* message = nullptr; // the problem, shown under the editor
    std::function<void(const HerdExperiment&)> load;
    std::function<void(HerdExperiment&)> store;
    std::function<bool(const HerdExperiment&)> relevant; // unset: always; else the row is disabled when false

    // True when PROBLEM_PATH is this field's path or an alias, or lies below one ("server.outage.start_ms").
    bool owns(const QString& problemPath) const;
    // Shows MESSAGES under the editor, tinted as the policy form tints its problems (empty: clears).
    void setProblems(const QStringList& messages);
    // Enables the label and the editor when the field applies to EXPERIMENT.
    void updateRelevance(const HerdExperiment& experiment);
};
