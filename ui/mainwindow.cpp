// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "appsettings.h"
#include "conformance/conformanceview.h"
#include "editors/policyeditor.h"
#include "editors/requesteditor.h"
#include "herd/herdview.h"
#include "labview/labpanel.h"
#include "livesession.h"
#include "delaychartview.h"
#include "ratelimitchartview.h"
#include "run/attemptspage.h"
#include "run/proxypanel.h"
#include "run/runcontroller.h"
#include "sessions/chartexport.h"
#include "sessions/compareview.h"
#include "sessions/playbackbar.h"
#include "sessions/recoveryprompt.h"
#include "sessions/replayactions.h"
#include "sessions/sessiondocument.h"
#include "sessions/sessionfeeder.h"
#include "sessions/sessionfileactions.h"
#include "sessions/sessiontexts.h"
#include "shell/dockscrollarea.h"
#include "shell/elidedlabel.h"
#include "shell/helpwindow.h"
#include "shell/recentfilesmenu.h"
#include "shell/wheelguard.h"
#include "shell/windowfit.h"
#include "summaryview.h"
#include "timelineview.h"
#include "windowshots.h"

#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "policy/presetcatalog.h"
#include "replay/replayrunner.h"
#include "session/format/sessionfile.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QTableView>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

using namespace Qt::StringLiterals;

