// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Edits one rule of a RuleListModel: every condition of RuleCondition, the action, the throttling mark,
// name and note. Each edit changes only the touched part of the rule, so the order of methods and error
// classes a preset lists is kept.

#include "editors/policylists/policyitemeditor.h"

#include "policy/retrypolicy.h"

#include <QHash>

#include <functional>

class QCheckBox;
class QComboBox;
class QLineEdit;
class PolicyFormBuilder;
class QPlainTextEdit;
class RuleListModel;
class StatusListEdit;

class RuleEditor : public PolicyItemEditor
{
    Q_OBJECT
public:
    explicit RuleEditor(RuleListModel* model, QWidget* parent = nullptr);

    void loadRow(int row) override;
    bool showsModelItem() const override;
    void refreshMarks() override;

    // The methods offered as check boxes; others are typed in a line.
    static QStringList commonMethods();
    // Header conditions as lines: "Name", "Name: a | b", "!Name" (must be absent).
    static QString headersText(const QList<HeaderMatch>& headers);
    static QList<HeaderMatch> headersFromText(const QString& text);

    QLineEdit* nameEdit() const { return m_name; }
    QComboBox* actionBox() const { return m_action; }
    StatusListEdit* statusEdit() const { return m_statuses; }
    QCheckBox* methodBox(const QString& method) const { return m_methods.value(method); }
    QCheckBox* errorBox(ErrorClass error) const { return m_errors.value(int(error)); }
    QPlainTextEdit* headersEdit() const { return m_headers; }

private:
    void build();
    void commit();
    // Adds a row whose change is compared with the reference by SAME.
    PolicyField& addRow(PolicyFormBuilder& b, const QString& path, const QString& label, QWidget* editor,
        std::function<bool(const RetryRule&, const RetryRule&)> same, const QString& help = {});
    QWidget* methodsEditor();
    QWidget* errorsEditor();
    QWidget* bodyEditor();
    void onMethodToggled(const QString& method, bool on);
    void onOtherMethodsEdited();
    void onStatusesEdited();

    RuleListModel* m_model;
    RetryRule m_item;
    QHash<QString, std::function<bool(const RetryRule&, const RetryRule&)>> m_same;
    QLineEdit* m_name = nullptr;
    QComboBox* m_action = nullptr;
    QCheckBox* m_throttling = nullptr;
    QComboBox* m_outcome = nullptr;
    QHash<QString, QCheckBox*> m_methods;
    QLineEdit* m_otherMethods = nullptr;
    QComboBox* m_key = nullptr;
    StatusListEdit* m_statuses = nullptr;
    QHash<int, QCheckBox*> m_errors;
    QComboBox* m_couldHaveActed = nullptr;
    QComboBox* m_afterLostAnswer = nullptr;
    QCheckBox* m_bodyOn = nullptr;
    QLineEdit* m_bodyPath = nullptr;
    QLineEdit* m_bodyValues = nullptr;
    QPlainTextEdit* m_headers = nullptr;
    QLineEdit* m_note = nullptr;
};
