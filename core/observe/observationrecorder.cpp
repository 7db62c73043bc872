// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/observationrecorder.h"

#include "engine/clock.h"
#include "session/sessionrecorder.h"

using namespace Qt::StringLiterals;

ObservationRecorder::ObservationRecorder(const Clock& clock, InferenceOptions options, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_recorder(std::make_unique<SessionRecorder>(QString()))
{
    m_recorder->setClock(clock);
    m_recorder->setSource(u"observe"_s);
    m_records.wallOrigin = m_recorder->session().meta.wallOriginUtc;
    options.wallOrigin = m_records.wallOrigin;
    m_inference = RetryInference(options);
    forward();
}

void ObservationRecorder::forward()
{
    connect(m_recorder.get(), &SessionRecorder::attemptStored, this, &ObservationRecorder::attemptStored);
    connect(m_recorder.get(), &SessionRecorder::labEventStored, this, &ObservationRecorder::labEventStored);
}

ObservationRecorder::~ObservationRecorder() = default;

bool ObservationRecorder::journalTo(const QString& sessionPath, QString* error)
{
    auto recorder = std::make_unique<SessionRecorder>(sessionPath);
    recorder->setClock(m_clock);
    const Session& before = m_recorder->session();
    recorder->setRedaction(before.redaction);
    recorder->setScenario(before.scenario);
    recorder->setSource(before.meta.source);
    recorder->setNotes(before.meta.notes);
    if (!recorder->start(error))
        return false;
    m_recorder = std::move(recorder);
    forward();
    return true;
}

void ObservationRecorder::setScenario(const QJsonObject& scenario)
{
    m_recorder->setScenario(scenario);
}

void ObservationRecorder::setSource(const QString& source)
{
    m_recorder->setSource(source);
}

void ObservationRecorder::setNotes(const QString& notes)
{
    m_recorder->setNotes(notes);
}

void ObservationRecorder::recordLabEvent(const LabEvent& event)
{
    if (!m_finished)
        m_recorder->recordLabEvent(event);
}

RetryInference::Placement ObservationRecorder::addExchange(const LabExchange& exchange)
{
    const RetryInference::Placement placed = m_inference.add(exchange);
    const ObservedRun& run = m_inference.runs().at(placed.run);
    const AttemptRecord attempt = ObservedRecords::attemptRecord(run.attempts.last(), run.id, m_records);
    RunRecord facts = ObservedRecords::runRecord(run, run.id, m_records);
    facts.attempts.clear();
    m_recorder->recordRunStarted(facts); // facts so far: a journal line, so recovery knows the run
    // Still open while observing (the client may retry again): its outcome is told at finish().
    facts.outcome = FinalKind::None;
    facts.finishedAt.reset();
    Q_EMIT runStarted(facts);
    m_recorder->recordAttempt(attempt); // attemptStored(row)
    return placed;
}

void ObservationRecorder::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    for (const ObservedRun& run : m_inference.runs()) {
        RunRecord facts = ObservedRecords::runRecord(run, run.id, m_records);
        m_recorder->recordRunFinished(facts);
        facts.attempts.clear();
        Q_EMIT runFinished(facts); // now final: its outcome at its last attempt
    }
}

bool ObservationRecorder::save(QString* error)
{
    finish();
    return m_recorder->finish(error);
}

const Session& ObservationRecorder::session() const
{
    return m_recorder->session();
}

std::shared_ptr<const Session> ObservationRecorder::sharedSession() const
{
    return m_recorder->sharedSession();
}

Session ObservationRecorder::takeSession()
{
    finish();
    return m_recorder->takeSession();
}

Session ObservationRecorder::sessionOf(const QList<ObservedRun>& runs, const RecordOptions& options, const QString& source)
{
    Session session;
    session.meta = SessionMeta::current();
    session.meta.source = source;
    if (options.wallOrigin.isValid())
        session.meta.wallOriginUtc = options.wallOrigin;
    session.redaction.salt = RedactionSettings::newSalt();
    for (const ObservedRun& run : runs)
        session.addRun(ObservedRecords::runRecord(run, run.id, options));
    return session;
}
