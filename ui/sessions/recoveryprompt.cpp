// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/recoveryprompt.h"

#include <QAction>
#include <QMessageBox>
#include <QPushButton>

using namespace Qt::StringLiterals;

RecoveryPrompt::RecoveryPrompt(QWidget* window, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_recover(new QAction(tr("Recover &Interrupted Sessions…"), this))
{
    m_pool.setMaxThreadCount(1);
    connect(m_recover, &QAction::triggered, this, [this] {
        if (recoverInterrupted(true) == 0)
            Q_EMIT statusMessage(tr("No interrupted sessions to recover."));
    });
}

RecoveryPrompt::~RecoveryPrompt()
{
    m_pool.waitForDone(); // a restore under way finishes: its journal goes only once its session is saved
}

void RecoveryPrompt::setEnabled(bool enabled)
{
    m_recover->setEnabled(enabled && !m_restoring);
}

int RecoveryPrompt::recoverInterrupted(bool ask)
{
    if (m_restoring)
        return 0;
    QStringList errors;
    QList<SessionRecovery::Candidate> found = SessionRecovery::scan({}, &errors); // the journals' first lines only
    found.removeIf([](const SessionRecovery::Candidate& c) { return !c.recoverable(); });
    if (found.isEmpty())
        return 0;
    if (!ask) {
        restore(found);
        return int(found.size());
    }
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
        QMessageBox::NoButton, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDetailedText(lines.join(u'\n'));
    QPushButton* recover = box->addButton(tr("Recover"), QMessageBox::AcceptRole);
    box->addButton(tr("Not Now"), QMessageBox::RejectRole);
    box->setDefaultButton(recover);
    connect(recover, &QPushButton::clicked, this, [this, found] { restore(found); });
    box->open();
    return int(found.size());
}

void RecoveryPrompt::restore(const QList<SessionRecovery::Candidate>& found)
{
    m_restoring = true;
    m_recover->setEnabled(false);
    Q_EMIT statusMessage(tr("Recovering %n interrupted session(s)…", nullptr, int(found.size())));
    // Reading a journal and saving its session can take seconds for a long recording: not on the GUI thread.
    m_pool.start([this, found] {
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
        }
        QMetaObject::invokeMethod(this, [this, newest, newestPath, restored, failures] {
            m_restoring = false;
            m_recover->setEnabled(true);
            Q_EMIT restoredAll(newest, newestPath, restored, failures);
        }, Qt::QueuedConnection);
    });
}
