// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/sessionfileactions.h"

#include "appsettings.h"
#include "sessions/jobprogress.h"
#include "sessions/sessiontexts.h"
#include "shell/recentfilesmenu.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

using namespace Qt::StringLiterals;

SessionFileActions::SessionFileActions(QWidget* window, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_document(new SessionDocument(this))
{
    m_open = new QAction(tr("&Open Session…"), this);
    m_open->setShortcut(QKeySequence::Open);
    m_open->setToolTip(tr("Open a saved session and show it in the views (Ctrl+O)"));
    connect(m_open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Session"), QString(), SessionTexts::fileFilter());
        if (!path.isEmpty())
            openSession(path);
    });
    m_importHar = new QAction(tr("&Import HAR…"), this);
    m_importHar->setToolTip(tr("Read a HAR 1.2 file (browser DevTools, Charles, mitmproxy…) as a client's observed "
                               "traffic: its retries inferred and shown like any session"));
    connect(m_importHar, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Import HAR"), QString(), tr("HAR files (*.har *.json)"));
        if (!path.isEmpty())
            importHar(path);
    });
    m_save = new QAction(tr("&Save Session As…"), this);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save the session shown in the views (Ctrl+S)"));
    connect(m_save, &QAction::triggered, this, &SessionFileActions::saveSessionAs);
    m_saveReplay = new QAction(tr("Save &Replay As…"), this);
    connect(m_saveReplay, &QAction::triggered, this, &SessionFileActions::saveReplayAs);
    m_export = new QAction(tr("&Export Attempts…"), this);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setToolTip(tr("Export the session as HAR 1.2, CSV or session JSON (Ctrl+E)"));
    connect(m_export, &QAction::triggered, this, &SessionFileActions::exportSession);
    m_exportView = new QAction(tr("Export &View as Image…"), this);
    m_exportView->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportView->setToolTip(tr("Save the current view as PNG or SVG (Ctrl+Shift+E)"));
    connect(m_exportView, &QAction::triggered, this, &SessionFileActions::exportViewRequested);
    m_redact = new QAction(tr("&Redact Secrets in Saves and Exports"), this);
    m_redact->setCheckable(true);
    m_redact->setChecked(true);
    m_redact->setToolTip(tr("Authorization, Proxy-Authorization, Cookie and Set-Cookie, and headers whose name holds "
                            "token, secret, api-key, password or credential, are replaced by their length class and a "
                            "short hash"));
    connect(m_redact, &QAction::triggered, this, &SessionFileActions::toggleRedaction);
    connect(m_document, &SessionDocument::jobFinished, this, &SessionFileActions::onJobFinished);
}

void SessionFileActions::fillFileMenu(QMenu* menu)
{
    menu->addAction(m_open);
    m_recent = new RecentFilesMenu(menu->addMenu(tr("Open &Recent Session")),
        [] { return AppSettings().recentSessions(); }, [] { AppSettings().clearRecentSessions(); },
        { tr("No recent sessions"), tr("Clear Recent Sessions") }, this);
    connect(m_recent, &RecentFilesMenu::chosen, this, &SessionFileActions::openSession);
    menu->addAction(m_importHar);
    menu->addAction(m_save);
    menu->addAction(m_saveReplay);
    menu->addSeparator();
    menu->addAction(m_export);
    menu->addAction(m_exportView);
    menu->addAction(m_redact);
}

void SessionFileActions::updateActions(bool idle)
{
    idle = idle && m_document->busyWith() == SessionDocument::Job::None;
    const bool has = m_document->hasSession();
    m_open->setEnabled(idle);
    m_importHar->setEnabled(idle);
    m_save->setEnabled(has && idle);
    m_saveReplay->setEnabled(m_lastReplay && idle);
    m_export->setEnabled(has && idle);
    m_redact->setEnabled(has && idle);
    m_redact->setChecked(m_document->redactionEnabled());
    if (m_recent)
        m_recent->menu()->setEnabled(idle);
}

void SessionFileActions::setLastReplay(std::shared_ptr<const Session> replay)
{
    m_lastReplay = std::move(replay);
}

