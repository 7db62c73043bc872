// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/replayactions.h"

#include "run/runcontroller.h"
#include "sessions/jobprogress.h"
#include "sessions/sessiondocument.h"
#include "sessions/sessiontexts.h"

#include "lab/faultserver.h"
#include "policy/presetcatalog.h"
#include "replay/replayrunner.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>

ReplayActions::ReplayActions(
    QWidget* window, const SessionDocument* current, RunController* controller, Editor editor, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_current(current)
    , m_controller(controller)
    , m_editor(std::move(editor))
    , m_other(new SessionDocument(this))
{
    m_replayOffline = new QAction(tr("Replay &What-If Under the Editor's Policy"), this);
    m_replayOffline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_replayOffline->setToolTip(tr("The recorded answers are served again by a private fault lab and the requests "
                                   "run under the policy in the editor; nothing leaves the machine (Ctrl+Shift+P)"));
    connect(m_replayOffline, &QAction::triggered, this, &ReplayActions::replayOffline);
    m_replayLive = new QAction(tr("Replay &Live…"), this);
    m_replayLive->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_replayLive->setToolTip(tr("Send the recorded requests again, to their URLs or another base URL"));
    connect(m_replayLive, &QAction::triggered, this, &ReplayActions::replayLive);
    m_comparePolicy = new QAction(tr("Compare With &Policy…"), this);
    m_comparePolicy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_comparePolicy->setToolTip(tr("Replay this session's recorded answers under a preset and compare (Ctrl+M)"));
    connect(m_comparePolicy, &QAction::triggered, this, &ReplayActions::compareWithPolicy);
    m_compareSession = new QAction(tr("Compare With &Session…"), this);
    m_compareSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    connect(m_compareSession, &QAction::triggered, this, &ReplayActions::compareWithSession);

    connect(m_other, &SessionDocument::jobFinished, this,
        [this](SessionDocument::Job, const QString& path, SessionFile::Status status, const QString& message) {
            m_readingOther = false;
            Q_EMIT busyChanged();
            if (status == SessionFile::Status::Failed)
                Q_EMIT warning(tr("Compare With Session"), message);
            if (status != SessionFile::Status::Ok) {
                Q_EMIT statusMessage(message);
                return;
            }
            Q_EMIT compareReady(m_current->session(), m_current->shortName(), m_other->session(), QFileInfo(path).fileName());
            Q_EMIT statusMessage(tr("Comparing with %1.").arg(path));
        });
}

ReplayActions::~ReplayActions()
{
    if (m_replay)
        m_replay->cancel();
    m_replay.reset();
}

void ReplayActions::fillSessionMenu(QMenu* menu)
{
    menu->addAction(m_replayOffline);
    menu->addAction(m_replayLive);
    menu->addSeparator();
    menu->addAction(m_comparePolicy);
    menu->addAction(m_compareSession);
}

void ReplayActions::updateActions(bool idle, bool hasSession)
{
    const bool can = idle && hasSession && !isBusy();
    m_replayOffline->setEnabled(can);
    m_replayLive->setEnabled(can);
    m_comparePolicy->setEnabled(can);
    m_compareSession->setEnabled(can);
}

bool ReplayActions::replay(const ReplayOptions& options, const QString& label)
{
    if (!m_current->hasSession() || isBusy() || m_controller->isRunning())
        return false;
    m_replaySource = m_current->session();
    m_replaySourceName = m_current->shortName();
    m_replayLabel = label;
    m_replay = std::make_unique<ReplayRunner>(*m_replaySource, options, m_controller->clock(), m_controller->scheduler());
    connect(m_replay.get(), &ReplayRunner::progress, this, [this](int done, int total) {
        Q_EMIT statusMessage(tr("Replaying: %1 of %2 runs…").arg(done).arg(total));
    });
    connect(m_replay.get(), &ReplayRunner::finished, this, [this] {
        auto result = std::make_shared<const Session>(m_replay->result());
        m_replay.release()->deleteLater();
        const std::shared_ptr<const Session> source = std::exchange(m_replaySource, nullptr);
        Q_EMIT compareReady(source, m_replaySourceName, result, m_replayLabel);
        Q_EMIT statusMessage(
            tr("Replay done: %1. Compare shows it beside the recording.").arg(SessionTexts::counts(*result)));
        Q_EMIT busyChanged();
        Q_EMIT replayFinished(result);
    });
    QString error;
    if (!m_replay->start(&error)) {
        m_replay.reset();
        m_replaySource.reset();
        Q_EMIT statusMessage(tr("The replay did not start: %1").arg(error));
        return false;
    }
    Q_EMIT statusMessage(tr("Replaying %1…").arg(label));
    Q_EMIT busyChanged();
    return true;
}

void ReplayActions::replayOffline()
{
    const std::optional<RetryPolicy> policy = m_editor.policy();
    if (!policy) {
        Q_EMIT policyNeeded();
        return;
    }
    ReplayOptions options;
    options.policy = *policy;
    replay(options, tr("what-if under %1").arg(m_editor.policyName()));
}

void ReplayActions::replayLive()
{
    bool ok = false;
    const QString suggestion = m_controller->isLabEnabled() ? m_controller->lab()->url().toString() : QString();
    const QString base = QInputDialog::getText(m_window, tr("Replay Live"),
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
            Q_EMIT warning(tr("Replay Live"), url.problem);
            return;
        }
        options.baseUrl = url.url;
    }
    const std::optional<RetryPolicy> policy = m_editor.policy();
    if (!policy) {
        Q_EMIT policyNeeded();
        return;
    }
    options.policy = *policy;
    replay(options, tr("live replay under %1").arg(m_editor.policyName()));
}

void ReplayActions::compareWithPolicy()
{
    QStringList names = PresetCatalog::names();
    const QString editor = tr("The policy in the editor (%1)").arg(m_editor.policyName());
    names.prepend(editor);
    bool ok = false;
    const QString picked = QInputDialog::getItem(m_window, tr("Compare With Policy"),
        tr("Replay this session's recorded answers under:"), names, 0, false, &ok);
    if (!ok)
        return;
    if (picked == editor) {
        replayOffline();
        return;
    }
    const PolicyParseResult loaded = PresetCatalog::load(picked);
    if (!loaded.ok()) {
        Q_EMIT statusMessage(tr("Preset %1 did not load.").arg(picked));
        return;
    }
    ReplayOptions options;
    options.policy = *loaded.policy;
    replay(options, tr("what-if under %1").arg(picked));
}

void ReplayActions::compareWithSession()
{
    const QString path
        = QFileDialog::getOpenFileName(m_window, tr("Compare With Session"), QString(), SessionTexts::fileFilter());
    if (!path.isEmpty())
        compareWithFile(path);
}

bool ReplayActions::compareWithFile(const QString& path)
{
    if (!m_current->hasSession() || isBusy() || !m_other->open(path))
        return false;
    m_readingOther = true;
    Q_EMIT busyChanged();
    showJobProgress(m_other, m_window, tr("Reading %1…").arg(QFileInfo(path).fileName()), tr("Compare With Session"));
    return true;
}
