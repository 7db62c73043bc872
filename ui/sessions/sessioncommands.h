// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Everything the window does with sessions, as actions for its menus: open (also by drag and drop), save,
// export (JSON, CSV, HAR; a view as PNG or SVG), redaction on or off for the session, playback, replay
// offline (what-if) or live under the editor's policy, compare with another policy or session, and the
// recovery of sessions interrupted by a crash. The file work runs off the GUI thread (SessionDocument);
// this class asks the user for files and choices and shows the results in the views and the Compare tab.

#include "policy/retrypolicy.h"
#include "session/session.h"
#include "session/sessionrecovery.h"
#include "sessions/sessiondocument.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class CompareView;
class LiveSession;
class PlaybackBar;
class QAction;
class QMenu;
class QProgressDialog;
class QTabWidget;
class QWidget;
class ReplayRunner;
class RunController;
class SessionFeeder;
struct ReplayOptions;

class SessionCommands final : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QWidget* window = nullptr; // parent of dialogs
        RunController* controller = nullptr;
        QTabWidget* views = nullptr; // "Export View" saves the current tab
        CompareView* compare = nullptr;
        PlaybackBar* playback = nullptr;
        std::function<std::optional<RetryPolicy>()> editorPolicy; // the policy editor's policy, if valid
        std::function<QString()> editorPolicyName;
    };
    explicit SessionCommands(const Parts& parts, QObject* parent = nullptr);
    ~SessionCommands() override;

    SessionDocument* document() const { return m_document; }
    SessionFeeder* feeder() const { return m_feeder; }

    // Menus the window shows.
    void fillFileMenu(QMenu* menu); // open, recent, save, export, redaction
    void fillSessionMenu(QMenu* menu); // playback, replay, compare, recover
    QAction* openAction() const { return m_open; }
    QAction* saveAction() const { return m_save; }
    QAction* exportAction() const { return m_export; }
    QAction* exportViewAction() const { return m_exportView; }
    QAction* replayOfflineAction() const { return m_replayOffline; }
    QAction* compareSessionAction() const { return m_compareSession; }

    // Opens PATH as a session (asynchronously; progress in a dialog). False when another job is running.
    bool openSession(const QString& path);
    // Shows SESSION (already read) as the current one.
    void showSession(std::shared_ptr<const Session> session, const QString& path, SessionDocument::Origin origin,
        bool savedByUser);
    // Replays the current session offline under POLICY (or each run's recorded one) and shows the
    // comparison; or live to BASE_URL. False with a status message when it cannot start.
    bool replay(const ReplayOptions& options, const QString& label);
    bool isReplaying() const { return m_replay != nullptr; }
    // Compares the current session with the session file at PATH (read off the GUI thread).
    bool compareWithFile(const QString& path);
    // Finds sessions interrupted by a crash and restores them; the newest becomes the current session.
    // With ASK, a (non-blocking) question comes first and the sessions are restored once it is answered
    // "Recover". Returns how many were found (ASK) or restored.
    int recoverInterrupted(bool ask);

Q_SIGNALS:
    void statusMessage(const QString& text);
    void policyHasProblems(); // a replay needs the editor's policy, and it has problems
    void titleChanged(const QString& title);
    void replayFinished();
    void policyFileDropped(const QString& path);

private:
    void createActions();
    void updateActions();
    void rebuildRecentMenu();
    void onBatchRecorded(std::shared_ptr<const Session> session, const QString& path);
    void onRunningChanged(bool running);
    void onJobFinished(int job, const QString& path, bool ok, const QString& message);
    void saveSessionAs();
    void exportSession();
    void exportView();
    void toggleRedaction(bool on);
    void setRedaction(bool on);
    int restoreInterrupted(const QList<SessionRecovery::Candidate>& found);
    void replayOffline();
    void replayLive();
    void compareWithPolicy();
    void compareWithSession();
    void saveReplayAs();
    void dropFeeder();
    void warn(const QString& title, const QString& text);

    Parts m_parts;
    SessionDocument* m_document;
    SessionDocument* m_other; // reads the session to compare with
    SessionFeeder* m_feeder = nullptr;
    std::unique_ptr<ReplayRunner> m_replay;
    std::shared_ptr<const Session> m_replaySource; // what m_replay reads while it runs
    QString m_replayLabel;
    QString m_replaySourceName;
    std::shared_ptr<const Session> m_lastReplay;
    QPointer<QProgressDialog> m_progress;
    QMenu* m_recentMenu = nullptr;
    QAction* m_open = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveReplay = nullptr;
    QAction* m_export = nullptr;
    QAction* m_exportView = nullptr;
    QAction* m_redact = nullptr;
    QAction* m_playPause = nullptr;
    QAction* m_replayOffline = nullptr;
    QAction* m_replayLive = nullptr;
    QAction* m_comparePolicy = nullptr;
    QAction* m_compareSession = nullptr;
    QAction* m_recover = nullptr;
};
