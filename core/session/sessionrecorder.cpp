// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionrecorder.h"

#include "engine/clock.h"
#include "engine/retryengine.h"
#include "lab/faultserver.h"
#include "session/journal/journalregistry.h"
#include "session/format/sessionfile.h"

using namespace Qt::StringLiterals;

SessionRecorder::SessionRecorder(const QString& sessionPath, QObject* parent)
    : QObject(parent)
    , m_path(sessionPath)
{
    m_session->meta = SessionMeta::current();
    m_session->meta.source = u"run"_s;
    m_session->redaction.salt = RedactionSettings::newSalt();
}

SessionRecorder::~SessionRecorder() = default;

void SessionRecorder::setClock(const Clock& clock)
{
    const MonoTime now = clock.now();
    m_session->meta.wallOriginUtc = clock.wallNow().addMSecs(-qint64(toMs(now)));
}

void SessionRecorder::setRedaction(const RedactionSettings& settings)
{
    const QByteArray salt = m_session->redaction.salt;
    m_session->redaction = settings;
    if (m_session->redaction.salt.isEmpty())
        m_session->redaction.salt = salt;
}

void SessionRecorder::setNotes(const QString& notes)
{
    m_session->meta.notes = notes;
}

void SessionRecorder::setConcurrency(int concurrency)
{
    m_session->meta.concurrency = concurrency;
}

void SessionRecorder::setSource(const QString& source)
{
    m_session->meta.source = source;
}

void SessionRecorder::notePolicyChanges(const RetryPolicy& policy, const PolicyChanges& changes)
{
    if (!changes.isEmpty())
        m_policyChanges.append({ policy, changes });
}

void SessionRecorder::setScenario(const QJsonObject& scenario)
{
    m_session->scenario = scenario;
    if (m_started)
        m_journal.writeScenario(scenario);
}

bool SessionRecorder::start(QString* error)
{
    if (!m_journal.open(m_path, *m_session, error))
        return false;
    JournalRegistry::add(journalPath());
    m_started = true;
    return true;
}

void SessionRecorder::attach(RetryEngine* engine)
{
    m_sources << connect(engine, &RetryEngine::runStarted, this, &SessionRecorder::recordRunStarted);
    m_sources << connect(engine, &RetryEngine::attemptFinished, this, &SessionRecorder::recordAttempt);
    m_sources << connect(engine, &RetryEngine::runFinished, this, &SessionRecorder::recordRunFinished);
    m_sources << connect(engine, &RetryEngine::breakerChanged, this, &SessionRecorder::recordBreakerChange);
}

void SessionRecorder::attachLab(FaultServer* lab)
{
    m_sources << connect(lab, &FaultServer::labEvent, this, &SessionRecorder::recordLabEvent);
}

void SessionRecorder::detach()
{
    for (const QMetaObject::Connection& c : std::as_const(m_sources))
        disconnect(c);
    m_sources.clear();
}

void SessionRecorder::noteRunFacts(const RunSummary& run, bool finished)
{
    const qsizetype policies = m_session->policies.size();
    const qsizetype requests = m_session->requests.size();
    m_session->setRunFacts(run);
    const SessionRun& facts = *m_session->findRun(run.runId);
    if (m_session->policies.size() != policies) {
        const RetryPolicy& policy = m_session->policies.at(facts.policy);
        PolicyChanges changes;
        for (const auto& [noted, changed] : std::as_const(m_policyChanges)) {
            if (noted == policy)
                changes = changed;
        }
        if (!changes.isEmpty())
            m_session->policyChanges.insert(facts.policy, changes);
        m_journal.writePolicy(facts.policy, policy, changes);
    }
    if (m_session->requests.size() != requests)
        m_journal.writeRequest(facts.request, m_session->requests.at(facts.request));
    m_journal.writeRun(facts, finished);
}

void SessionRecorder::recordRunStarted(const RunSummary& run)
{
    noteRunFacts(run, false);
}

void SessionRecorder::recordAttempt(const AttemptRecord& attempt)
{
    const qsizetype row = m_session->appendAttempt(attempt); // each attempt comes once, as it finished
    m_journal.writeAttempt(m_session->attempts, m_session->attempts.packed(row));
    Q_EMIT attemptStored(row);
}

void SessionRecorder::recordRunFinished(const RunSummary& run)
{
    // A run cancelled while queued never started: its facts arrive here first.
    noteRunFacts(run, true);
}

void SessionRecorder::recordBreakerChange(const BreakerChange& change)
{
    m_session->breakerChanges.append(change);
    m_journal.writeBreakerChange(change);
    Q_EMIT breakerChangeStored(m_session->breakerChanges.size() - 1);
}

void SessionRecorder::recordLabEvent(const LabEvent& event)
{
    m_session->labEvents.append(event);
    m_journal.writeLabEvent(event);
    Q_EMIT labEventStored(m_session->labEvents.size() - 1);
}

bool SessionRecorder::finish(QString* error)
{
    if (!SessionFile::save(*m_session, m_path, {}, error))
        return false;
    releaseJournal();
    return true;
}

void SessionRecorder::releaseJournal()
{
    if (!m_started)
        return;
    m_journal.close();
    m_journal.remove();
    JournalRegistry::remove(journalPath());
    m_started = false;
}
