// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionjobs.h"

#include "session/format/sessionfile.h"

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

SessionProgress SessionJobs::progressFor(quint64 generation)
{
    // Reported once per percent at most: a million attempts must not mean a million queued signals.
    auto lastPercent = std::make_shared<qint64>(-1);
    return [this, generation, current = m_generation, lastPercent](qint64 done, qint64 total) {
        if (current->load() != generation)
            return false;
        const qint64 percent = total > 0 ? done * 100 / total : 0;
        if (percent != *lastPercent) {
            *lastPercent = percent;
            deliver(generation, [this, generation, done, total] { Q_EMIT this->progress(generation, done, total); });
        }
        return true;
    };
}

quint64 SessionJobs::open(const QString& path)
{
    return load([path](const SessionProgress& progress, QString* error, SessionFile::Status* status) {
        return SessionFile::open(path, progress, error, status);
    });
}

quint64 SessionJobs::load(Loader loader)
{
    const quint64 generation = ++*m_generation;
    auto current = m_generation;
    m_pool.start([this, loader = std::move(loader), generation, current] {
        const SessionProgress progress = progressFor(generation);
        QString error;
        SessionFile::Status status = SessionFile::Status::Ok;
        std::shared_ptr<Session> session(loader(progress, &error, &status).release());
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
    return write(path, [session, path](const SessionProgress& progress, QString* error) {
        return SessionFile::save(*session, path, progress, error);
    });
}

quint64 SessionJobs::exportTo(std::shared_ptr<const Session> session, SessionExport::Format format, bool redact,
    const QString& path)
{
    return write(path, [session, format, redact, path](const SessionProgress& progress, QString* error) {
        const Redactor redactor = SessionExport::redactorFor(*session, redact);
        return SessionExport::save(*session, format, redactor, path, progress, error);
    });
}

quint64 SessionJobs::write(const QString& path, Writer writer)
{
    const quint64 generation = ++*m_generation;
    auto current = m_generation;
    m_pool.start([this, writer = std::move(writer), path, generation, current] {
        const SessionProgress progress = progressFor(generation);
        QString error;
        const bool ok = writer(progress, &error);
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
