// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Herd tab (issue 29 §3): build an experiment — or start from a built-in one — on the left; run it off
// the GUI thread with progress and cancel; see each measure over time as small charts on one time axis,
// the policies side by side, the totals as a table, and where a policy tipped the server into collapse.
// The charts export as PNG or SVG, the data as CSV or JSON; experiments save to a file and open again.
// "Send to Herd" in the policy editor ends in runPolicy(): the editor's policy against the last experiment.

#include "policy/retrypolicy.h"
#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <QElapsedTimer>
#include <QWidget>

#include <functional>
#include <optional>

class FleetComparisonView;
class HerdChartStack;
class HerdExperimentForm;
class HerdRunner;
class HerdTotalsModel;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;
class QToolButton;

class HerdView final : public QWidget
{
    Q_OBJECT
public:
    explicit HerdView(QWidget* parent = nullptr);
    ~HerdView() override;

    // Where "Add Edited" and runPolicy() come from (nullopt while the editor's policy has problems).
    void setEditorPolicy(std::function<std::optional<RetryPolicy>()> provider);

    // Runs the experiment the form shows; false (the reason in the status line) when it has problems.
    bool run();
    void cancel();
    bool isRunning() const;
    // POLICY added to the last experiment run (the form's when none has run yet), replacing the one of the
    // same label, and run: "Send to Herd". False when the experiment cannot run.
    bool runPolicy(const RetryPolicy& policy);

    // The experiment file at PATH into the form; a problem is shown in a message box and returned.
    QString openExperiment(const QString& path);
    QString saveExperiment(const QString& path) const;
    // What the charts show as a picture (PNG or SVG by PATH's suffix); a problem is returned.
    QString exportCharts(const QString& path);
    // The data shown: JSON, CSV (one file), or a CSV per policy in a folder; a problem is returned.
    QString exportJson(const QString& path) const;
    QString exportCsv(const QString& path) const;
    QString exportCsvFolder(const QString& directory) const;
    // What `retrylab fleet --compare-herd --json` printed at PATH, measured against simulated, in place of the
    // charts and table until "Back to the Simulation" or the next run (issue 32); a problem is returned.
    QString openFleetResult(const QString& path);
    FleetComparisonView* fleetView() const { return m_fleet; }
    bool isShowingFleet() const;
    void setFleetVisible(bool visible);

    HerdExperimentForm* form() const { return m_form; }
    HerdRunner* runner() const { return m_runner; }
    HerdChartStack* charts() const { return m_charts; }
    HerdTotalsModel* totals() const { return m_totals; }
    QTableView* table() const { return m_table; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    // Shows or hides the experiment builder's column (the charts take its room); Run hides it in a narrow tab.
    void setBuilderVisible(bool visible);
    bool isBuilderVisible() const;
    // The result the charts and the table show, and the experiment it came from.
    const HerdResult& shownResult() const { return m_shown; }
    const HerdExperiment& shownExperiment() const { return m_shownExperiment; }

Q_SIGNALS:
    void statusMessage(const QString& text);
    void runningChanged(bool running);
    // A run ended and the view shows it (or, CANCELLED, still shows the one before).
    void runFinished(bool cancelled);

private:
    QWidget* buildBar();
    QWidget* buildFileRow();
    void onFinished(bool cancelled);
    void onProgress(double share);
    void setStatus(const QString& text, bool problem = false);
    void updateActions();
    void chooseOpen();
    void chooseFleetResult();
    void chooseSave();
    void chooseExport(int kind);
    void warn(const QString& title, const QString& text);
    QString exportSubtitle() const;
    QString summaryOf(const HerdResult& result) const;

    HerdExperimentForm* m_form;
    HerdRunner* m_runner;
    HerdChartStack* m_charts;
    HerdTotalsModel* m_totals;
    QTableView* m_table;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QToolButton* m_export = nullptr;
    QSplitter* m_results = nullptr;
    FleetComparisonView* m_fleet = nullptr;
    QWidget* m_builder = nullptr;
    QToolButton* m_builderToggle = nullptr;
    HerdResult m_shown;
    HerdExperiment m_shownExperiment;
    std::optional<HerdExperiment> m_lastRun; // the last experiment that ran to its end
    QElapsedTimer m_elapsed;
};
