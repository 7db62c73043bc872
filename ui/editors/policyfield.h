// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QString>
#include <QStringList>

#include <functional>

class QLabel;
class QWidget;

// One row of the policy form: the editor widget, how it reads from and writes to a RetryPolicy, and
// the JSON path validate() reports its problems under (so the right field turns red).
struct PolicyField
{
    QString path; // "backoff.cap_ms"
    QStringList aliases; // other paths that belong here ("limits.max_retries"), or prefixes ("rules")
    QLabel* label = nullptr;
    QWidget* editor = nullptr;
    QLabel* message = nullptr; // the problem, shown under the editor
    QString labelText;
    std::function<void(const RetryPolicy&)> load;
    std::function<void(RetryPolicy&)> store;
    std::function<bool(const RetryPolicy&)> relevant; // unset: always; else the editor is disabled when false

    // True when PROBLEM_PATH is this field's path, an alias, or lies below one ("rules[2].when").
    bool owns(const QString& problemPath) const;
    // Shows MESSAGES (empty: clears) with the editor tinted from the palette's own colours.
    void setProblems(const QStringList& messages);
    // Marks the row as changed from the preset (bold label with a dot), or not.
    void setChanged(bool changed);
};
