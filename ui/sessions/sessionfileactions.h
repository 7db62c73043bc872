// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The File menu's session actions: open (also recent, and by drag and drop through the window), save, save
// a replay, export (HAR, CSV, JSON), export the current view as an image, and redaction on or off for the
// session. It owns the SessionDocument (the session the window shows; its file work runs off the GUI
// thread), asks the user for file names and choices, and reports intents — "show this session", "export the
// current view" — that the window carries out.

#include "sessions/sessiondocument.h"

#include <QObject>

#include <memory>

class QAction;
class QMenu;
class QWidget;
class RecentFilesMenu;

class SessionFileActions final : public QObject
{
    Q_OBJECT
public:
    explicit SessionFileActions(QWidget* window, QObject* parent = nullptr);

    SessionDocument* document() const { return m_document; }
    QAction* openAction() const { return m_open; }
    QAction* saveAction() const { return m_save; }
    QAction* exportAction() const { return m_export; }
    QAction* exportViewAction() const { return m_exportView; }
    void fillFileMenu(QMenu* menu);

    // Opens PATH as a session (read off the GUI thread, progress in a dialog); false when that cannot start.
    // PATH's session (a .har file is imported instead); false when that cannot start.
    bool openSession(const QString& path);
    // PATH, a HAR file, read as observed traffic off the GUI thread.
    bool importHar(const QString& path);
    // The last replay, which Save Replay As… saves.
    void setLastReplay(std::shared_ptr<const Session> replay);
    void noteRecentSession(const QString& path);
    // IDLE: no batch, replay or job is running (the window knows all three).
    void updateActions(bool idle);

Q_SIGNALS:
    void statusMessage(const QString& text);
    void warning(const QString& title, const QString& text);
    void showSessionRequested(std::shared_ptr<const Session> session, const QString& path,
        SessionDocument::Origin origin, bool savedByUser);
    void exportViewRequested();

private:
    void onJobFinished(SessionDocument::Job job, const QString& path, SessionFile::Status status, const QString& message);
    void saveSessionAs();
    void saveReplayAs();
    void exportSession();
    void toggleRedaction(bool on);
    void setRedaction(bool on);

    QWidget* m_window;
    SessionDocument* m_document;
    std::shared_ptr<const Session> m_lastReplay;
    QString m_importing; // the HAR file being imported
    RecentFilesMenu* m_recent = nullptr;
    QAction* m_open = nullptr;
    QAction* m_importHar = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveReplay = nullptr;
    QAction* m_export = nullptr;
    QAction* m_exportView = nullptr;
    QAction* m_redact = nullptr;
};
