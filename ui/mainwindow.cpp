// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "appsettings.h"
#include "editors/policyeditor.h"
#include "editors/requesteditor.h"
#include "labview/labpanel.h"
#include "livesession.h"
#include "delaychartview.h"
#include "ratelimitchartview.h"
#include "run/attemptspage.h"
#include "run/runcontroller.h"
#include "sessions/compareview.h"
#include "sessions/playbackbar.h"
#include "sessions/sessioncommands.h"
#include "summaryview.h"
#include "timelineview.h"

#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "policy/presetcatalog.h"
#include "session/replayrunner.h"
#include "session/sessionfile.h"

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
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QDir>

using namespace Qt::StringLiterals;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_controller(new RunController(this))
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
    m_views->addTab(m_timeline, tr("&Timeline"));
    m_views->addTab(m_delayChart, tr("&Delays"));
    m_views->addTab(m_rateLimitChart, tr("Rate &limits"));
    m_views->addTab(m_attempts, tr("&Attempts"));
    m_views->addTab(m_summary, tr("S&ummary"));
    m_views->addTab(m_compare, tr("Co&mpare"));
    // The same attempt is highlighted in the timeline and the table, whichever the user picked it in.
    connect(m_timeline, &TimelineView::attemptSelected, m_attempts, &AttemptsPage::selectAttempt);
    connect(m_attempts, &AttemptsPage::attemptSelected, m_timeline, &TimelineView::selectAttempt);
    setCentralWidget(m_views);
    setAcceptDrops(true);

    m_playback = new PlaybackBar(this);
    SessionCommands::Parts parts;
    parts.window = this;
    parts.controller = m_controller;
    parts.views = m_views;
    parts.compare = m_compare;
    parts.playback = m_playback;
    parts.editorPolicy = [this] { return m_policy->policy(); };
    parts.editorPolicyName = [this] {
        return m_policy->presetName().isEmpty() ? tr("the edited policy") : m_policy->presetName();
    };
    m_sessions = new SessionCommands(parts, this);
    connect(m_sessions, &SessionCommands::statusMessage, this, [this](const QString& text) { m_status->setText(text); });
    connect(m_sessions, &SessionCommands::titleChanged, this, &MainWindow::setSessionTitle);

    createActions();
    createDocks();
    createMenus();
    createStatusBar();

    connect(m_controller, &RunController::runningChanged, this, &MainWindow::onRunningChanged);
    connect(m_controller, &RunController::progressChanged, this, &MainWindow::onProgress);
    connect(m_controller, &RunController::statusChanged, m_status, &QLabel::setText);
    connect(m_request, &RequestEditor::repeatChanged, this, &MainWindow::updateRunManyText);
    connect(m_controller, &RunController::labChanged, this, [this] { m_request->setLabUrl(m_controller->lab()->url()); });

    m_controller->startLab(ScenarioCatalog::defaultScenarioName());
    m_request->setLabUrl(m_controller->lab()->url());
    m_status->setText(m_controller->statusText());
    updateRunManyText();
    onRunningChanged(false);

    resize(1500, 940);
    AppSettings().restoreWindow(*this);
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
    toolbar->addAction(m_sessions->openAction());
    toolbar->addAction(m_sessions->saveAction());
    toolbar->addAction(m_sessions->exportAction());
    m_sessions->openAction()->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    m_sessions->saveAction()->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_sessions->exportAction()->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));

    auto* playback = addToolBar(tr("Playback"));
    playback->setObjectName(u"PlaybackToolBar"_s);
    playback->setMovable(false);
    playback->addWidget(m_playback);
}

void MainWindow::createDocks()
{
    m_request = new RequestEditor(this);
    m_policy = new PolicyEditor(this);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_request);
    left->addWidget(m_policy);
    left->setStretchFactor(0, 0);
    left->setStretchFactor(1, 1);
    left->setChildrenCollapsible(false);
    auto* editorsDock = new QDockWidget(tr("Request and policy"), this);
    editorsDock->setObjectName(u"EditorsDock"_s);
    editorsDock->setWidget(left);
    editorsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, editorsDock);

    m_lab = new LabPanel(m_controller, this);
    auto* labDock = new QDockWidget(tr("Fault lab"), this);
    labDock->setObjectName(u"LabDock"_s);
    labDock->setWidget(m_lab);
    labDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, labDock);

    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    resizeDocks({ editorsDock, labDock }, { 34 * em, 30 * em }, Qt::Horizontal);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_sessions->fillFileMenu(file);
    file->addSeparator();
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Recent Po&licies"));
    rebuildRecentMenu();
    file->addAction(m_saveAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_runManyAction);
    run->addAction(m_stopAction);

    m_sessions->fillSessionMenu(menuBar()->addMenu(tr("&Session")));

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
    help->addAction(tr("&About Retrylab"), this, &MainWindow::showAbout);
}

