// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/observation.h"

#include "lab/faultserver.h"

using namespace Qt::StringLiterals;

Observation::Observation(const Clock& clock, FaultServer* lab, const InferenceOptions& options, QObject* parent)
    : QObject(parent)
    , m_axis(clock)
    , m_lab(lab)
    , m_recorder(std::make_unique<ObservationRecorder>(m_axis, options))
{
    const BatchClock* axis = &m_axis;
    lab->setClock([axis] { return std::chrono::duration_cast<std::chrono::milliseconds>(axis->now()).count(); });
    m_recorder->setScenario(lab->scenario().source);
    m_recorder->setSource(u"observe"_s);
    listen();
    m_labConnections << connect(lab, &FaultServer::exchangeFinished, this, &Observation::onExchange);
    m_labConnections << connect(lab, &FaultServer::labEvent, this, [this](const LabEvent& e) {
        if (m_recorder)
            m_recorder->recordLabEvent(e);
    });
}

Observation::~Observation()
{
    for (const QMetaObject::Connection& c : std::as_const(m_labConnections))
        disconnect(c);
    if (FaultServer* lab = m_lab.data())
        lab->setClock({}); // the lab may outlive the observation (the window's): back to its own clock
}

void Observation::listen()
{
    connect(m_recorder.get(), &ObservationRecorder::runStarted, this, &Observation::runStarted);
    connect(m_recorder.get(), &ObservationRecorder::attemptStored, this, &Observation::attemptStored);
    connect(m_recorder.get(), &ObservationRecorder::runFinished, this, &Observation::runFinished);
    connect(m_recorder.get(), &ObservationRecorder::labEventStored, this, &Observation::labEventStored);
}

bool Observation::journalTo(const QString& sessionPath, QString* error)
{
    return m_recorder->journalTo(sessionPath, error);
}

void Observation::setSource(const QString& source)
{
    m_recorder->setSource(source);
}

void Observation::setScenario(const QJsonObject& scenario)
{
    m_recorder->setScenario(scenario);
}

void Observation::onExchange(const LabExchange& exchange)
{
    if (m_finished)
        return;
    const RetryInference::Placement where = m_recorder->addExchange(exchange);
    const ObservedRun& run = inference().runs().at(where.run);
    Q_EMIT placed(run, run.attempts.at(where.index - 1));
}

void Observation::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    for (const QMetaObject::Connection& c : std::as_const(m_labConnections))
        disconnect(c);
    m_labConnections.clear();
    m_recorder->finish();
}

bool Observation::save(QString* error)
{
    finish();
    return m_recorder->save(error);
}

std::unique_ptr<ObservationRecorder> Observation::takeRecorder()
{
    finish();
    m_recorder->disconnect(this);
    return std::move(m_recorder);
}
