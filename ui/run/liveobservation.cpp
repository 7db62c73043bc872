// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/liveobservation.h"

#include "lab/faultserver.h"
#include "livesession.h"
#include "observe/observedrecords.h"

#include <QCoreApplication>

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
    m_labConnection = connect(lab, &FaultServer::labEvent, m_recorder.get(), &ObservationRecorder::recordLabEvent);
}

LiveObservation::~LiveObservation()
{
    disconnect(m_connection);
    disconnect(m_labConnection);
    if (FaultServer* lab = m_lab.data())
        lab->setClock({}); // the lab outlives the observation: back to its own clock
}

bool LiveObservation::journalTo(const QString& sessionPath, QString* error) { return m_recorder->journalTo(sessionPath, error); }

namespace {

// The wait a client took before ATTEMPT, drawn like the engine's: hatched from the previous answer's end to
// this arrival, marked Retry-After (or the hint) when the previous answer asked and the client waited at
// least most of it, else the client's own backoff.
WaitInfo observedWait(const AttemptRecord& attempt, MonoTime waited)
{
    WaitInfo w;
    w.runId = attempt.runId;
    w.nextIndex = attempt.index;
    w.dueAt = *attempt.at.started;
    w.scheduledAt = *attempt.at.started - waited;
    RetryDecision& d = w.decision;
    d.verdict = Verdict::Retry;
    d.delay = std::chrono::duration_cast<Millis>(waited);
    d.delayLow = d.delayHigh = d.delay;
    d.source = DelaySource::Backoff;
    if (attempt.observed && attempt.observed->askedFor) {
        const Millis asked = *attempt.observed->askedFor;
        d.serverAskedFor = asked;
        d.hintHeader = attempt.observed->askedBy;
        if (d.delay * 10 >= asked * 9) {
            d.source = attempt.observed->askedBy == QLatin1String("retry-after") ? DelaySource::RetryAfter
                : attempt.observed->askedBy == QLatin1String("retry-after-ms")   ? DelaySource::RetryAfterMs
                                                                                 : DelaySource::ServerHint;
        }
    }
    d.reason = QCoreApplication::translate("observe", "the client waited %1 ms before attempt %2 (observed)")
                   .arg(d.delay.count())
                   .arg(attempt.index);
    return w;
}

} // namespace

void LiveObservation::onExchange(const LabExchange& exchange)
{
    const RetryInference::Placement placed = m_recorder->addExchange(exchange);
    const ObservedRun& run = m_recorder->inference().runs().at(placed.run);
    const RecordOptions& options = m_recorder->recordOptions();
    RunRecord facts = ObservedRecords::runRecord(run, run.id, options);
    facts.attempts.clear();
    // Still open while observing (the client may retry again): the outcome is drawn once, at finish().
    facts.outcome = FinalKind::None;
    facts.finishedAt.reset();
    const ObservedAttempt& inferred = run.attempts.at(placed.index - 1);
    const AttemptRecord attempt = ObservedRecords::attemptRecord(inferred, run.id, options);
    // The run first (it may be new), the wait the client took before this attempt, then the attempt.
    m_live->onRunStarted(facts);
    if (placed.index > 1 && inferred.clientWait && attempt.at.started)
        m_live->onWaitScheduled(observedWait(attempt, *inferred.clientWait));
    m_live->onAttemptFinished(attempt);
    m_runs = int(m_recorder->inference().runs().size());
    m_attempts = int(m_recorder->inference().attemptCount());
    Q_EMIT observed();
}

std::unique_ptr<ObservationRecorder> LiveObservation::finish()
{
    disconnect(m_connection);
    disconnect(m_labConnection);
    for (const ObservedRun& run : m_recorder->inference().runs()) {
        RunRecord facts = ObservedRecords::runRecord(run, run.id, m_recorder->recordOptions());
        facts.attempts.clear();
        m_live->onRunFinished(facts); // now final: its outcome at its last attempt
    }
    m_live->flush();
    m_recorder->finish();
    return std::move(m_recorder);
}
