// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a recorded session's requests again and records the result as a new Session.
//   Offline (what-if): the recorded answers become a fault-lab scenario (ReplayScenario) served on
//   127.0.0.1, and each run's request goes to its own route. Nothing leaves the machine.
//   Live: the same requests to the recorded URLs, or to BASE_URL: its scheme, host and port replace the
//   recorded ones and its path, if any, is put in front of each recorded path (a service behind a
//   prefix: http://staging/api + /v1/charges → http://staging/api/v1/charges); each query stays as recorded.
// Policy: the recorded one per run, or POLICY for all. Seeds: the recorded ones, so a replay under the
// original policy draws the same jitter. Runs are submitted in recorded order with the recorded
// concurrency. Note: a session saved with redaction sends its "[redacted:…]" placeholders in live mode.
// Time: a live replay waits in real time on the clock and scheduler it is given; an offline one runs on
// virtual time (engine/virtualtime.h): the same attempts, decisions and delays, without the waiting.

#include "http/targeturl.h"
#include "policy/retrypolicy.h"
#include "policy/settings/policychanges.h"
#include "session/session.h"

#include <QObject>
#include <QUrl>

#include <memory>
#include <optional>

class Batch;
class Clock;
class FaultServer;
class Scheduler;
class VirtualClock;
class VirtualScheduler;

struct ReplayOptions
{
    bool live = false;
    QUrl baseUrl; // live only; empty: the recorded URLs
    std::optional<RetryPolicy> policy; // empty: each run's recorded policy
    PolicyChanges policyChanges; // what was changed in a preset or file to make POLICY; recorded beside it
    int concurrency = 0; // 0: as recorded
    bool realTime = false; // offline only: wait in real time too (a live replay always does)
};

class ReplayRunner final : public QObject
{
    Q_OBJECT
public:
    // CLOCK and SCHEDULER (the program's real pair) time a live replay (and an offline one in real time)
    // and must outlive the runner.
    ReplayRunner(const Session& recorded, ReplayOptions options, const Clock& clock, Scheduler& scheduler,
        QObject* parent = nullptr);
    ~ReplayRunner() override;

    // A live replay's base URL as typed: a target URL (TargetUrl) without a query, fragment or user info.
    // A query is refused rather than merged, since appending, replacing and overriding the recorded
    // queries' parameters are all plausible readings; credentials belong in a header.
    static TargetUrl::Parsed parseBaseUrl(const QString& text);
    static QString baseUrlProblem(const QUrl& url); // empty when URL can be a base URL

    bool start(QString* error); // finished() follows, from the event loop
    void cancel();
    const Session& result() const { return m_result; }
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void progress(int runsDone, int runsTotal);
    void finished();

private:
    void onIdle();

    const Session& m_recorded;
    ReplayOptions m_options;
    const Clock& m_clock;
    Scheduler& m_scheduler;
    Session m_result;
    std::unique_ptr<VirtualClock> m_virtualClock;
    std::unique_ptr<VirtualScheduler> m_virtualScheduler;
    std::unique_ptr<FaultServer> m_lab;
    std::unique_ptr<Batch> m_batch;
    int m_done = 0;
    bool m_running = false;
};
