// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Session menu's replay and comparison: replay the current session offline (what-if, the recorded
// answers served by a private lab, on virtual time) or live, under the editor's policy or a preset, and
// compare it with the result or with another session file. It reports intents — "compare these two", "the
// editor's policy is needed" — that the window carries out.

#include "policy/retrypolicy.h"
#include "session/session.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QMenu;
class QWidget;
class ReplayRunner;
class RunController;
class SessionDocument;
struct ReplayOptions;

class ReplayActions final : public QObject
{
    Q_OBJECT
public:
    struct Editor
    {
        std::function<std::optional<RetryPolicy>()> policy; // the policy editor's policy, if valid
        std::function<QString()> policyName;
    };
    // CURRENT: the session shown (the one replayed and compared). CONTROLLER: the window's clock and lab.
    ReplayActions(QWidget* window, const SessionDocument* current, RunController* controller, Editor editor,
        QObject* parent = nullptr);
    ~ReplayActions() override;

    QAction* replayOfflineAction() const { return m_replayOffline; }
    QAction* compareSessionAction() const { return m_compareSession; }
    void fillSessionMenu(QMenu* menu);
    void updateActions(bool idle, bool hasSession);

    // Replays the current session offline under OPTIONS.policy (or each run's recorded one), or live; the
    // comparison follows (compareReady). False with a status message when it cannot start.
    bool replay(const ReplayOptions& options, const QString& label);
    bool isReplaying() const { return m_replay != nullptr; }
    bool isBusy() const { return isReplaying() || m_readingOther; }
    // Compares the current session with the session file at PATH (read off the GUI thread).
    bool compareWithFile(const QString& path);

Q_SIGNALS:
    void statusMessage(const QString& text);
    void warning(const QString& title, const QString& text);
    void policyNeeded(); // a replay needs the editor's policy, and it has problems
    void compareReady(std::shared_ptr<const Session> a, const QString& nameA, std::shared_ptr<const Session> b,
        const QString& nameB);
    void replayFinished(std::shared_ptr<const Session> result);
    void busyChanged();

private:
    void replayOffline();
    void replayLive();
    void compareWithPolicy();
    void compareWithSession();

    QWidget* m_window;
    const SessionDocument* m_current;
    RunController* m_controller;
    Editor m_editor;
    SessionDocument* m_other; // reads the session to compare with
    bool m_readingOther = false;
    std::unique_ptr<ReplayRunner> m_replay;
    std::shared_ptr<const Session> m_replaySource; // what m_replay reads while it runs
    QString m_replayLabel;
    QString m_replaySourceName;
    QAction* m_replayOffline = nullptr;
    QAction* m_replayLive = nullptr;
    QAction* m_comparePolicy = nullptr;
    QAction* m_compareSession = nullptr;
};
