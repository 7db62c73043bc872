// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A form for every field of a RetryPolicy. It edits a copy: policy() is the loaded policy with every
// field read back from its editor, so loading a preset and reading it back gives the preset unchanged.
// Rules and hints are listed read-only (edit them in the JSON tab). Problems from validate() turn their
// field red with the message under it; fields that differ from the reference (the preset) are marked.

#include "editors/policyfield.h"

#include "policy/retrypolicy.h"

#include <QList>
#include <QWidget>

class QTreeWidget;

class PolicyForm : public QWidget
{
    Q_OBJECT
public:
    explicit PolicyForm(QWidget* parent = nullptr);

    void setPolicy(const RetryPolicy& policy);
    RetryPolicy policy() const;
    // What "changed" is measured against (the preset the policy started from).
    void setReference(const RetryPolicy& reference);
    // Shows PROBLEMS at their fields (and clears the others); returns those no field owns.
    QList<PolicyProblem> showProblems(const QList<PolicyProblem>& problems);
    int changedFieldCount() const { return m_changed; }
    const QList<PolicyField>& fields() const { return m_fields; }

Q_SIGNALS:
    void edited(); // the user changed a field

private:
    void build();
    void connectEditor(QWidget* editor);
    void onEdited();
    void refreshMarks(const RetryPolicy& current);
    void fillRules(const RetryPolicy& policy);

    QList<PolicyField> m_fields;
    QTreeWidget* m_rules = nullptr;
    RetryPolicy m_base;
    RetryPolicy m_reference;
    bool m_loading = false;
    int m_changed = 0;
};