MainWindow::MainWindow(const Clock& clock, Scheduler& scheduler, QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new RunController(clock, scheduler, this))
{
    setWindowTitle(tr("Retrylab"));
    setObjectName(u"MainWindow"_s);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    m_views = new QTabWidget(this);
    m_views->setDocumentMode(true);
    LiveSession* session = m_controller->session();
    m_timeline = new TimelineView(session, m_views);
    m_attempts = new AttemptsPage(session, m_views);
    m_delayChart = new DelayChartView(session, m_views);
    m_rateLimitChart = new RateLimitChartView(session, m_views);
    m_summary = new SummaryView(session, m_views);
    m_compare = new CompareView(m_views);
    m_conformance = new ConformanceView(clock, scheduler, m_views);
    m_herd = new HerdView(m_views);
    m_views->addTab(m_timeline, tr("&Timeline"));
    m_views->addTab(m_delayChart, tr("&Delays"));
    m_views->addTab(m_rateLimitChart, tr("&Limits"));
    m_views->addTab(m_attempts, tr("&Attempts"));
    m_views->addTab(m_summary, tr("S&ummary"));
    m_views->addTab(m_compare, tr("Co&mpare"));
    m_views->addTab(m_conformance, tr("Co&nform"));
    m_views->addTab(m_herd, tr("Herd")); // every letter of it is already a mnemonic (Help, Edit, Run, Delays)
    // Eight tabs in the centre at 1280×720 with both docks open: short names and a tighter tab padding keep
    // every one in view instead of hiding the first behind scroll arrows; narrower still, names are shortened
    // (whole in their tooltips).
    m_views->tabBar()->setStyleSheet(QStringLiteral("QTabBar::tab { padding: 4px 7px; }"));
    m_views->setUsesScrollButtons(false);
    m_views->setElideMode(Qt::ElideRight);
    const QStringList fullNames { tr("Timeline"), tr("Delays"), tr("Rate limits"), tr("Attempts"), tr("Summary"), tr("Compare"),
        tr("Conformance"), tr("Herd") };
    for (int i = 0; i < m_views->count() && i < fullNames.size(); ++i)
        m_views->setTabToolTip(i, fullNames.at(i));
    // The same attempt is highlighted in the timeline and the table, whichever the user picked it in.
    connect(m_timeline, &TimelineView::attemptSelected, m_attempts, &AttemptsPage::selectAttempt);
    connect(m_attempts, &AttemptsPage::attemptSelected, m_timeline, &TimelineView::selectAttempt);
    setCentralWidget(m_views);
    setAcceptDrops(true);

    m_playback = new PlaybackBar(this);
    createDocks();
    createSessionParts();
    createActions();
    createMenus();
    createStatusBar();

    connect(m_controller, &RunController::runningChanged, this, &MainWindow::onRunningChanged);
    connect(m_controller, &RunController::progressChanged, this, &MainWindow::onProgress);
    connect(m_controller, &RunController::statusChanged, this, &MainWindow::showStatus);
    connect(m_request, &RequestEditor::repeatChanged, this, &MainWindow::updateRunManyText);
    // Observing as a proxy: the panel shows the proxy's address, the CA and the hosts its clients reach.
    connect(m_controller, &RunController::proxyChanged, this, [this] {
        ProxyPanel* panel = m_request->proxyPanel();
        FaultServer* proxy = m_controller->proxyLab();
        panel->showProxy(proxy ? proxy->url().toString() : QString(), m_controller->proxyCaFingerprint(),
            m_controller->proxyCaPath(), m_controller->proxyShellLines());
        if (proxy) {
            connect(proxy, &FaultServer::proxyHostsChanged, panel, [panel, proxy] { panel->setHosts(proxy->proxyHosts()); });
            panel->setHosts(proxy->proxyHosts());
        }
    });
    connect(m_request->proxyPanel(), &ProxyPanel::interceptToggled, m_controller, &RunController::setProxyHostIntercepted);
    connect(m_request->proxyPanel(), &ProxyPanel::copied, this,
        [this] { showStatus(tr("Shell lines copied: paste them into another terminal, then run the program there")); });
    connect(m_controller, &RunController::labChanged, this, [this] {
        m_request->setLabUrl(m_controller->lab()->url());
        m_request->setLabScenario(m_controller->lab()->scenario());
    });
    connect(m_request, &RequestEditor::policyFromCurl, this, [this](const RetryPolicy& policy, const QString& label) {
        m_policy->setPolicy(policy, label);
        showStatus(tr("The policy editor shows the curl preset with the pasted command's options."));
    });
    // The lab panel describes the session the views show: the recording's scenario and ledger while a saved
    // session is shown or played back, the running lab's once a batch starts.
    connect(m_files->document(), &SessionDocument::changed, this, [this] {
        const SessionDocument* doc = m_files->document();
        if (doc->hasSession() && doc->origin() != SessionDocument::Origin::Recorded)
            m_lab->showRecording(doc->session()->scenario);
    });
    connect(m_controller->session(), &LiveSession::refreshed, this, [this](const LiveSessionDelta& delta) {
        const SessionDocument* doc = m_files->document();
        if (delta.clockMoved && m_controller->session()->clockMs() && !m_lab->isShowingRecording() && doc->hasSession())
            m_lab->showRecording(doc->session()->scenario);
    });
    connect(m_controller, &RunController::runningChanged, this, [this](bool running) {
        if (running)
            m_lab->showLive();
    });
    // Conformance judges the editor's policy or a preset, and the session the views show; a case's attempts
    // are shown on the timeline like any session, the attempt a finding is about selected.
    m_conformance->setEditorPolicy([this] { return m_policy->policy(); });
    connect(m_files->document(), &SessionDocument::changed, this,
        [this] { m_conformance->setShownSession(m_files->document()->session()); });
    connect(m_conformance, &ConformanceView::statusMessage, this, &MainWindow::showStatus);
    connect(m_conformance, &ConformanceView::showAttemptsRequested, this,
        [this](std::shared_ptr<const Session> judged, const QString& title, int runId, int attempt) {
            showSession(std::move(judged), title, SessionDocument::Origin::Judged, false);
            m_views->setCurrentWidget(m_timeline);
            m_timeline->selectAttempt(runId, attempt);
            m_attempts->selectAttempt(runId, attempt);
        });
    // The Herd view takes the editor's policy ("Add Edited", Send to Herd) and reports in the status bar.
    m_herd->setEditorPolicy([this] { return m_policy->policy(); });
    connect(m_herd, &HerdView::statusMessage, this, &MainWindow::showStatus);
    connect(m_policy, &PolicyEditor::sendToHerdRequested, this, &MainWindow::sendPolicyToHerd);
    connect(m_policy, &PolicyEditor::statusMessage, this, &MainWindow::showStatus);
    connect(m_policy, &PolicyEditor::checkWithClientRequested, this, [this](const QString& command, const QString& what) {
        m_views->setCurrentWidget(m_conformance);
        if (!m_conformance->judgeCommand(command, what))
            showStatus(tr("The Conform tab is already running a suite: stop it first."));
    });
    // "The policy has problems" goes once the policy is fixed.
    connect(m_policy, &PolicyEditor::policyChanged, this, [this] {
        if (m_showingPolicyProblem && m_policy->policy())
            showStatus(m_controller->statusText());
    });

    m_controller->startLab(ScenarioCatalog::defaultScenarioName());
    m_request->setLabUrl(m_controller->lab()->url());
    m_request->setLabScenario(m_controller->lab()->scenario());
    showStatus(m_controller->statusText());
    updateRunManyText();
    onRunningChanged(false);
    updateSessionActions();

    WheelGuard::install(qobject_cast<QApplication*>(QCoreApplication::instance()));
    placeOnScreen();
}

