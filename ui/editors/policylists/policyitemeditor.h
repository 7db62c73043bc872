// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Edits the selected item of a PolicyListModel (a rule, a delay hint) in place: every user edit is
// written to the model at once and announced by edited(). Its fields are PolicyFields whose paths are
// relative to the item ("when.statuses"), so validate()'s "rules[2].when.statuses[0]" lands on them.

#include "editors/policyfield.h"

#include <QList>
#include <QWidget>

class QGroupBox;

class PolicyItemEditor : public QWidget
{
    Q_OBJECT
public:
    explicit PolicyItemEditor(QWidget* parent = nullptr);

    // Shows the model's item at ROW; -1 shows nothing (and disables the fields). Drops typed-in text
    // that did not parse.
    virtual void loadRow(int row) = 0;
    int row() const { return m_row; }
    // True while the fields show exactly what the model holds at row() (no reload needed).
    virtual bool showsModelItem() const = 0;
    // Marks the fields that differ from the reference item at the same position.
    virtual void refreshMarks() = 0;

    // Shows PROBLEMS (paths relative to the item) at their fields; clears the others.
    void showProblems(const QList<PolicyProblem>& problems);
    // Text typed into a field that does not read as a value (paths relative to the item).
    QList<PolicyProblem> inputProblems() const { return m_inputProblems; }
    const QList<PolicyField>& fields() const { return m_fields; }
    const PolicyField* field(const QString& path) const;

Q_SIGNALS:
    void edited(); // the model's item changed, or an input problem appeared or went away

protected:
    // Records (or with an empty MESSAGE clears) the input problem of field PATH; true when it changed.
    bool setInputProblem(const QString& path, const QString& message);
    void clearInputProblems() { m_inputProblems.clear(); }
    void setTitle(const QString& title);

    QList<PolicyField> m_fields;
    QGroupBox* m_group = nullptr;
    int m_row = -1;
    bool m_loading = false;

private:
    QList<PolicyProblem> m_inputProblems;
};
