// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/batch.h"

#include "engine/virtualtime.h"
#include "lab/faultserver.h"
#include "session/sessionrecorder.h"

Batch::Batch(const Clock& clock, Scheduler& scheduler, QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_scheduler(scheduler, m_clock)
    , m_engine(std::make_unique<RetryEngine>(m_clock, m_scheduler))
    , m_recorder(std::make_unique<SessionRecorder>(QString()))
{
    m_recorder->setClock(m_clock);
    m_recorder->attach(m_engine.get());
    connect(m_recorder.get(), &SessionRecorder::attemptStored, this, &Batch::attemptStored);
    connect(m_recorder.get(), &SessionRecorder::labEventStored, this, &Batch::labEventStored);
    connect(m_recorder.get(), &SessionRecorder::breakerChangeStored, this, &Batch::breakerChangeStored);
    connect(m_engine.get(), &RetryEngine::idle, this, &Batch::idle, Qt::QueuedConnection);
}

Batch::~Batch()
{
    if (FaultServer* lab = m_lab.data()) {
        lab->disconnect(m_recorder.get());
        lab->setClock({}); // it outlives the batch (the window's lab): back to its own clock
    }
    // The engine's replies and timers go before the scheduler they point to.
    m_engine.reset();
}

void Batch::skipWaits(VirtualScheduler& scheduler)
{
    const RetryEngine* engine = m_engine.get();
    scheduler.setBusy([engine] { return engine->attemptsInFlight() > 0; });
    // An attempt that ends may leave nothing on the wire: the next wait can be skipped at once.
    connect(m_engine.get(), &RetryEngine::attemptFinished, &scheduler, &VirtualScheduler::poke, Qt::QueuedConnection);
}

void Batch::setConcurrency(int concurrency)
{
    m_engine->setConcurrencyLimit(std::max(1, concurrency));
    m_recorder->setConcurrency(std::max(1, concurrency));
}

void Batch::useLab(FaultServer* lab, const QJsonObject& scenario)
{
    m_lab = lab;
    const BatchClock* clock = &m_clock;
    lab->setClock([clock] { return std::chrono::duration_cast<std::chrono::milliseconds>(clock->now()).count(); });
    m_recorder->setScenario(scenario);
    m_recorder->attachLab(lab);
}

bool Batch::journalTo(const QString& sessionPath, QString* error)
{
    auto recorder = std::make_unique<SessionRecorder>(sessionPath);
    recorder->setClock(m_clock);
    const Session& before = m_recorder->session();
    recorder->setConcurrency(before.meta.concurrency);
    recorder->setScenario(before.scenario);
    recorder->setRedaction(before.redaction);
    recorder->setSource(before.meta.source);
    for (const auto& [policy, changes] : std::as_const(m_policyChanges))
        recorder->notePolicyChanges(policy, changes);
    if (!recorder->start(error))
        return false;
    m_recorder = std::move(recorder);
    m_recorder->attach(m_engine.get());
    connect(m_recorder.get(), &SessionRecorder::attemptStored, this, &Batch::attemptStored);
    connect(m_recorder.get(), &SessionRecorder::labEventStored, this, &Batch::labEventStored);
    connect(m_recorder.get(), &SessionRecorder::breakerChangeStored, this, &Batch::breakerChangeStored);
    if (m_lab)
        m_recorder->attachLab(m_lab);
    return true;
}

void Batch::setSessionSource(const QString& source)
{
    m_recorder->setSource(source);
}

void Batch::setRedaction(const RedactionSettings& settings)
{
    m_recorder->setRedaction(settings);
}

void Batch::setPolicyChanges(const RetryPolicy& policy, const PolicyChanges& changes)
{
    m_policyChanges.append({ policy, changes });
    m_recorder->notePolicyChanges(policy, changes);
}

int Batch::submit(const RequestSpec& request, const RetryPolicy& policy, std::optional<std::uint64_t> seed)
{
    m_submitted = true;
    return m_engine->submit(request, policy, seed);
}

const Session& Batch::session() const
{
    return m_recorder->session();
}

bool Batch::save(QString* error)
{
    return m_recorder->finish(error);
}

std::shared_ptr<const Session> Batch::sharedSession() const
{
    return m_recorder->sharedSession();
}

std::shared_ptr<const Session> Batch::finishSession()
{
    m_recorder->detach(); // the lab's last events are in; nothing may arrive after this
    return m_recorder->sharedSession();
}

Session Batch::takeSession()
{
    if (m_lab)
        m_lab->disconnect(m_recorder.get()); // the lab's last events are in; nothing may arrive after the move
    return m_recorder->takeSession();
}

std::unique_ptr<SessionRecorder> Batch::takeRecorder()
{
    if (m_lab)
        m_lab->disconnect(m_recorder.get());
    m_engine->disconnect(m_recorder.get());
    auto taken = std::move(m_recorder);
    m_recorder = std::make_unique<SessionRecorder>(QString());
    return taken;
}