// The session actions (files; replay and compare; recovery) report intents; the window carries them out.
void MainWindow::createSessionParts()
{
    m_files = new SessionFileActions(this, this);
    ReplayActions::Editor editor;
    editor.policy = [this] { return m_policy->policy(); };
    editor.policyName = [this] { return m_policy->presetName().isEmpty() ? tr("the edited policy") : m_policy->presetName(); };
    m_replays = new ReplayActions(this, m_files->document(), m_controller, editor, this);
    m_recovery = new RecoveryPrompt(this, this);

    const auto status = [this](const QString& text) { showStatus(text); };
    connect(m_files, &SessionFileActions::statusMessage, this, status);
    connect(m_replays, &ReplayActions::statusMessage, this, status);
    connect(m_recovery, &RecoveryPrompt::statusMessage, this, status);
    connect(m_files, &SessionFileActions::warning, this, &MainWindow::warn);
    connect(m_replays, &ReplayActions::warning, this, &MainWindow::warn);
    connect(m_files, &SessionFileActions::showSessionRequested, this, &MainWindow::showSession);
    connect(m_files, &SessionFileActions::exportViewRequested, this, &MainWindow::exportCurrentView);
    connect(m_replays, &ReplayActions::policyNeeded, this, &MainWindow::showPolicyProblem);
    connect(m_replays, &ReplayActions::compareReady, this,
        [this](std::shared_ptr<const Session> a, const QString& nameA, std::shared_ptr<const Session> b, const QString& nameB) {
            m_compare->setSessions(std::move(a), nameA, std::move(b), nameB);
            m_views->setCurrentWidget(m_compare);
        });
    connect(m_replays, &ReplayActions::replayFinished, m_files, &SessionFileActions::setLastReplay);
    connect(m_replays, &ReplayActions::busyChanged, this, &MainWindow::updateSessionActions);
    connect(m_recovery, &RecoveryPrompt::restoredAll, this,
        [this](std::shared_ptr<const Session> newest, const QString& path, int restored, const QStringList& failures) {
            if (newest) {
                m_files->noteRecentSession(path);
                if (!m_controller->isRunning())
                    showSession(newest, path, SessionDocument::Origin::Recovered, true);
            }
            if (!failures.isEmpty())
                warn(tr("Recover Interrupted Sessions"), failures.join(u'\n'));
            showStatus(tr("Recovered %n session(s); the newest is shown.", nullptr, restored));
            updateSessionActions();
        });

    SessionDocument* document = m_files->document();
    connect(document, &SessionDocument::changed, this, [this, document] {
        setSessionTitle(document->hasSession() ? document->displayName() : QString());
        updateSessionActions();
    });
    connect(document, &SessionDocument::jobStarted, this, &MainWindow::updateSessionActions);
    connect(document, &SessionDocument::jobFinished, this, &MainWindow::updateSessionActions);
    connect(m_controller, &RunController::batchRecorded, this,
        [this, document](std::shared_ptr<const Session> session, const QString& path) {
            dropFeeder();
            m_feeder = new SessionFeeder(session, m_controller->session(), true, this);
            m_playback->setFeeder(m_feeder);
            document->setSession(std::move(session), SessionDocument::Origin::Recorded, path, false);
        });
    connect(m_controller, &RunController::runningChanged, this, [this](bool running) {
        if (running) {
            dropFeeder(); // the views show the new batch as it runs
            m_compare->clear(); // it compared an earlier session
        }
        updateSessionActions();
    });
    connect(m_controller, &RunController::recordingSaved, this, [this](const QString& path, bool ok, const QString& error) {
        if (!ok)
            showStatus(tr("The run could not be saved to %1: %2. Its journal is kept for recovery.").arg(path, error));
    });
}

