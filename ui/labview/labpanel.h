// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QWidget>

#include <vector>

class LabEventStore;
struct LabEvent;
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;
class QToolButton;
class RunController;
class ScenarioEditor;
class ScenarioOutline;
struct LiveSessionDelta;

// The fault lab: on/off, its address, the scenario picker and a readable outline of the scenario, the
// ledger (requests received, operations applied, attempts received twice) updating live, and reset.
// Every action goes through the RunController. While a saved session is shown (opened, played back), the
// panel shows that recording's scenario and counts the ledger from its events up to the playhead, beside
// the live lab's state, so the outline, the log and the numbers all describe the same session.
// Edit swaps the outline for the ScenarioEditor: the lab's scenario edited in place, each valid edit played
// by the lab at once (through the RunController), saved as scenario JSON.
class LabPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LabPanel(RunController* controller, QWidget* parent = nullptr);

    int shownRequests() const { return m_requests; }
    int shownOperations() const { return m_operations; }
    int shownDuplicates() const; // attempt ids the lab received more than once (the ledger's "twice")
    bool isShowingRecording() const { return m_recording; }
    QString shownScenarioName() const;
    ScenarioEditor* editor() const { return m_editor; }
    QToolButton* editButton() const { return m_edit; }
    void setEditing(bool editing);

public Q_SLOTS:
    // A recording is shown in the views: SCENARIO is the document it was recorded with (empty: the lab was
    // not used). showLive() goes back to the running lab (a new batch).
    void showRecording(const QJsonObject& scenario);
    void showLive();

private:
    void refreshState();
    void refreshLedger();
    void countRecording(qsizetype from, qsizetype to);
    void onSessionRefreshed(const LiveSessionDelta& delta);
    void onLabEvent(const LabEvent& event); // heard while nothing records it
    static QString logLine(const LabEvent& event); // empty: the event has no line
    void onScenarioPicked(int index);
    void openScenarioFile();

    RunController* m_controller;
    QCheckBox* m_enabled;
    QLabel* m_address;
    QComboBox* m_scenarios;
    QLabel* m_description;
    QToolButton* m_edit;
    QStackedWidget* m_views;
    ScenarioOutline* m_outline;
    ScenarioEditor* m_editor;
    QLabel* m_requestsLabel;
    QLabel* m_operationsLabel;
    QLabel* m_duplicatesLabel;
    QCheckBox* m_resetBeforeRun;
    QPlainTextEdit* m_log;
    QSplitter* m_split = nullptr; // the outline or editor above the log
    QLabel* m_recordingNote;
    int m_requests = -1;
    int m_operations = -1;
    bool m_recording = false;
    QString m_recordingScenario;
    // The recording's ledger, from the lab events shown so far.
    int m_recordedRequests = 0;
    int m_recordedOperations = 0;
    // Requests received per attempt id, indexed by the lab event store's attempt-id token (saturates at 2:
    // only "more than once" is shown). A byte per distinct text of the store, no string per event.
    std::vector<quint8> m_recordedReceipts;
    const LabEventStore* m_countedStore = nullptr; // the store the tokens above belong to
    int m_recordedTwice = 0; // attempt ids received more than once, kept as they are counted (not a scan per refresh)
};
