// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sessions a crash or kill -9 interrupted: found from their journals, offered back (a question that does
// not block), and restored off the GUI thread — each journal read and its session saved where it was being
// recorded. The newest restored session is offered to the window to show.

#include "session/session.h"
#include "session/journal/sessionrecovery.h"

#include <QObject>
#include <QThreadPool>

#include <memory>

class QAction;
class QWidget;

class RecoveryPrompt final : public QObject
{
    Q_OBJECT
public:
    explicit RecoveryPrompt(QWidget* window, QObject* parent = nullptr);
    ~RecoveryPrompt() override;

    QAction* recoverAction() const { return m_recover; }
    // Finds interrupted sessions. With ASK a question comes first and they are restored once it is answered
    // "Recover"; without, they are restored at once. Either way the restoring runs in the background
    // (restoredAll() reports). Returns how many were found.
    int recoverInterrupted(bool ask);
    bool isRestoring() const { return m_restoring; }
    void setEnabled(bool enabled);
    bool waitForRestores(int msecs = -1) { return m_pool.waitForDone(msecs); }

Q_SIGNALS:
    // NEWEST: the newest restored session and where it was saved (null when none could be restored).
    void restoredAll(std::shared_ptr<const Session> newest, const QString& path, int restored, const QStringList& failures);
    void statusMessage(const QString& text);

private:
    void restore(const QList<SessionRecovery::Candidate>& found);

    QWidget* m_window;
    QAction* m_recover;
    QThreadPool m_pool;
    bool m_restoring = false;
};