void MainWindow::updateSessionActions()
{
    if (!m_files || !m_playPause)
        return;
    const bool running = m_controller->isRunning();
    const bool idle = !running && !m_replays->isBusy() && !m_recovery->isRestoring()
        && m_files->document()->busyWith() == SessionDocument::Job::None;
    m_files->updateActions(idle);
    m_replays->updateActions(idle, m_files->document()->hasSession());
    m_recovery->setEnabled(idle);
    m_playPause->setEnabled(m_files->document()->hasSession() && m_feeder && !running);
}

void MainWindow::dropFeeder()
{
    m_playback->setFeeder(nullptr);
    delete m_feeder;
    m_feeder = nullptr;
}

void MainWindow::showSession(
    std::shared_ptr<const Session> session, const QString& path, SessionDocument::Origin origin, bool savedByUser)
{
    dropFeeder();
    if (origin != SessionDocument::Origin::Replay) // a replay shown is half of the comparison on show
        m_compare->clear();
    m_feeder = new SessionFeeder(session, m_controller->session(), false, this);
    m_feeder->showAll();
    m_playback->setFeeder(m_feeder);
    m_files->document()->setSession(session, origin, path, savedByUser);
    showStatus(tr("Showing %1: %2.").arg(QFileInfo(path).fileName(), SessionTexts::counts(*session)));
    updateSessionActions();
}

