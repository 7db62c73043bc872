// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/sessioncommands.h"

#include "appsettings.h"
#include "livesession.h"
#include "run/runcontroller.h"
#include "sessions/chartexport.h"
#include "sessions/compareview.h"
#include "sessions/playbackbar.h"
#include "sessions/sessiondocument.h"
#include "sessions/sessionfeeder.h"

#include "lab/faultserver.h"
#include "policy/presetcatalog.h"
#include "session/replayrunner.h"
#include "session/sessionrecovery.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace {

QString sessionFilter()
{
    return QObject::tr("Retrylab sessions (*.json);;All files (*)");
}

QString countText(const Session& s)
{
    return QObject::tr("%n run(s)", nullptr, int(s.runs.size())) + u", "_s
        + QObject::tr("%n attempt(s)", nullptr, int(s.attemptCount()));
}

// Window-modal but not blocking: no nested event loop while jobs and runs report.
void warnAbout(QWidget* window, const QString& title, const QString& text)
{
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

void SessionCommands::warn(const QString& title, const QString& text)
{
    warnAbout(m_parts.window, title, text);
}

SessionCommands::SessionCommands(const Parts& parts, QObject* parent)
    : QObject(parent)
    , m_parts(parts)
    , m_document(new SessionDocument(this))
    , m_other(new SessionDocument(this))
{
    createActions();
    connect(m_parts.controller, &RunController::batchRecorded, this, &SessionCommands::onBatchRecorded);
    connect(m_parts.controller, &RunController::runningChanged, this, &SessionCommands::onRunningChanged);
    connect(m_parts.controller, &RunController::recordingSaved, this, [this](const QString& path, bool ok, const QString& error) {
        if (!ok)
            emit statusMessage(tr("The run could not be saved to %1: %2. Its journal is kept for recovery.").arg(path, error));
    });
    connect(m_document, &SessionDocument::changed, this, [this] {
        updateActions();
        emit titleChanged(m_document->hasSession() ? m_document->displayName() : QString());
    });
    connect(m_document, &SessionDocument::jobProgress, this, [this](qint64 done, qint64 total) {
        if (m_progress) {
            m_progress->setMaximum(1000);
            m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
        }
    });
    connect(m_document, &SessionDocument::jobFinished, this,
        [this](SessionDocument::Job job, const QString& path, bool ok, const QString& message) {
            onJobFinished(int(job), path, ok, message);
        });
    connect(m_other, &SessionDocument::jobFinished, this,
        [this](SessionDocument::Job, const QString& path, bool ok, const QString& message) {
            if (m_progress)
                m_progress->deleteLater();
            if (!ok) {
                warn(tr("Compare With Session"), message);
                return;
            }
            m_parts.compare->setSessions(m_document->session(), m_document->shortName(), m_other->session(),
                QFileInfo(path).fileName());
            m_parts.views->setCurrentWidget(m_parts.compare);
            emit statusMessage(tr("Comparing with %1.").arg(path));
        });
    updateActions();
}

SessionCommands::~SessionCommands()
{
    if (m_replay)
        m_replay->cancel();
    m_replay.reset();
}

void SessionCommands::createActions()
{
    m_open = new QAction(tr("&Open Session…"), this);
    m_open->setShortcut(QKeySequence::Open);
    m_open->setToolTip(tr("Open a saved session and show it in the views (Ctrl+O)"));
    connect(m_open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_parts.window, tr("Open Session"), QString(), sessionFilter());
        if (!path.isEmpty())
            openSession(path);
    });
    m_save = new QAction(tr("&Save Session As…"), this);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save the session shown in the views (Ctrl+S)"));
    connect(m_save, &QAction::triggered, this, &SessionCommands::saveSessionAs);
    m_saveReplay = new QAction(tr("Save &Replay As…"), this);
    connect(m_saveReplay, &QAction::triggered, this, &SessionCommands::saveReplayAs);
    m_export = new QAction(tr("&Export Attempts…"), this);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setToolTip(tr("Export the session as HAR 1.2, CSV or session JSON (Ctrl+E)"));
    connect(m_export, &QAction::triggered, this, &SessionCommands::exportSession);
    m_exportView = new QAction(tr("Export &View as Image…"), this);
    m_exportView->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportView->setToolTip(tr("Save the current view as PNG or SVG (Ctrl+Shift+E)"));
    connect(m_exportView, &QAction::triggered, this, &SessionCommands::exportView);
    m_redact = new QAction(tr("&Redact Secrets in Saves and Exports"), this);
    m_redact->setCheckable(true);
    m_redact->setChecked(true);
    m_redact->setToolTip(tr("Authorization, Proxy-Authorization, Cookie and Set-Cookie, and headers whose name holds "
                            "token, secret, api-key, password or credential, are replaced by their length class and a "
                            "short hash"));
    connect(m_redact, &QAction::triggered, this, &SessionCommands::toggleRedaction);

    m_playPause = new QAction(tr("&Play / Pause Timeline"), this);
    m_playPause->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    connect(m_playPause, &QAction::triggered, m_parts.playback, &PlaybackBar::playPause);
    m_replayOffline = new QAction(tr("Replay &What-If Under the Editor's Policy"), this);
    m_replayOffline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_replayOffline->setToolTip(tr("The recorded answers are served again by a private fault lab and the requests "
                                   "run under the policy in the editor; nothing leaves the machine (Ctrl+Shift+P)"));
    connect(m_replayOffline, &QAction::triggered, this, &SessionCommands::replayOffline);
    m_replayLive = new QAction(tr("Replay &Live…"), this);
    m_replayLive->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_replayLive->setToolTip(tr("Send the recorded requests again, to their URLs or another base URL"));
    connect(m_replayLive, &QAction::triggered, this, &SessionCommands::replayLive);
    m_comparePolicy = new QAction(tr("Compare With &Policy…"), this);
    m_comparePolicy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_comparePolicy->setToolTip(tr("Replay this session's recorded answers under a preset and compare (Ctrl+M)"));
    connect(m_comparePolicy, &QAction::triggered, this, &SessionCommands::compareWithPolicy);
    m_compareSession = new QAction(tr("Compare With &Session…"), this);
    m_compareSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    connect(m_compareSession, &QAction::triggered, this, &SessionCommands::compareWithSession);
    m_recover = new QAction(tr("Recover &Interrupted Sessions…"), this);
    connect(m_recover, &QAction::triggered, this, [this] {
        if (recoverInterrupted(true) == 0)
            emit statusMessage(tr("No interrupted sessions to recover."));
    });
}

