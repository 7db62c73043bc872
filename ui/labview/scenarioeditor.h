// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/scenarioloader.h"

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QToolButton;
class QTreeView;
class RouteForm;
class ScenarioEditModel;
class StepForm;

// Edits a scenario document: its name, seed and upstream, its routes and their steps (add, remove, move up
// and down; a form for the one selected). Every edit is judged by ScenarioLoader::fromObject, the loader
// scenario files go through, shortly after it is made: a valid document is handed on (scenarioReady, the
// lab panel loads it into the running lab); an invalid one stays in the editor as typed, the loader's
// problems shown and marked on their rows, and the lab keeps playing the last valid one.
class ScenarioEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ScenarioEditor(QWidget* parent = nullptr);

    // Starts editing DOCUMENT (the scenario the lab plays, or one opened); not handed on (it is in use).
    void setDocument(const QJsonObject& document);
    QJsonObject document() const;
    QJsonObject appliedDocument() const { return m_applied; } // the last valid document handed on or set
    // Judges the document now (edits are judged 250 ms after the last one); true when it is valid.
    bool applyNow();
    const ScenarioLoader::Result& lastResult() const { return m_result; }
    QString statusText() const;

    // A scenario with one catch-all route answering 200, to build on.
    void newScenario();
    void addRoute();
    void addStep();
    void removeSelected();
    void moveSelected(int by); // -1 up, +1 down, among its siblings
    void select(int route, int step = -1);
    // Writes the document as scenario JSON (what `retrylab serve --scenario FILE` reads); only a valid one.
    bool saveAs(const QString& fileName, QString* error = nullptr);

    ScenarioEditModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    RouteForm* routeForm() const { return m_routeForm; }
    StepForm* stepForm() const { return m_stepForm; }
    QLineEdit* upstreamEdit() const { return m_upstream; }

Q_SIGNALS:
    void scenarioReady(const FaultScenario& scenario);

private:
    void showSelected();
    void updateButtons();
    void showResult();
    void askSaveAs();

    ScenarioEditModel* m_model;
    QJsonObject m_applied;
    ScenarioLoader::Result m_result;
    QTimer* m_judge;
    QLineEdit* m_name;
    QLineEdit* m_upstream;
    QSpinBox* m_seed;
    QTreeView* m_tree;
    QStackedWidget* m_forms;
    RouteForm* m_routeForm;
    StepForm* m_stepForm;
    QLabel* m_status;
    QToolButton* m_addStep;
    QToolButton* m_remove;
    QToolButton* m_up;
    QToolButton* m_down;
};
