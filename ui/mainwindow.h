// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The desktop lab's main window: request and policy editors on the left, the live views in the centre,
// the fault lab on the right, Run / Run N× / Stop in the toolbar, progress and status at the bottom.
// It only wires widgets to the RunController and forwards intent; it decides nothing itself.

#include <QMainWindow>

#include "sessions/sessiondocument.h"

#include <memory>

class AttemptsPage;
class CompareView;
class ConformanceView;
class ElidedLabel;
class HelpWindow;
class HerdView;
class PlaybackBar;
class RecentFilesMenu;
class RecoveryPrompt;
class ReplayActions;
class SessionFeeder;
class SessionFileActions;
class LabPanel;
class PolicyEditor;
class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class RequestEditor;
class Clock;
class RunController;
class Scheduler;
class TimelineView;
class DelayChartView;
class RateLimitChartView;
class SummaryView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // CLOCK and SCHEDULER time every batch and live replay the window starts; they must outlive it.
    MainWindow(const Clock& clock, Scheduler& scheduler, QWidget* parent = nullptr);
    ~MainWindow() override;

    RunController* controller() const { return m_controller; }
    RequestEditor* requestEditor() const { return m_request; }
    PolicyEditor* policyEditor() const { return m_policy; }
    LabPanel* labPanel() const { return m_lab; }
    AttemptsPage* attemptsPage() const { return m_attempts; }
    QTabWidget* liveViews() const { return m_views; }
    TimelineView* timeline() const { return m_timeline; }
    DelayChartView* delayChart() const { return m_delayChart; }
    RateLimitChartView* rateLimitChart() const { return m_rateLimitChart; }
    SummaryView* summary() const { return m_summary; }
    CompareView* compareView() const { return m_compare; }
    ConformanceView* conformanceView() const { return m_conformance; }
    HerdView* herdView() const { return m_herd; }
    PlaybackBar* playbackBar() const { return m_playback; }
    SessionFileActions* sessionFiles() const { return m_files; }
    ReplayActions* replays() const { return m_replays; }
    RecoveryPrompt* recovery() const { return m_recovery; }
    SessionFeeder* feeder() const { return m_feeder; }
    QAction* runAction() const { return m_runAction; }
    QAction* runManyAction() const { return m_runManyAction; }
    QAction* stopAction() const { return m_stopAction; }
    ElidedLabel* statusText() const { return m_status; }
    QProgressBar* progressBar() const { return m_progress; }
    HelpWindow* helpWindow() const { return m_help; }
    bool isCompactLayout() const { return m_compact; }
    bool isShowingPolicyProblem() const { return m_showingPolicyProblem; }
    void showHelpPage(int page) { showHelp(page); }

public Q_SLOTS:
    void runOnce();
    void runMany();
    void stop();
    // Saves the window's pictures into DIRECTORY once the next batch has ended (or at once when none is
    // started), then closes (--screenshot DIR; windowshots.h).
    void saveScreenshotWhenIdle(const QString& directory);
    // Shows SESSION in every view as the current session (the sessions' intents end here).
    void showSession(std::shared_ptr<const Session> session, const QString& path, SessionDocument::Origin origin,
        bool savedByUser);
    // Opens FILE: a session (shown in the views) or a policy (into the editor), by its content.
    void openFile(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void createStatusBar();
    void startRun(int repeat);
    void onRunningChanged(bool running);
    void onProgress(int finished, int total);
    void updateRunManyText();
    void createSessionParts();
    void updateSessionActions();
    void dropFeeder();
    void warn(const QString& title, const QString& text);
    void exportCurrentView();
    void openPolicyFile(const QString& path, const QString& title = QString());
    void openPolicy();
    void savePolicyAs();
    void showAbout();
    void showHelp(int page);
    void showStatus(const QString& text);
    void showPolicyProblem();
    // "Send to Herd": the editor's policy against the Herd view's last experiment, the Herd tab shown.
    void sendPolicyToHerd();
    // Opens within the screen's available area: the saved geometry if it fits there, else WindowFit's,
    // with the fault lab tabbed beside the editors on a narrow screen.
    void placeOnScreen();
    void useCompactLayout(int width);
    void setSessionTitle(const QString& title);

    RunController* m_controller;
    QTabWidget* m_views = nullptr;
    AttemptsPage* m_attempts = nullptr;
    TimelineView* m_timeline = nullptr;
    DelayChartView* m_delayChart = nullptr;
    RateLimitChartView* m_rateLimitChart = nullptr;
    SummaryView* m_summary = nullptr;
    CompareView* m_compare = nullptr;
    ConformanceView* m_conformance = nullptr;
    HerdView* m_herd = nullptr;
    PlaybackBar* m_playback = nullptr;
    SessionFileActions* m_files = nullptr;
    ReplayActions* m_replays = nullptr;
    RecoveryPrompt* m_recovery = nullptr;
    SessionFeeder* m_feeder = nullptr;
    QAction* m_playPause = nullptr;
    RequestEditor* m_request = nullptr;
    PolicyEditor* m_policy = nullptr;
    LabPanel* m_lab = nullptr;
    QProgressBar* m_progress = nullptr;
    ElidedLabel* m_status = nullptr;
    HelpWindow* m_help = nullptr;
    bool m_showingPolicyProblem = false;
    bool m_compact = false;
    RecentFilesMenu* m_recentPolicies = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_runManyAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_quitAction = nullptr;
};