void SessionCommands::fillFileMenu(QMenu* menu)
{
    menu->addAction(m_open);
    m_recentMenu = menu->addMenu(tr("Open &Recent Session"));
    rebuildRecentMenu();
    menu->addAction(m_save);
    menu->addAction(m_saveReplay);
    menu->addSeparator();
    menu->addAction(m_export);
    menu->addAction(m_exportView);
    menu->addAction(m_redact);
}

void SessionCommands::fillSessionMenu(QMenu* menu)
{
    menu->addAction(m_playPause);
    menu->addSeparator();
    menu->addAction(m_replayOffline);
    menu->addAction(m_replayLive);
    menu->addSeparator();
    menu->addAction(m_comparePolicy);
    menu->addAction(m_compareSession);
    menu->addSeparator();
    menu->addAction(m_recover);
}

void SessionCommands::updateActions()
{
    const bool running = m_parts.controller->isRunning();
    const bool has = m_document->hasSession();
    const bool idle = m_document->busyWith() == SessionDocument::Job::None && !m_replay && !running;
    m_open->setEnabled(idle);
    m_save->setEnabled(has && idle);
    m_saveReplay->setEnabled(m_lastReplay && idle);
    m_export->setEnabled(has && idle);
    m_redact->setEnabled(has && idle);
    m_redact->setChecked(m_document->redactionEnabled());
    m_playPause->setEnabled(has && m_feeder && !running);
    m_replayOffline->setEnabled(has && idle);
    m_replayLive->setEnabled(has && idle);
    m_comparePolicy->setEnabled(has && idle);
    m_compareSession->setEnabled(has && idle);
    m_recover->setEnabled(idle);
    if (m_recentMenu)
        m_recentMenu->setEnabled(idle);
}