void MainWindow::warn(const QString& title, const QString& text)
{
    // Window-modal but not blocking: no nested event loop while jobs and runs report.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::exportCurrentView()
{
    QWidget* view = m_views->currentWidget();
    if (!view)
        return;
    const QString title = m_views->tabText(m_views->currentIndex()).remove(u'&');
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export %1 as Image").arg(title),
        title.toLower().replace(u' ', u'-'), tr("PNG image (*.png);;SVG vector image (*.svg)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(u"svg"_s) ? u".svg"_s : u".png"_s;
    if (view == m_herd) { // the Herd tab's charts, named after its experiment, not after the session
        if (const QString problem = m_herd->exportCharts(path); !problem.isEmpty())
            warn(tr("Export View"), problem);
        else
            showStatus(tr("Saved the %1 view to %2.").arg(title, path));
        return;
    }
    // Named in the picture: the view, and the session it shows (policy, size, when recorded).
    QString subtitle;
    const SessionDocument* document = m_files->document();
    if (document->hasSession()) {
        const Session& s = *document->session();
        QStringList policies;
        for (const RetryPolicy& p : s.policies) {
            if (!p.name.isEmpty() && !policies.contains(p.name))
                policies << p.name;
        }
        subtitle = tr("%1 · policy %2 · %3 · recorded %4")
                       .arg(document->displayName(), policies.isEmpty() ? tr("unnamed") : policies.join(u", "_s),
                           SessionTexts::counts(s),
                           QLocale().toString(s.meta.createdUtc.toLocalTime(), QLocale::ShortFormat));
    }
    QString error;
    if (!ChartExport::save(view, path, tr("Retrylab — %1").arg(title), subtitle, &error)) {
        warn(tr("Export View"), error);
        return;
    }
    showStatus(tr("Saved the %1 view to %2.").arg(title, path));
}

void MainWindow::placeOnScreen()
{
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect();
    if (AppSettings().restoreWindow(*this, available))
        return;
    const QRect fitted = WindowFit::initial(available);
    setGeometry(fitted);
    // Cut to the screen: maximized, so that the window manager fits the frame (title bar, borders) in too.
    if (fitted.size() != WindowFit::kPreferred)
        setWindowState(windowState() | Qt::WindowMaximized);
    if (WindowFit::compact(available))
        useCompactLayout(available.width());
    else if (WindowFit::tooShortToStack(available)) {
        auto* request = findChild<QDockWidget*>(u"RequestDock"_s);
        tabifyDockWidget(request, findChild<QDockWidget*>(u"PolicyDock"_s));
        request->raise();
    }
}

void MainWindow::useCompactLayout(int width)
{
    // Little room: the request, the policy and the fault lab share the left dock area as tabs.
    m_compact = true;
    auto* request = findChild<QDockWidget*>(u"RequestDock"_s);
    auto* policy = findChild<QDockWidget*>(u"PolicyDock"_s);
    auto* lab = findChild<QDockWidget*>(u"LabDock"_s);
    if (request && policy && lab) {
        tabifyDockWidget(request, policy);
        tabifyDockWidget(request, lab);
        request->raise();
        resizeDocks({ request }, { std::max(width * 2 / 5, request->minimumSizeHint().width()) }, Qt::Horizontal);
    }
}

void MainWindow::showStatus(const QString& text)
{
    m_showingPolicyProblem = false;
    m_status->setText(text);
}

void MainWindow::sendPolicyToHerd()
{
    const std::optional<RetryPolicy> policy = m_policy->policy();
    if (!policy) {
        showPolicyProblem();
        return;
    }
    m_views->setCurrentWidget(m_herd);
    m_herd->runPolicy(*policy);
}

void MainWindow::showPolicyProblem()
{
    m_status->setText(tr("The policy has problems; the fields in red say why."));
    m_showingPolicyProblem = true;
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_runAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(tr("Send the request once under the policy (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::runOnce);

    m_runManyAction = new QAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Run &N×"), this);
    m_runManyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    connect(m_runManyAction, &QAction::triggered, this, &MainWindow::runMany);

    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setShortcuts({ QKeySequence(Qt::CTRL | Qt::Key_Period), QKeySequence(Qt::Key_Escape) });
    m_stopAction->setToolTip(tr("Cancel every run in progress (Ctrl+. or Esc)"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stop);

    m_openAction = new QAction(tr("Open &Policy…"), this);
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openPolicy);
    m_saveAction = new QAction(tr("Save Polic&y As…"), this);
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::savePolicyAs);
    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    auto* toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName(u"RunToolBar"_s);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    toolbar->addAction(m_runAction);
    toolbar->addAction(m_runManyAction);
    toolbar->addAction(m_stopAction);
    toolbar->addSeparator();
    toolbar->addAction(m_files->openAction());
    toolbar->addAction(m_files->saveAction());
    toolbar->addAction(m_files->exportAction());
    m_files->openAction()->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    m_files->saveAction()->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_files->exportAction()->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));

    m_playPause = new QAction(tr("&Play / Pause Timeline"), this);
    m_playPause->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(m_playPause, &QAction::triggered, m_playback, &PlaybackBar::playPause);

    auto* playback = addToolBar(tr("Playback"));
    playback->setObjectName(u"PlaybackToolBar"_s);
    playback->setMovable(false);
    playback->addWidget(m_playback);
}

namespace {

QDockWidget* dock(const QString& title, const QString& name, QWidget* content, QMainWindow* window)
{
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name);
    d->setWidget(content);
    // Closable, so that View ▸ shows and hides it (a dock without the feature greys its toggle out).
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    return d;
}

} // namespace

