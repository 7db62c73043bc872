// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The policy editor's Export pane (issue 30 §5): the edited policy as code for the chosen target and
// version, coloured, with what the target cannot express listed in red beside it; Copy and Save; and
// "Check with a real client" where the target runs here, which writes the unit and its ten-line client
// into a folder of its own and asks the Conform tab to judge it on the standard suite against the policy.

#include "codegen/codeexport.h"

#include <QWidget>

#include <memory>
#include <optional>

class CodeHighlighter;
class ElidedLabel;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTemporaryDir;

class CodeExportPane final : public QWidget
{
    Q_OBJECT
public:
    explicit CodeExportPane(QWidget* parent = nullptr);
    ~CodeExportPane() override;

    // The policy to export; nullopt while the editor's policy has problems (the pane says so).
    void setPolicy(const std::optional<RetryPolicy>& policy);
    // Selects target ID (and VERSION when given); false when unknown.
    bool selectTarget(const QString& id, const QString& version = {});

    QComboBox* targetBox() const { return m_target; }
    QComboBox* versionBox() const { return m_version; }
    QPlainTextEdit* codeView() const { return m_code; }
    QListWidget* lostList() const { return m_lost; }
    QLabel* verdictLabel() const { return m_verdict; }
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* checkButton() const { return m_check; }
    // Why the real-client check cannot run for the chosen target here; empty when it can.
    QString checkUnavailableReason() const;
    // Writes the unit and its client into a fresh folder; the shell command that runs the client there, or
    // empty with *error set.
    QString prepareCheck(QString* error);

Q_SIGNALS:
    // Run COMMAND (a /bin/sh line) under `conform` on the standard suite against the editor's policy.
    void checkRequested(const QString& command, const QString& what);
    void statusMessage(const QString& text);

private:
    const CodeTarget* currentTarget() const;
    void fillVersions();
    void regenerate();
    void copy();
    void save();
    void check();

    std::optional<RetryPolicy> m_policy;
    std::optional<CodeExport> m_export;
    QComboBox* m_target;
    QComboBox* m_version;
    QPlainTextEdit* m_code;
    CodeHighlighter* m_highlighter;
    QLabel* m_verdict;
    QListWidget* m_lost;
    QPushButton* m_copy;
    QPushButton* m_save;
    QPushButton* m_check;
    ElidedLabel* m_checkNote; // why the check cannot run here, beside the greyed button
    std::unique_ptr<QTemporaryDir> m_checkDir;
};
