// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Edits one delay hint of a HintListModel: the header and how it is read, the statuses it is honoured
// on, how it combines with the backoff, its maximum, and every flag of DelayHint.

#include "editors/policylists/policyitemeditor.h"

#include "policy/retrypolicy.h"

#include <QHash>

#include <functional>

class HintListModel;
class PolicyFormBuilder;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;
class StatusListEdit;

class HintEditor : public PolicyItemEditor
{
    Q_OBJECT
public:
    explicit HintEditor(HintListModel* model, QWidget* parent = nullptr);

    void loadRow(int row) override;
    bool showsModelItem() const override;
    void refreshMarks() override;

    QLineEdit* headerEdit() const { return m_header; }
    StatusListEdit* statusEdit() const { return m_statuses; }
    QSpinBox* maxSpin() const { return m_max; }
    QComboBox* overMaxBox() const { return m_overMax; }
    // The check box of flag PATH ("jittered", "resets_exponent", …).
    QCheckBox* flagBox(const QString& path) const { return m_flags.value(path); }

private:
    void build();
    void commit();
    void updateRelevance();
    template<typename Acc>
    PolicyField& addRow(PolicyFormBuilder& b, const QString& path, const QString& label, QWidget* editor, Acc acc,
        const QString& help = {});
    template<typename Acc>
    void addFlag(PolicyFormBuilder& b, const QString& path, const QString& label, const QString& text, Acc acc);
    void onStatusesEdited();

    HintListModel* m_model;
    DelayHint m_item;
    QHash<QString, std::function<bool(const DelayHint&, const DelayHint&)>> m_same;
    QHash<QString, std::function<void()>> m_loaders; // field path → shows m_item's value
    QLineEdit* m_header = nullptr;
    QComboBox* m_format = nullptr;
    StatusListEdit* m_statuses = nullptr;
    QComboBox* m_combine = nullptr;
    QSpinBox* m_window = nullptr;
    QSpinBox* m_max = nullptr;
    QComboBox* m_overMax = nullptr;
    QHash<QString, QCheckBox*> m_flags;
};
