// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionjobs.h"

#include "session/sessionfile.h"

#include <QPointer>

SessionJobs::SessionJobs(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
}

SessionJobs::~SessionJobs()
{
    cancel();
    m_pool.waitForDone();
}

void SessionJobs::cancel()
{
    ++*m_generation;
}

void SessionJobs::deliver(quint64 generation, std::function<void()> emitter)
{
    QPointer<SessionJobs> self(this);
    QMetaObject::invokeMethod(this, [self, generation, emitter = std::move(emitter)] {
        if (self && self->generation() == generation)
            emitter();
    }, Qt::QueuedConnection);
}

quint64 SessionJobs::open(const QString& path)
{
    const quint64 generation = ++*m_generation;
    auto current = m_generation;
    m_pool.start([this, path, generation, current] {
        qint64 lastPercent = -1;
        const SessionProgress progress = [&](qint64 done, qint64 total) {
            if (current->load() != generation)
                return false;
            const qint64 percent = total > 0 ? done * 100 / total : 0;
            if (percent != lastPercent) {
                lastPercent = percent;
                deliver(generation, [this, generation, done, total] { Q_EMIT this->progress(generation, done, total); });
            }
            return true;
        };
        QString error;
        SessionFile::Status status = SessionFile::Status::Ok;
        std::shared_ptr<Session> session(SessionFile::open(path, progress, &error, &status).release());
        if (status == SessionFile::Status::Cancelled || current->load() != generation) {
            QMetaObject::invokeMethod(this, [this, generation] { Q_EMIT cancelled(generation); }, Qt::QueuedConnection);
            return;
        }
        if (session)
            deliver(generation, [this, generation, session] { Q_EMIT opened(generation, session); });
        else
            deliver(generation, [this, generation, error] { Q_EMIT failed(generation, error); });
    });
    return generation;
}

quint64 SessionJobs::save(std::shared_ptr<const Session> session, const QString& path)
{
    const quint64 generation = ++*m_generation;
    auto current = m_generation;
    m_pool.start([this, session, path, generation, current] {
        const SessionProgress progress = [&](qint64 done, qint64 total) {
            if (current->load() != generation)
                return false;
            deliver(generation, [this, generation, done, total] { Q_EMIT this->progress(generation, done, total); });
            return true;
        };
        QString error;
        const bool ok = SessionFile::save(*session, path, progress, &error);
        if (!ok && current->load() != generation) {
            QMetaObject::invokeMethod(this, [this, generation] { Q_EMIT cancelled(generation); }, Qt::QueuedConnection);
            return;
        }
        if (ok)
            deliver(generation, [this, generation, path] { Q_EMIT saved(generation, path); });
        else
            deliver(generation, [this, generation, error] { Q_EMIT failed(generation, error); });
    });
    return generation;
}
