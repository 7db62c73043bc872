// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <functional>

class QLabel;
class QPalette;
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
    // Set by editors that show problems inside themselves (the rule and hint lists): takes the problems
    // this field owns and returns those it could not place, which the field shows under the editor.
    std::function<QList<PolicyProblem>(const QList<PolicyProblem>&)> placeProblems;
    bool tintEditor = true; // false: a problem shows its message but leaves the editor's colours alone

    // True when PROBLEM_PATH is this field's path, an alias, or lies below one ("rules[2].when").
    bool owns(const QString& problemPath) const;
    // Shows MESSAGES (empty: clears) with the editor tinted from the palette's own colours.
    void setProblems(const QStringList& messages);
    // Marks the row as changed from the preset (bold label with a dot), or not.
    void setChanged(bool changed);
};

// True when PATH is PREFIX or lies below it: "rules[2].when" is under "rules" and "rules[2]".
bool problemPathUnder(const QString& path, const QString& prefix);
// Shows MESSAGES (empty: clears) in MESSAGE under EDITOR, in the problem colour; with TINT the editor's
// background is tinted and its tooltip says them (IDLE_TOOLTIP when there are none). FLAG names the editor's
// property that records whether it shows a problem (the forms' tests read it).
void showFieldProblems(QWidget* editor, QLabel* message, const QStringList& messages, bool tint, const QString& idleTooltip,
    const char* flag);

// The red of a problem, readable on PALETTE: darker on light themes, lighter on dark ones.
QColor problemColour(const QPalette& palette);
// PALETTE's base colour tinted towards problemColour(), for the background of a field with a problem.
QColor problemBase(const QPalette& palette);
