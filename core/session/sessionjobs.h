// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Opening and saving sessions off the GUI thread, with progress and cancel by generation: every request
// gets a new generation number; cancel() (or a newer request) makes older jobs stop at their next progress
// check and drops their results, so a late answer never replaces a newer one. Signals arrive on the
// thread that owns this object.

#include "session/session.h"
#include "session/export/sessionexport.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>

class SessionJobs final : public QObject
{
    Q_OBJECT
public:
    explicit SessionJobs(QObject* parent = nullptr);
    ~SessionJobs() override; // cancels and waits for the running job

    quint64 open(const QString& path);
    // Any other way of reading a session off the GUI thread (a HAR import): LOADER returns the session, or
    // null with *error set (and *status Failed or Cancelled); opened() or failed() report it as for open().
    using Loader = std::function<std::unique_ptr<Session>(const SessionProgress& progress, QString* error, SessionFile::Status* status)>;
    quint64 load(Loader loader);
    quint64 save(std::shared_ptr<const Session> session, const QString& path);
    // Writes SESSION to PATH in FORMAT (SessionExport); secrets redacted unless REDACT is false.
    quint64 exportTo(std::shared_ptr<const Session> session, SessionExport::Format format, bool redact, const QString& path);
    void cancel();
    quint64 generation() const { return m_generation->load(); }
    bool waitForIdle(int msecs = -1) { return m_pool.waitForDone(msecs); }

Q_SIGNALS:
    void progress(quint64 generation, qint64 done, qint64 total);
    void opened(quint64 generation, std::shared_ptr<Session> session);
    void saved(quint64 generation, const QString& path);
    void failed(quint64 generation, const QString& message);
    void cancelled(quint64 generation);

private:
    using Writer = std::function<bool(const SessionProgress& progress, QString* error)>;
    quint64 write(const QString& path, Writer writer);
    SessionProgress progressFor(quint64 generation); // cancels when a newer job starts
    void deliver(quint64 generation, std::function<void()> emitter);

    std::shared_ptr<std::atomic<quint64>> m_generation = std::make_shared<std::atomic<quint64>>(0);
    QThreadPool m_pool;
};
