// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a recorded session's requests again and records the result as a new Session.
//   Offline (what-if): the recorded answers become a fault-lab scenario (ReplayScenario) served on
//   127.0.0.1, and each run's request goes to its own route. Nothing leaves the machine.
//   Live: the same requests to the recorded URLs, or to BASE_URL (scheme, host and port replaced).
// Policy: the recorded one per run, or POLICY for all. Seeds: the recorded ones, so a replay under the
// original policy draws the same jitter. Runs are submitted in recorded order with the recorded
// concurrency. Note: a session saved with redaction sends its "[redacted:…]" placeholders in live mode.

#include "policy/retrypolicy.h"
#include "session/session.h"

#include <QObject>
#include <QUrl>

#include <memory>
#include <optional>

class ElapsedClock;
class FaultServer;
class RetryEngine;
class TimerScheduler;

struct ReplayOptions
{
    bool live = false;
    QUrl baseUrl; // live only; empty: the recorded URLs
    std::optional<RetryPolicy> policy; // empty: each run's recorded policy
    int concurrency = 0; // 0: as recorded
};

class ReplayRunner final : public QObject
{
    Q_OBJECT
public:
    ReplayRunner(const Session& recorded, ReplayOptions options, QObject* parent = nullptr);
    ~ReplayRunner() override;

    bool start(QString* error); // finished() follows, from the event loop
    void cancel();
    const Session& result() const { return m_result; }
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void progress(int runsDone, int runsTotal);
    void finished();

private:
    const Session& m_recorded;
    ReplayOptions m_options;
    Session m_result;
    std::unique_ptr<ElapsedClock> m_clock;
    std::unique_ptr<TimerScheduler> m_scheduler;
    std::unique_ptr<FaultServer> m_lab;
    std::unique_ptr<RetryEngine> m_engine;
    int m_done = 0;
    bool m_running = false;
};
