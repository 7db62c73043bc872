// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class RunController;
class ScenarioOutline;
struct LiveSessionDelta;

// The fault lab: on/off, its address, the scenario picker and a readable outline of the scenario, the
// ledger (requests received, operations applied, attempts received twice) updating live, and reset.
// Every action goes through the RunController.
class LabPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LabPanel(RunController* controller, QWidget* parent = nullptr);

    int shownRequests() const { return m_requests; }
    int shownOperations() const { return m_operations; }

private:
    void refreshState();
    void refreshLedger();
    void onSessionRefreshed(const LiveSessionDelta& delta);
    void onScenarioPicked(int index);
    void openScenarioFile();

    RunController* m_controller;
    QCheckBox* m_enabled;
    QLabel* m_address;
    QComboBox* m_scenarios;
    QLabel* m_description;
    ScenarioOutline* m_outline;
    QLabel* m_requestsLabel;
    QLabel* m_operationsLabel;
    QLabel* m_duplicatesLabel;
    QCheckBox* m_resetBeforeRun;
    QPlainTextEdit* m_log;
    int m_requests = -1;
    int m_operations = -1;
};
