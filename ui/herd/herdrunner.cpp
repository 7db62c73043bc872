// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/herdrunner.h"

#include "sim/herdsimulator.h"

#include <QElapsedTimer>
#include <QPointer>

HerdRunner::HerdRunner(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1); // one simulation at a time: a cancelled one ends before the next starts
}

HerdRunner::~HerdRunner()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

void HerdRunner::deliver(quint64 generation, std::function<void()> report)
{
    QPointer<HerdRunner> self(this);
    QMetaObject::invokeMethod(
        this,
        [self, generation, report = std::move(report)] {
            if (self && self->m_generation == generation)
                report();
        },
        Qt::QueuedConnection);
}

quint64 HerdRunner::start(const HerdExperiment& experiment)
{
    if (m_cancel)
        m_cancel->store(true);
    const quint64 generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_pending = experiment;
    m_running = true;
    m_progress = 0;
    m_reports = 0;
    emit started();
    m_pool.start([this, experiment, generation, cancel = m_cancel, threads = m_threads] {
        // Called on this worker thread only: the throttle's state needs no lock.
        QElapsedTimer sinceReport;
        const auto progress = [this, generation, &sinceReport](double share) {
            if (sinceReport.isValid() && sinceReport.elapsed() < kProgressIntervalMs)
                return;
            sinceReport.start();
            deliver(generation, [this, share] {
                m_progress = share;
                ++m_reports;
                emit progressChanged(share);
            });
        };
        HerdResult result = runHerdExperiment(experiment, cancel.get(), progress, threads);
        if (cancel->load())
            result.cancelled = true;
        deliver(generation, [this, result = std::move(result)]() mutable {
            m_running = false;
            m_result = std::move(result);
            m_experiment = m_pending;
            if (!m_result.cancelled) {
                m_progress = 1;
                emit progressChanged(1);
            }
            emit finished(m_result.cancelled);
        });
    });
    return generation;
}

void HerdRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}
