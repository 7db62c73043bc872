// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Herd view's experiment builder: a built-in experiment to start from, then every part of it editable —
// the server model, the failure that strikes it, the clients, how long and how often it runs, and the one to
// four policies. Fields that do not apply are disabled (the rate of a closed loop); problems validate()
// finds show under their field, in red. Compact and scrollable: it lives in a side column.

#include "herd/form/herdfield.h"
#include "sim/herdexperiment.h"

#include <QWidget>

class HerdPolicyList;
class QComboBox;
class QLabel;

class HerdExperimentForm final : public QWidget
{
    Q_OBJECT
public:
    explicit HerdExperimentForm(QWidget* parent = nullptr);

    // The experiment as edited, with its policies.
    HerdExperiment experiment() const;
    void setExperiment(const HerdExperiment& experiment);
    // Loads a built-in experiment (HerdCatalog) with its default policies; false when unknown.
    bool loadBuiltIn(const QString& name);
    // What validate() says of the edited experiment; empty when it runs.
    QList<PolicyProblem> problems() const { return m_problems; }

    HerdPolicyList* policies() const { return m_policies; }
    QComboBox* experimentBox() const { return m_builtIns; }
    // The editor of the field at JSON path PATH ("clients.rate"), for tests; null when there is none.
    QWidget* editorFor(const QString& path) const;

Q_SIGNALS:
    void edited();

private:
    void build();
    void onEdited();
    void updateTitle();

    QList<HerdField> m_fields;
    HerdExperiment m_base; // what the fields do not show (name, title, source, claims, statuses left as they came)
    QList<PolicyProblem> m_problems;
    QComboBox* m_builtIns;
    QLabel* m_title;
    QLabel* m_otherProblems;
    QLabel* m_policyProblems = nullptr; // under the list: "policies[1].label: … is already the label of policies[0]"
    HerdPolicyList* m_policies;
    bool m_loading = false;
};
