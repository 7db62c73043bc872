// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The policies of a herd experiment: one to four, each with a label the charts and the table use (edited in
// place), added from the built-in presets or from the policy editor, removed, each row in its chart colour.
// An experiment opened with more (aws-2015 compares five algorithms) keeps them all; none can be added then.

#include "sim/herdexperiment.h"

#include <QWidget>

#include <functional>
#include <optional>

class QListWidget;
class QToolButton;

class HerdPolicyList final : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxPolicies = 4;

    explicit HerdPolicyList(QWidget* parent = nullptr);

    // Where "Add the editor's policy" takes it from (nullopt while the editor's policy has problems).
    void setEditorPolicy(std::function<std::optional<RetryPolicy>()> provider);

    QList<HerdPolicy> policies() const { return m_policies; }
    void setPolicies(const QList<HerdPolicy>& policies);
    // Adds POLICY under a label no other row has ("slen (2)"); false when four or more are listed.
    bool add(HerdPolicy policy);
    bool addPreset(const QString& name);
    bool addEditorPolicy();
    // Replaces the row labelled as POLICY is, or adds it; when four or more are listed, replaces the last.
    // Returns its row.
    int put(const HerdPolicy& policy);
    void remove(int row);

    QListWidget* list() const { return m_list; }
    QToolButton* presetButton() const { return m_addPreset; }

Q_SIGNALS:
    void changed();
    // Something the user asked for could not be done (the editor's policy has problems), in words.
    void problem(const QString& message);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void onLabelEdited(int row);
    void updateButtons();
    QString uniqueLabel(const QString& wanted, int except) const;

    QList<HerdPolicy> m_policies;
    std::function<std::optional<RetryPolicy>()> m_editorPolicy;
    QListWidget* m_list;
    QToolButton* m_addPreset;
    QToolButton* m_addEditor;
    QToolButton* m_remove;
    bool m_rebuilding = false;
};