void SessionCommands::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = AppSettings().recentSessions();
    for (const QString& path : files) {
        QAction* action = m_recentMenu->addAction(path);
        connect(action, &QAction::triggered, this, [this, path] { openSession(path); });
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent sessions"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear Recent Sessions"), this, [this] {
            AppSettings().clearRecentSessions();
            rebuildRecentMenu();
        });
    }
}

void SessionCommands::dropFeeder()
{
    m_parts.playback->setFeeder(nullptr);
    delete m_feeder;
    m_feeder = nullptr;
}

void SessionCommands::onRunningChanged(bool running)
{
    if (running) {
        dropFeeder(); // the views show the new batch as it runs
        m_parts.compare->clear(); // it compared an earlier session
    }
    updateActions();
}

void SessionCommands::onBatchRecorded(std::shared_ptr<const Session> session, const QString& path)
{
    dropFeeder();
    m_feeder = new SessionFeeder(session, m_parts.controller->session(), true, this);
    m_parts.playback->setFeeder(m_feeder);
    m_document->setSession(std::move(session), SessionDocument::Origin::Recorded, path, false);
}

void SessionCommands::showSession(std::shared_ptr<const Session> session, const QString& path,
    SessionDocument::Origin origin, bool savedByUser)
{
    dropFeeder();
    if (origin != SessionDocument::Origin::Replay) // a replay shown is half of the comparison on show
        m_parts.compare->clear();
    m_feeder = new SessionFeeder(session, m_parts.controller->session(), false, this);
    m_feeder->showAll();
    m_parts.playback->setFeeder(m_feeder);
    m_document->setSession(session, origin, path, savedByUser);
    QString status = tr("Showing %1: %2.").arg(QFileInfo(path).fileName(), countText(*session));
    if (m_feeder->hiddenAttempts() > 0) {
        status += u" "_s + tr("The views hold the first %1 attempts; saves, exports and replays use all %2.")
                              .arg(SessionFeeder::maxShownAttempts).arg(session->attemptCount());
    }
    emit statusMessage(status);
}

