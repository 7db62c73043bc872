// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Picks and edits the retry policy: a preset picker (each with its source), the form, the JSON kept in
// sync both ways, two previews computed as you type — the decision table and the delay distribution — and
// the policy exported as code for the library the user runs (codeexport/codeexportpane.h).

#include "policy/retrypolicy.h"
#include "policy/settings/policychanges.h"

#include <QTimer>
#include <QWidget>

#include <optional>

class CodeExportPane;
class DecisionTableModel;
class DelayPreview;
class PolicyForm;
class QAction;
class QDialog;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QToolButton;

class PolicyEditor : public QWidget
{
    Q_OBJECT
public:
    explicit PolicyEditor(QWidget* parent = nullptr);

    // The edited policy when it has no problem; nullopt otherwise (the form and JSON tab say why).
    std::optional<RetryPolicy> policy() const;
    // Loads a built-in preset (the reference for "changed" marks); false when unknown.
    bool loadPreset(const QString& name);
    QString presetName() const { return m_presetName; }
    // Returns a translated problem, or empty on success.
    QString loadFile(const QString& path);
    // Shows POLICY (from elsewhere: ORIGIN says where), marked against the preset of its name.
    void setPolicy(const RetryPolicy& policy, const QString& origin);
    QString saveFile(const QString& path) const;
    // The preset (or file) the edited policy started from and the fields changed in it, as the command
    // line's --set reports them: "preset curl-7.88, changed: limits.max_retries 7 → 3".
    PolicyChanges changes() const;

    PolicyForm* form() const { return m_form; }
    DecisionTableModel* decisionModel() const { return m_decisions; }
    DelayPreview* delayPreview() const { return m_delays; }
    CodeExportPane* exportPane() const { return m_export; }
    QPlainTextEdit* jsonEdit() const { return m_json; }
    QTabWidget* tabs() const { return m_tabs; }
    enum class Page { Form, Json, Decisions, Delays, Export }; // the tabs, in order
    void showPage(Page page);
    // "Send to Herd": asks for the edited policy to run against the Herd view's last experiment.
    QAction* sendToHerdAction() const { return m_sendToHerd; }
    // "Export as Code…": the Export pane in a window of its own, roomier than the dock, kept in step with the
    // edited policy; the window once opened (null before).
    QAction* exportAsCodeAction() const { return m_exportAsCode; }
    QDialog* exportWindow() const { return m_exportWindow; }

Q_SIGNALS:
    void policyChanged();
    void sendToHerdRequested();
    // The Export pane's "Check with a real client": run COMMAND under conformance against this policy.
    void checkWithClientRequested(const QString& command, const QString& what);
    void statusMessage(const QString& text);

private:
    void onPresetPicked(int index);
    void onFormEdited();
    void onJsonEdited();
    void applyJson();
    void setCurrent(const RetryPolicy& policy, bool updateJson);
    void updatePreviews();
    void openExportWindow();
    void updateChangedLabel();
    void setReference(const RetryPolicy& reference, const QString& base, PolicyChanges::BaseKind kind);

    QComboBox* m_presets;
    QLabel* m_source;
    QLabel* m_changed;
    QToolButton* m_revert;
    QAction* m_sendToHerd;
    QAction* m_exportAsCode;
    QDialog* m_exportWindow = nullptr;
    QTabWidget* m_tabs;
    PolicyForm* m_form;
    QPlainTextEdit* m_json;
    QLabel* m_jsonProblems;
    DecisionTableModel* m_decisions;
    QTableView* m_decisionView;
    QLabel* m_waits;
    DelayPreview* m_delays;
    CodeExportPane* m_export;
    QTimer m_jsonTimer;
    QTimer m_previewTimer;
    RetryPolicy m_preset;
    QString m_presetName;
    QString m_base; // what the changes are against: the preset's name, the file, the policy's name
    PolicyChanges::BaseKind m_baseKind = PolicyChanges::BaseKind::Preset;
    QList<PolicyProblem> m_problems;
    bool m_settingJson = false;
};