void MainWindow::createDocks()
{
    m_request = new RequestEditor(this);
    m_policy = new PolicyEditor(this);
    m_lab = new LabPanel(m_controller, this);
    // Dock contents scroll instead of making the window taller than a small screen.
    auto* request = new DockScrollArea(m_request, this);
    QDockWidget* requestDock = dock(tr("Request"), u"RequestDock"_s, request, this);
    QDockWidget* policyDock = dock(tr("Policy"), u"PolicyDock"_s, m_policy, this);
    auto* lab = new DockScrollArea(m_lab, this);
    QDockWidget* labDock = dock(tr("Fault lab"), u"LabDock"_s, lab, this);
    addDockWidget(Qt::LeftDockWidgetArea, requestDock);
    splitDockWidget(requestDock, policyDock, Qt::Vertical);
    addDockWidget(Qt::RightDockWidgetArea, labDock);

    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    resizeDocks({ requestDock, labDock }, { 34 * em, 30 * em }, Qt::Horizontal);
    // Proportions: the request about as tall as it wants, the policy the rest.
    resizeDocks({ requestDock, policyDock }, { m_request->sizeHint().height(), m_policy->minimumSizeHint().height() }, Qt::Vertical);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_files->fillFileMenu(file);
    file->addSeparator();
    file->addAction(m_openAction);
    m_recentPolicies = new RecentFilesMenu(file->addMenu(tr("Recent Po&licies")), [] { return AppSettings().recentFiles(); },
        [] { AppSettings().clearRecentFiles(); }, { tr("No recent policy files"), tr("Clear Recent Files") }, this);
    connect(m_recentPolicies, &RecentFilesMenu::chosen, this, [this](const QString& path) { openPolicyFile(path); });
    file->addAction(m_saveAction);
    file->addAction(m_policy->exportAsCodeAction());
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_runManyAction);
    run->addAction(m_stopAction);
    run->addSeparator();
    run->addAction(m_policy->sendToHerdAction());

    QMenu* sessionMenu = menuBar()->addMenu(tr("&Session"));
    sessionMenu->addAction(m_playPause);
    sessionMenu->addSeparator();
    m_replays->fillSessionMenu(sessionMenu);
    sessionMenu->addSeparator();
    sessionMenu->addAction(m_recovery->recoverAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_views->count(); ++i) {
        QAction* show = view->addAction(m_views->tabText(i).remove(u'&'));
        show->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        connect(show, &QAction::triggered, this, [this, i] { m_views->setCurrentIndex(i); });
    }
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), this, [this] { showHelp(0); });
    guide->setShortcut(QKeySequence::HelpContents);
    QMenu* formats = help->addMenu(tr("&Format References"));
    const QList<HelpWindow::Page> pages = HelpWindow::pages();
    for (int i = 1; i + 1 < pages.size(); ++i)
        formats->addAction(pages.at(i).title, this, [this, i] { showHelp(i); });
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showHelp(int(HelpWindow::pages().size()) - 1); });
    help->addSeparator();
    help->addAction(tr("&About Retrylab"), this, &MainWindow::showAbout);
}

void MainWindow::showHelp(int page)
{
    if (!m_help) {
        m_help = new HelpWindow(this);
        m_help->setActions(findChildren<QAction*>());
    }
    m_help->showPage(page);
    m_help->show();
    m_help->raise();
}