bool SessionCommands::openSession(const QString& path)
{
    if (m_parts.controller->isRunning()) {
        emit statusMessage(tr("Stop the running batch before opening a session."));
        return false;
    }
    if (!m_document->open(path))
        return false;
    m_progress = new QProgressDialog(tr("Reading %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000,
        m_parts.window);
    m_progress->setWindowTitle(tr("Open Session"));
    m_progress->setMinimumDuration(400);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    connect(m_progress, &QProgressDialog::canceled, m_document, &SessionDocument::cancel);
    updateActions();
    return true;
}

void SessionCommands::onJobFinished(int job, const QString& path, bool ok, const QString& message)
{
    if (m_progress)
        m_progress->deleteLater();
    updateActions();
    const auto kind = SessionDocument::Job(job);
    if (!ok) {
        if (message != tr("Cancelled."))
            warn(tr("Session"), message);
        emit statusMessage(message);
        return;
    }
    switch (kind) {
    case SessionDocument::Job::Open:
        AppSettings().addRecentSession(path);
        rebuildRecentMenu();
        showSession(m_document->session(), path, SessionDocument::Origin::Opened, true);
        break;
    case SessionDocument::Job::Save:
        AppSettings().addRecentSession(path);
        rebuildRecentMenu();
        emit statusMessage(tr("Saved %1 (%2).").arg(path, countText(*m_document->session())));
        break;
    case SessionDocument::Job::Export:
        emit statusMessage(tr("Exported %1.").arg(path));
        break;
    case SessionDocument::Job::None:
        break;
    }
}

void SessionCommands::saveSessionAs()
{
    if (!m_document->hasSession())
        return;
    QString path = QFileDialog::getSaveFileName(m_parts.window, tr("Save Session"), QString(), sessionFilter());
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += u".json"_s;
    if (m_document->saveAs(path))
        emit statusMessage(tr("Saving %1…").arg(path));
    updateActions();
}

void SessionCommands::saveReplayAs()
{
    if (!m_lastReplay)
        return;
    const QString path = QFileDialog::getSaveFileName(m_parts.window, tr("Save Replay"), QString(), sessionFilter());
    if (path.isEmpty())
        return;
    // The replay becomes the current session, then is saved like any other.
    showSession(m_lastReplay, path, SessionDocument::Origin::Replay, false);
    m_document->saveAs(path);
    updateActions();
}

void SessionCommands::exportSession()
{
    if (!m_document->hasSession())
        return;
    const QString har = tr("HAR 1.2, one entry per attempt (*.har)");
    const QString csv = tr("CSV, one row per attempt (*.csv)");
    const QString json = tr("Retrylab session JSON (*.json)");
    QString filter = har;
    QString path = QFileDialog::getSaveFileName(m_parts.window, tr("Export Attempts"), QString(),
        har + u";;"_s + csv + u";;"_s + json, &filter);
    if (path.isEmpty())
        return;
    SessionExport::Format format = SessionExport::Format::Har;
    QString suffix = u"har"_s;
    if (filter == csv) {
        format = SessionExport::Format::Csv;
        suffix = u"csv"_s;
    } else if (filter == json) {
        format = SessionExport::Format::Json;
        suffix = u"json"_s;
    } else if (const auto byName = SessionExport::formatFromName(QFileInfo(path).suffix().toLower())) {
        format = *byName; // typed a known suffix under another filter
        suffix = QFileInfo(path).suffix().toLower();
    }
    if (QFileInfo(path).suffix().isEmpty())
        path += u"."_s + suffix;
    if (m_document->exportTo(format, m_document->redactionEnabled(), path)) {
        emit statusMessage(m_document->redactionEnabled() ? tr("Exporting %1 (secrets redacted)…").arg(path)
                                                          : tr("Exporting %1 WITHOUT redaction…").arg(path));
    }
    updateActions();
}

void SessionCommands::exportView()
{
    QWidget* view = m_parts.views->currentWidget();
    if (!view)
        return;
    const QString title = m_parts.views->tabText(m_parts.views->currentIndex()).remove(u'&');
    QString filter;
    QString path = QFileDialog::getSaveFileName(m_parts.window, tr("Export %1 as Image").arg(title),
        title.toLower().replace(u' ', u'-'), tr("PNG image (*.png);;SVG vector image (*.svg)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(u"svg"_s) ? u".svg"_s : u".png"_s;
    // Named in the picture: the view, and the session it shows (policy, size, when recorded).
    QString subtitle;
    if (m_document->hasSession()) {
        const Session& s = *m_document->session();
        QStringList policies;
        for (const RetryPolicy& p : s.policies) {
            if (!p.name.isEmpty() && !policies.contains(p.name))
                policies << p.name;
        }
        subtitle = tr("%1 · policy %2 · %3 · recorded %4")
                       .arg(m_document->displayName(), policies.isEmpty() ? tr("unnamed") : policies.join(u", "_s),
                           countText(s), QLocale().toString(s.meta.createdUtc.toLocalTime(), QLocale::ShortFormat));
    }
    QString error;
    if (!ChartExport::save(view, path, tr("Retrylab — %1").arg(title), subtitle, &error)) {
        warn(tr("Export View"), error);
        return;
    }
    emit statusMessage(tr("Saved the %1 view to %2.").arg(title, path));
}

void SessionCommands::toggleRedaction(bool on)
{
    if (on) {
        setRedaction(true);
        return;
    }
    // Off is an explicit choice: confirmed first (without a nested event loop), unchecked meanwhile.
    m_redact->setChecked(true);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Turn Off Redaction"),
        tr("Saves and exports of this session will contain Authorization, Cookie and API-key values in "
           "clear text. Turn redaction off for this session?"),
        QMessageBox::Yes | QMessageBox::Cancel, m_parts.window);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::accepted, this, [this] { setRedaction(false); });
    box->open();
}

void SessionCommands::setRedaction(bool on)
{
    m_document->setRedactionEnabled(on);
    m_redact->setChecked(m_document->redactionEnabled());
    emit statusMessage(on ? tr("Secrets are redacted in saves and exports of this session.")
                          : tr("Redaction is OFF for this session: secrets are saved and exported in clear."));
}

bool SessionCommands::replay(const ReplayOptions& options, const QString& label)
{
    if (!m_document->hasSession() || m_replay || m_parts.controller->isRunning())
        return false;
    m_replaySource = m_document->session();
    m_replaySourceName = m_document->shortName();
    m_replayLabel = label;
    m_replay = std::make_unique<ReplayRunner>(
        *m_replaySource, options, m_parts.controller->clock(), m_parts.controller->scheduler());
    connect(m_replay.get(), &ReplayRunner::progress, this, [this](int done, int total) {
        emit statusMessage(tr("Replaying: %1 of %2 runs…").arg(done).arg(total));
    });
    connect(m_replay.get(), &ReplayRunner::finished, this, [this] {
        auto result = std::make_shared<const Session>(m_replay->result());
        m_replay.release()->deleteLater();
        m_lastReplay = result;
        m_parts.compare->setSessions(m_replaySource, m_replaySourceName, result, m_replayLabel);
        m_parts.views->setCurrentWidget(m_parts.compare);
        emit statusMessage(tr("Replay done: %1. Compare shows it beside the recording.").arg(countText(*result)));
        m_replaySource.reset();
        updateActions();
        emit replayFinished();
    });
    QString error;
    if (!m_replay->start(&error)) {
        m_replay.reset();
        m_replaySource.reset();
        emit statusMessage(tr("The replay did not start: %1").arg(error));
        updateActions();
        return false;
    }
    emit statusMessage(tr("Replaying %1…").arg(label));
    updateActions();
    return true;
}

void SessionCommands::replayOffline()
{
    const std::optional<RetryPolicy> policy = m_parts.editorPolicy();
    if (!policy) {
        emit policyHasProblems();
        return;
    }
    ReplayOptions options;
    options.policy = *policy;
    replay(options, tr("what-if under %1").arg(m_parts.editorPolicyName()));
}

void SessionCommands::replayLive()
{
    bool ok = false;
    const QString suggestion = m_parts.controller->isLabEnabled() ? m_parts.controller->lab()->url().toString() : QString();
    const QString base = QInputDialog::getText(m_parts.window, tr("Replay Live"),
        tr("Send the recorded requests again under the editor's policy.\nBase URL (scheme, host, port and an "
           "optional path prefix; empty: the recorded URLs):"),
        QLineEdit::Normal, suggestion, &ok);
    if (!ok)
        return;
    ReplayOptions options;
    options.live = true;
    if (!base.trimmed().isEmpty()) {
        const TargetUrl::Parsed url = ReplayRunner::parseBaseUrl(base);
        if (!url.ok()) {
            warn(tr("Replay Live"), url.problem);
            return;
        }
        options.baseUrl = url.url;
    }
    const std::optional<RetryPolicy> policy = m_parts.editorPolicy();
    if (!policy) {
        emit policyHasProblems();
        return;
    }
    options.policy = *policy;
    replay(options, tr("live replay under %1").arg(m_parts.editorPolicyName()));
}

void SessionCommands::compareWithPolicy()
{
    QStringList names = PresetCatalog::names();
    const QString editor = tr("The policy in the editor (%1)").arg(m_parts.editorPolicyName());
    names.prepend(editor);
    bool ok = false;
    const QString picked = QInputDialog::getItem(m_parts.window, tr("Compare With Policy"),
        tr("Replay this session's recorded answers under:"), names, 0, false, &ok);
    if (!ok)
        return;
    if (picked == editor) {
        replayOffline();
        return;
    }
    const PolicyParseResult loaded = PresetCatalog::load(picked);
    if (!loaded.ok()) {
        emit statusMessage(tr("Preset %1 did not load.").arg(picked));
        return;
    }
    ReplayOptions options;
    options.policy = *loaded.policy;
    replay(options, tr("what-if under %1").arg(picked));
}

void SessionCommands::compareWithSession()
{
    const QString path = QFileDialog::getOpenFileName(m_parts.window, tr("Compare With Session"), QString(), sessionFilter());
    if (!path.isEmpty())
        compareWithFile(path);
}

bool SessionCommands::compareWithFile(const QString& path)
{
    if (!m_document->hasSession() || !m_other->open(path))
        return false;
    m_progress = new QProgressDialog(tr("Reading %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000,
        m_parts.window);
    m_progress->setMinimumDuration(400);
    connect(m_other, &SessionDocument::jobProgress, m_progress, [this](qint64 done, qint64 total) {
        if (m_progress)
            m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
    });
    connect(m_progress, &QProgressDialog::canceled, m_other, &SessionDocument::cancel);
    return true;
}

int SessionCommands::recoverInterrupted(bool ask)
{
    QStringList errors;
    QList<SessionRecovery::Candidate> found = SessionRecovery::scan({}, &errors);
    found.removeIf([](const SessionRecovery::Candidate& c) { return !c.recoverable(); });
    if (found.isEmpty() || !ask)
        return found.isEmpty() ? 0 : restoreInterrupted(found);
    qsizetype attempts = 0;
    QStringList lines;
    for (const SessionRecovery::Candidate& c : std::as_const(found)) {
        attempts += c.info.attempts;
        lines << tr("%1 — started %2, %3 attempts").arg(c.info.sessionPath, c.info.startedUtc).arg(c.info.attempts);
    }
    // Asked without a nested event loop: the answer arrives as a signal.
    auto* box = new QMessageBox(QMessageBox::Question, tr("Recover Interrupted Sessions"),
        tr("Retrylab was interrupted while recording %n session(s), with %1 finished attempts in all. "
           "Recover them now? Each is saved where it was being recorded.",
            nullptr, int(found.size()))
            .arg(attempts),
        QMessageBox::NoButton, m_parts.window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDetailedText(lines.join(u'\n'));
    QPushButton* recover = box->addButton(tr("Recover"), QMessageBox::AcceptRole);
    box->addButton(tr("Not Now"), QMessageBox::RejectRole);
    box->setDefaultButton(recover);
    connect(recover, &QPushButton::clicked, this, [this, found] { restoreInterrupted(found); });
    box->open();
    return int(found.size());
}

int SessionCommands::restoreInterrupted(const QList<SessionRecovery::Candidate>& found)
{
    int restored = 0;
    std::shared_ptr<const Session> newest;
    QString newestPath;
    QStringList failures;
    for (const SessionRecovery::Candidate& c : found) {
        QString error;
        QString written;
        std::unique_ptr<Session> session = SessionRecovery::restore(c.journalPath, {}, &written, &error);
        if (!session) {
            failures << error;
            continue;
        }
        ++restored;
        newest = std::shared_ptr<const Session>(session.release());
        newestPath = written;
        AppSettings().addRecentSession(written);
    }
    rebuildRecentMenu();
    if (newest && !m_parts.controller->isRunning())
        showSession(newest, newestPath, SessionDocument::Origin::Recovered, true);
    if (!failures.isEmpty())
        warn(tr("Recover Interrupted Sessions"), failures.join(u'\n'));
    emit statusMessage(tr("Recovered %n session(s); the newest is shown.", nullptr, restored));
    return restored;
}