void SessionFileActions::noteRecentSession(const QString& path)
{
    AppSettings().addRecentSession(path);
    if (m_recent)
        m_recent->rebuild();
}

bool SessionFileActions::importHar(const QString& path)
{
    if (!m_document->importHar(path))
        return false;
    m_importing = path;
    showJobProgress(m_document, m_window, tr("Importing %1…").arg(QFileInfo(path).fileName()), tr("Import HAR"));
    return true;
}

bool SessionFileActions::openSession(const QString& path)
{
    if (path.endsWith(u".har"_s, Qt::CaseInsensitive)) // a HAR is imported, whichever way it was opened
        return importHar(path);
    if (!m_document->open(path))
        return false;
    showJobProgress(m_document, m_window, tr("Reading %1…").arg(QFileInfo(path).fileName()), tr("Open Session"));
    return true;
}

void SessionFileActions::onJobFinished(
    SessionDocument::Job job, const QString& path, SessionFile::Status status, const QString& message)
{
    const bool imported = !m_importing.isEmpty() && job == SessionDocument::Job::Open && path == m_importing;
    if (job == SessionDocument::Job::Open)
        m_importing.clear();
    switch (status) {
    case SessionFile::Status::Cancelled:
        Q_EMIT statusMessage(message);
        return;
    case SessionFile::Status::Failed:
        Q_EMIT warning(imported ? tr("Import HAR") : tr("Session"), message);
        Q_EMIT statusMessage(message);
        return;
    case SessionFile::Status::Ok:
        break;
    }
    switch (job) {
    case SessionDocument::Job::Open:
        if (imported) { // not a session file: nothing to reopen from the recent list, and Save asks for a name
            Q_EMIT showSessionRequested(m_document->session(), path, SessionDocument::Origin::Opened, false);
            break;
        }
        noteRecentSession(path);
        Q_EMIT showSessionRequested(m_document->session(), path, SessionDocument::Origin::Opened, true);
        break;
    case SessionDocument::Job::Save:
        noteRecentSession(path);
        Q_EMIT statusMessage(tr("Saved %1 (%2).").arg(path, SessionTexts::counts(*m_document->session())));
        break;
    case SessionDocument::Job::Export:
        Q_EMIT statusMessage(tr("Exported %1.").arg(path));
        break;
    case SessionDocument::Job::None:
        break;
    }
}

void SessionFileActions::saveSessionAs()
{
    if (!m_document->hasSession())
        return;
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save Session"), QString(), SessionTexts::fileFilter());
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += u".json"_s;
    if (m_document->saveAs(path))
        Q_EMIT statusMessage(tr("Saving %1…").arg(path));
}

void SessionFileActions::saveReplayAs()
{
    if (!m_lastReplay)
        return;
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save Replay"), QString(), SessionTexts::fileFilter());
    if (path.isEmpty())
        return;
    // The replay becomes the current session, then is saved like any other.
    Q_EMIT showSessionRequested(m_lastReplay, path, SessionDocument::Origin::Replay, false);
    m_document->saveAs(path);
}

void SessionFileActions::exportSession()
{
    if (!m_document->hasSession())
        return;
    const QString har = tr("HAR 1.2, one entry per attempt (*.har)");
    const QString csv = tr("CSV, one row per attempt (*.csv)");
    const QString json = tr("Retrylab session JSON (*.json)");
    QString filter = har;
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export Attempts"), QString(),
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
        Q_EMIT statusMessage(m_document->redactionEnabled() ? tr("Exporting %1 (secrets redacted)…").arg(path)
                                                            : tr("Exporting %1 WITHOUT redaction…").arg(path));
    }
}

void SessionFileActions::toggleRedaction(bool on)
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
        QMessageBox::Yes | QMessageBox::Cancel, m_window);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::accepted, this, [this] { setRedaction(false); });
    box->open();
}

void SessionFileActions::setRedaction(bool on)
{
    m_document->setRedactionEnabled(on);
    m_redact->setChecked(m_document->redactionEnabled());
    Q_EMIT statusMessage(on ? tr("Secrets are redacted in saves and exports of this session.")
                            : tr("Redaction is OFF for this session: secrets are saved and exported in clear."));
}
