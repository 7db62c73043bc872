// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/liveobservation.h"

#include "lab/faultserver.h"
#include "livesession.h"
#include "observe/observedrecords.h"

LiveObservation::LiveObservation(const Clock& clock, FaultServer* lab, LiveSession* live, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_lab(lab)
    , m_live(live)
    , m_recorder(std::make_unique<ObservationRecorder>(m_clock))
{
    const BatchClock* axis = &m_clock;
    lab->setClock([axis] { return std::chrono::duration_cast<std::chrono::milliseconds>(axis->now()).count(); });
    m_recorder->setScenario(lab->scenario().source);
    m_recorder->setSource(QStringLiteral("observe"));
    m_connection = connect(lab, &FaultServer::exchangeFinished, this, &LiveObservation::onExchange);
}

LiveObservation::~LiveObservation()
{
    disconnect(m_connection);
    if (FaultServer* lab = m_lab.data())
        lab->setClock({}); // the lab outlives the observation: back to its own clock
}

bool LiveObservation::journalTo(const QString& sessionPath, QString* error) { return m_recorder->journalTo(sessionPath, error); }

void LiveObservation::onExchange(const LabExchange& exchange)
{
    const RetryInference::Placement placed = m_recorder->addExchange(exchange);
    const ObservedRun& run = m_recorder->inference().runs().at(placed.run);
    const RecordOptions& options = m_recorder->recordOptions();
    RunRecord facts = ObservedRecords::runRecord(run, run.id, options);
    facts.attempts.clear();
    // The run first (it may be new), then its attempt, then its facts with that attempt counted.
    m_live->onRunStarted(facts);
    m_live->onAttemptFinished(ObservedRecords::attemptRecord(run.attempts.at(placed.index - 1), run.id, options));
    m_live->onRunFinished(facts);
    m_runs = int(m_recorder->inference().runs().size());
    m_attempts = int(m_recorder->inference().attemptCount());
    Q_EMIT observed();
}

std::unique_ptr<ObservationRecorder> LiveObservation::finish()
{
    disconnect(m_connection);
    m_live->flush();
    m_recorder->finish();
    return std::move(m_recorder);
}
