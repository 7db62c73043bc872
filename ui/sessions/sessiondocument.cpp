// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/sessiondocument.h"

#include "observe/harsession.h"

#include "session/sessionjobs.h"

#include <QFileInfo>

SessionDocument::SessionDocument(QObject* parent)
    : QObject(parent)
    , m_jobs(new SessionJobs(this))
{
    connect(m_jobs, &SessionJobs::progress, this, [this](quint64 generation, qint64 done, qint64 total) {
        if (isCurrent(generation))
            Q_EMIT jobProgress(done, total);
    });
    // A job cancelled here ends at once; whatever its worker still reports afterwards is ignored.
    connect(m_jobs, &SessionJobs::opened, this, [this](quint64 generation, std::shared_ptr<Session> session) {
        if (!isCurrent(generation))
            return;
        const QString path = m_jobPath;
        setSession(std::move(session), Origin::Opened, path, true);
        end(SessionFile::Status::Ok);
    });
    connect(m_jobs, &SessionJobs::saved, this, [this](quint64 generation, const QString& path) {
        if (!isCurrent(generation))
            return;
        if (m_job == Job::Save) {
            m_path = path;
            m_savedByUser = true;
            Q_EMIT changed();
        }
        end(SessionFile::Status::Ok);
    });
    connect(m_jobs, &SessionJobs::failed, this, [this](quint64 generation, const QString& message) {
        if (isCurrent(generation))
            end(SessionFile::Status::Failed, message);
    });
    connect(m_jobs, &SessionJobs::cancelled, this, [this](quint64 generation) {
        if (isCurrent(generation))
            end(SessionFile::Status::Cancelled, tr("Cancelled."));
    });
}

SessionDocument::~SessionDocument() = default;

QString SessionDocument::displayName() const
{
    if (!m_session)
        return tr("No session");
    const QString name = QFileInfo(m_path).fileName();
    switch (m_origin) {
    case Origin::Recorded:
        return m_savedByUser ? name : tr("Unsaved run (autosaved as %1)").arg(name);
    case Origin::Replay:
        return m_savedByUser ? name : tr("Unsaved replay");
    case Origin::Recovered:
        return tr("%1 (recovered)").arg(name);
    case Origin::Judged:
        return tr("Conformance case %1 (unsaved)").arg(m_path);
    case Origin::Opened:
    case Origin::None:
        break;
    }
    return name;
}

QString SessionDocument::shortName() const
{
    if (!m_session)
        return tr("No session");
    if (m_savedByUser || m_origin == Origin::Opened)
        return QFileInfo(m_path).fileName();
    if (m_origin == Origin::Judged)
        return tr("conformance case %1").arg(m_path);
    QStringList policies;
    for (const RetryPolicy& p : m_session->policies) {
        if (!policies.contains(p.name))
            policies << p.name;
    }
    const QString under = policies.isEmpty() ? tr("no policy") : policies.join(u", ");
    return m_origin == Origin::Replay ? tr("replay under %1").arg(under) : tr("recorded under %1").arg(under);
}

bool SessionDocument::redactionEnabled() const
{
    return !m_session || m_session->redaction.enabled;
}

void SessionDocument::setRedactionEnabled(bool enabled)
{
    if (!m_session || m_session->redaction.enabled == enabled || m_job != Job::None)
        return;
    // Sessions are shared read-only with jobs and views; a changed choice is a new copy.
    auto copy = std::make_shared<Session>(*m_session);
    copy->redaction.enabled = enabled;
    m_session = std::move(copy);
    Q_EMIT changed();
}

void SessionDocument::setSession(std::shared_ptr<const Session> session, Origin origin, const QString& path, bool savedByUser)
{
    m_session = std::move(session);
    m_origin = m_session ? origin : Origin::None;
    m_path = path;
    m_savedByUser = savedByUser;
    Q_EMIT changed();
}

void SessionDocument::begin(Job job, const QString& path)
{
    m_job = job;
    m_jobPath = path;
    Q_EMIT jobStarted(job, path);
}

void SessionDocument::end(SessionFile::Status status, const QString& message)
{
    const Job job = m_job;
    const QString path = m_jobPath;
    m_job = Job::None;
    m_jobPath.clear();
    Q_EMIT jobFinished(job, path, status, message);
}

bool SessionDocument::open(const QString& path)
{
    if (m_job != Job::None)
        return false;
    begin(Job::Open, path);
    m_generation = m_jobs->open(path);
    return true;
}

bool SessionDocument::importHar(const QString& path)
{
    if (m_job != Job::None)
        return false;
    begin(Job::Open, path);
    m_generation = m_jobs->load([path](const SessionProgress&, QString* error, SessionFile::Status* status) {
        HarSession::Result har = HarSession::fromFile(path);
        if (!har.session) {
            *error = QFileInfo(path).fileName() + QStringLiteral(": ") + har.problem;
            *status = SessionFile::Status::Failed;
        }
        return std::move(har.session);
    });
    return true;
}

bool SessionDocument::saveAs(const QString& path)
{
    if (m_job != Job::None || !m_session)
        return false;
    begin(Job::Save, path);
    m_generation = m_jobs->save(m_session, path);
    return true;
}

bool SessionDocument::exportTo(SessionExport::Format format, bool redact, const QString& path)
{
    if (m_job != Job::None || !m_session)
        return false;
    begin(Job::Export, path);
    m_generation = m_jobs->exportTo(m_session, format, redact, path);
    return true;
}

void SessionDocument::cancel()
{
    if (m_job == Job::None)
        return;
    m_jobs->cancel();
    end(SessionFile::Status::Cancelled, tr("Cancelled."));
}

bool SessionDocument::waitForIdle(int msecs)
{
    return m_jobs->waitForIdle(msecs);
}
