// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A form for every field of a RetryPolicy. It edits a copy: policy() is the loaded policy with every
// field read back from its editor, so loading a preset and reading it back gives the preset unchanged.
// The ordered delay hints and rules are lists with an editor for the selected item. Problems from
// validate() turn their field (or list row) red with the message under it; fields that differ from the
// reference (the preset) are marked.

#include "editors/policyfield.h"

#include "policy/retrypolicy.h"

#include <QList>
#include <QWidget>

class HintListModel;
class PipelineDiagram;
class PolicyFormBuilder;
class PolicyListSection;
class RuleListModel;
class StrategyListModel;

class PolicyForm : public QWidget
{
    Q_OBJECT
public:
    explicit PolicyForm(QWidget* parent = nullptr);

    void setPolicy(const RetryPolicy& policy);
    RetryPolicy policy() const;
    // What "changed" is measured against (the preset the policy started from).
    void setReference(const RetryPolicy& reference);
    // Shows PROBLEMS and inputProblems() at their fields (and clears the others); returns those no field owns.
    QList<PolicyProblem> showProblems(const QList<PolicyProblem>& problems);
    // Text typed into a field that does not read as a value (e.g. a status "5x"): policy() leaves it out,
    // so validate() cannot see it; these say what is wrong, under the field's path.
    QList<PolicyProblem> inputProblems() const;
    int changedFieldCount() const { return m_changed; }
    const QList<PolicyField>& fields() const { return m_fields; }
    PolicyListSection* ruleSection() const { return m_ruleSection; }
    PolicyListSection* hintSection() const { return m_hintSection; }
    // The resilience pipeline, outermost first, and its picture as nested boxes.
    PolicyListSection* pipelineSection() const { return m_pipelineSection; }
    PipelineDiagram* pipelineDiagram() const { return m_pipelineDiagram; }
    // The diagram's labels for POLICY: one per strategy, the retry's with its limit and backoff.
    static QStringList pipelineLabels(const RetryPolicy& policy);

Q_SIGNALS:
    void edited(); // the user changed a field

private:
    void build();
    void connectEditor(QWidget* editor);
    void onEdited();
    void refreshMarks(const RetryPolicy& current);
    void buildPipeline(PolicyFormBuilder& b);
    void updateDiagram();

    QList<PolicyField> m_fields;
    RuleListModel* m_ruleModel = nullptr;
    HintListModel* m_hintModel = nullptr;
    PolicyListSection* m_ruleSection = nullptr;
    PolicyListSection* m_hintSection = nullptr;
    StrategyListModel* m_strategyModel = nullptr;
    PolicyListSection* m_pipelineSection = nullptr;
    PipelineDiagram* m_pipelineDiagram = nullptr;
    RetryPolicy m_base;
    RetryPolicy m_reference;
    bool m_loading = false;
    int m_changed = 0;
};
