// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a herd experiment off the GUI thread (runHerdExperiment on a thread of its own) and reports back on
// the thread that owns it: progress at most 20 times a second, then the result. Cancel by generation, as
// SessionJobs does: cancel() (or a newer start()) sets the running job's cancel flag, which the simulator
// reads between events, and a late report of an older job is dropped, so it never replaces a newer result.

#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>

class HerdRunner final : public QObject
{
    Q_OBJECT
public:
    // Progress reports closer together than this are dropped (the last one, 100 %, never is).
    static constexpr int kProgressIntervalMs = 50;

    explicit HerdRunner(QObject* parent = nullptr);
    ~HerdRunner() override; // cancels and waits for the running job

    // The threads a simulation spreads its runs over (0, the default: one per core). With every core busy the
    // GUI thread still wakes within a few ms (bench_ui --case herd: p99 3.9 ms on 2 cores, 2.3 ms with one
    // core left free), and the result comes twice as fast; a caller may leave cores free all the same.
    void setThreads(int threads) { m_threads = threads; }
    int threads() const { return m_threads; }

    // Starts EXPERIMENT, cancelling the job in progress; returns its generation.
    quint64 start(const HerdExperiment& experiment);
    void cancel();
    bool isRunning() const { return m_running; }
    // The last finished job's result (cancelled: what it had measured, with cancelled set) and experiment.
    const HerdResult& result() const { return m_result; }
    const HerdExperiment& experiment() const { return m_experiment; }
    double progress() const { return m_progress; }
    // How many progress reports reached this thread in the last job (tests check the throttle).
    int progressReports() const { return m_reports; }
    bool waitForIdle(int msecs = -1) { return m_pool.waitForDone(msecs); }

Q_SIGNALS:
    void started();
    void progressChanged(double share);
    // The job ended: read result(); CANCELLED when it was cancelled before it finished.
    void finished(bool cancelled);

private:
    void deliver(quint64 generation, std::function<void()> report);

    QThreadPool m_pool;
    int m_threads = 0;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel;
    bool m_running = false;
    double m_progress = 0;
    int m_reports = 0;
    HerdResult m_result;
    HerdExperiment m_experiment;
    HerdExperiment m_pending; // the experiment of the job in progress
};