void MainWindow::createStatusBar()
{
    m_status = new ElidedLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 16);
    m_progress->setFormat(tr("%v / %m runs"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->hide(); // until a batch starts: "0 / 1 runs" beside "Run 20×" said nothing true
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
}

void MainWindow::startRun(int repeat)
{
    if (m_request->observesClient()) { // nothing is sent: the lab's traffic is watched until Stop
        if (!m_controller->observe(m_request->observesAsProxy()))
            showStatus(m_controller->lastError());
        return;
    }
    RunPlan plan;
    const QString requestProblem = m_request->fillPlan(plan);
    if (!requestProblem.isEmpty()) {
        showStatus(requestProblem);
        return;
    }
    const std::optional<RetryPolicy> policy = m_policy->policy();
    if (!policy) {
        showPolicyProblem();
        return;
    }
    plan.policy = *policy;
    plan.policyChanges = m_policy->changes();
    plan.repeat = repeat;
    m_controller->run(plan);
}

void MainWindow::runOnce()
{
    startRun(1);
}

void MainWindow::runMany()
{
    startRun(m_request->repeatCount());
}

void MainWindow::stop()
{
    m_controller->stop();
}

void MainWindow::onRunningChanged(bool running)
{
    m_runAction->setEnabled(!running);
    m_runManyAction->setEnabled(!running);
    m_stopAction->setEnabled(running);
    m_playback->setEnabled(!running);
}

void MainWindow::onProgress(int finished, int total)
{
    m_progress->show();
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(finished);
}

void MainWindow::updateRunManyText()
{
    const int n = m_request->repeatCount();
    m_runManyAction->setText(tr("Run %1×").arg(n));
    m_runManyAction->setToolTip(tr("Send the request %1 times, %2 at once (Ctrl+Shift+R)")
                                    .arg(n)
                                    .arg(m_request->concurrency()));
}

void MainWindow::openPolicyFile(const QString& path, const QString& title)
{
    QString problem = m_policy->loadFile(path);
    if (!problem.isEmpty()) {
        if (!title.isEmpty())
            problem = tr("%1 is not a Retrylab session, and not a policy either:\n%2").arg(path, problem);
        auto* box = new QMessageBox(QMessageBox::Warning, title.isEmpty() ? tr("Open Policy") : title, problem,
            QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return;
    }
    AppSettings().addRecentFile(path);
    m_recentPolicies->rebuild();
}

void MainWindow::openPolicy()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Policy"), QString(), tr("Policy files (*.json)"));
    if (!path.isEmpty())
        openPolicyFile(path);
}

void MainWindow::savePolicyAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Policy"), QString(), tr("Policy files (*.json)"));
    if (path.isEmpty())
        return;
    const QString problem = m_policy->saveFile(path);
    if (!problem.isEmpty()) {
        QMessageBox::warning(this, tr("Save Policy"), problem);
        return;
    }
    AppSettings().addRecentFile(path);
    m_recentPolicies->rebuild();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Retrylab"),
        tr("<p><b>Retrylab %1</b></p><p>See, not guess, what an HTTP client does when an API fails.</p>"
           "<p>Free software under the GNU General Public License, version 3 or later.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::setSessionTitle(const QString& title)
{
    setWindowTitle(title.isEmpty() ? tr("Retrylab") : tr("%1 — Retrylab").arg(title));
}

void MainWindow::openFile(const QString& path)
{
    if (SessionFile::looksLikeSession(path)) {
        if (m_controller->isRunning())
            showStatus(tr("Stop the running batch before opening a session."));
        else
            m_files->openSession(path);
        return;
    }
    // Not a session, so it is read as a policy; an error says it is neither, under a title that does not guess.
    openPolicyFile(path, tr("Open File"));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    QTimer::singleShot(0, this, [this, path] { openFile(path); }); // not inside the drag's event
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_controller->stop();
    m_herd->cancel();
    AppSettings().saveWindow(*this);
    QMainWindow::closeEvent(event);
}

void MainWindow::saveScreenshotWhenIdle(const QString& directory)
{
    new WindowShots(this, directory);
}