void MainWindow::createStatusBar()
{
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('M')) * 16);
    m_progress->setFormat(tr("%v / %m runs"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
}

void MainWindow::startRun(int repeat)
{
    RunPlan plan;
    const QString requestProblem = m_request->fillPlan(plan);
    if (!requestProblem.isEmpty()) {
        m_status->setText(requestProblem);
        return;
    }
    const std::optional<RetryPolicy> policy = m_policy->policy();
    if (!policy) {
        m_status->setText(tr("The policy has problems; the fields in red say why."));
        return;
    }
    plan.policy = *policy;
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

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = AppSettings().recentFiles();
    for (const QString& path : files) {
        QAction* action = m_recentMenu->addAction(path);
        connect(action, &QAction::triggered, this, [this, path] { openPolicyFile(path); });
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("No recent policy files"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear Recent Files"), this, [this] {
            AppSettings().clearRecentFiles();
            rebuildRecentMenu();
        });
    }
}

void MainWindow::openPolicyFile(const QString& path)
{
    const QString problem = m_policy->loadFile(path);
    if (!problem.isEmpty()) {
        QMessageBox::warning(this, tr("Open Policy"), problem);
        return;
    }
    AppSettings().addRecentFile(path);
    rebuildRecentMenu();
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
    rebuildRecentMenu();
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
    if (SessionFile::looksLikeSession(path))
        m_sessions->openSession(path);
    else
        openPolicyFile(path);
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
    AppSettings().saveWindow(*this);
    QMainWindow::closeEvent(event);
}

void MainWindow::saveScreenshotWhenIdle(const QString& directory)
{
    m_screenshotDir = directory;
    QTimer::singleShot(1500, this, [this] {
        if (!m_controller->isRunning())
            saveScreenshots();
    });
    connect(m_controller, &RunController::runningChanged, this, [this](bool running) {
        if (!running)
            QTimer::singleShot(800, this, &MainWindow::saveScreenshots);
    });
}

namespace {

// Screenshots for the docs: a 256-colour palette keeps them small (the UI has few distinct colours).
void saveSmall(const QPixmap& pixmap, const QString& path)
{
    pixmap.toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither).save(path, "PNG", 0);
}

} // namespace

void MainWindow::saveScreenshots()
{
    if (m_screenshotDir.isEmpty())
        return;
    const QDir dir(m_screenshotDir);
    dir.mkpath(u"."_s);
    saveSmall(grab(), dir.filePath(u"main.png"_s));
    saveSmall(m_lab->grab(), dir.filePath(u"lab-panel.png"_s));
    m_views->setCurrentWidget(m_attempts);
    m_attempts->table()->selectRow(0);
    m_policy->tabs()->setCurrentIndex(3);
    QTimer::singleShot(300, this, [this, dir] {
        saveSmall(grab(), dir.filePath(u"main-attempts.png"_s));
        m_views->setCurrentWidget(m_timeline);
        saveSmall(m_policy->grab(), dir.filePath(u"policy-editor.png"_s));
        m_policy->tabs()->setCurrentIndex(2);
        QTimer::singleShot(300, this, [this, dir] {
            saveSmall(m_policy->grab(), dir.filePath(u"policy-decisions.png"_s));
            m_policy->tabs()->setCurrentIndex(0);
            QTimer::singleShot(300, this, [this, dir] {
                saveSmall(m_policy->grab(), dir.filePath(u"policy-form.png"_s));
                saveCompareScreenshot(dir);
            });
        });
    });
}

// The batch just recorded, replayed offline under AWS standard retries and compared with the recording.
void MainWindow::saveCompareScreenshot(const QDir& dir)
{
    const PolicyParseResult aws = PresetCatalog::load(u"aws-standard"_s);
    ReplayOptions options;
    if (aws.ok())
        options.policy = *aws.policy;
    const auto done = [this, dir] {
        QTimer::singleShot(500, this, [this, dir] {
            saveSmall(grab(), dir.filePath(u"compare.png"_s));
            m_screenshotDir.clear();
            close();
        });
    };
    connect(m_sessions, &SessionCommands::replayFinished, this, done, Qt::SingleShotConnection);
    if (!m_sessions->replay(options, tr("what-if under aws-standard"))) {
        disconnect(m_sessions, &SessionCommands::replayFinished, this, nullptr);
        m_screenshotDir.clear();
        close();
    }
}
