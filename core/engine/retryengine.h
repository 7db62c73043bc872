// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs logical requests under a policy, many at once, and reports every attempt as it happens.
// Decide, then schedule: decide() (core/policy) says retry-after-d / stop / success; the engine only
// schedules the next attempt on the injected Scheduler. Never blocks; no nested event loops.

#include "engine/attemptrecord.h"
#include "engine/breakerchange.h"
#include "engine/budgetbook.h"
#include "engine/hostthrottlestate.h"
#include "engine/requestspec.h"
#include "engine/runrecord.h"
#include "engine/transport.h"
#include "policy/retrypolicy.h"

#include "policy/attemptoutcome.h"

#include <QObject>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>

class BreakerBook;
class Clock;
struct EngineRun;
class QNetworkAccessManager;
class RandomSource;
class Scheduler;
class WireSlots;

// Why the engine cannot run POLICY as written, or empty when it can. It runs a pipeline's retry, circuit
// breaker, timeouts, a rate limiter (bulkhead) outside the retry, and hedging without a retry (a breaker,
// a limiter without a queue and the attempt timeout inside it guard each copy). What it does not run — a
// limiter inside the retry, hedging with a retry, a queue or a waiting half-open breaker inside the
// hedging, a connection limit under hedging — is refused by name rather than run without it.
QString engineRefusal(const RetryPolicy& policy);

class RetryEngine final : public QObject
{
    Q_OBJECT
public:
    // CLOCK and SCHEDULER must outlive the engine. Every attempt in flight gets a wire slot of its own (a
    // QNetworkAccessManager, engine/wireslots.h) for the default transport; setTransportFactory() replaces
    // the transport (tests).
    RetryEngine(const Clock& clock, Scheduler& scheduler, QObject* parent = nullptr);
    ~RetryEngine() override;

    void setTransportFactory(TransportFactory factory);
    // Every run draws jitter from RANDOM instead of its own seeded source (tests pin draws with it).
    void setRandomSource(RandomSource* random) { m_random = random; }
    // How many runs may be in progress (attempting or waiting) at once; others queue. ≥ 1.
    void setConcurrencyLimit(int limit);
    int concurrencyLimit() const { return m_limit; }
    // Seeds of runs submitted without one: BASE, BASE+1, … in submission order.
    void setBaseSeed(std::uint64_t base) { m_nextSeed = base; }

    // Queues a run; returns its id (1, 2, …). The policy is copied now.
    int submit(const RequestSpec& request, const RetryPolicy& policy, std::optional<std::uint64_t> seed = {});
    // Ends a run at any phase: queued, attempting (its reply aborted) or waiting. The run's last signal
    // is runFinished (outcome `cancelled`); nothing is emitted for it afterwards.
    void cancel(int runId);
    void cancelAll();

    int runningCount() const;
    int queuedCount() const;
    int attemptsInFlight() const; // on the wire now (each holds a wire slot)
    bool isIdle() const { return m_runs.empty(); }
    // The wire slots: how many managers exist and how many carry an attempt now.
    const WireSlots& wireSlots() const { return *m_slots; }
    // The per-host throttle's state: what every run learnt about each host's quota (shared by all runs).
    const HostThrottleState& hostThrottle() const { return m_hostThrottle; }

    static void registerMetaTypes();

Q_SIGNALS:
    void runStarted(const RunSummary& run); // left the queue; no attempts yet
    void attemptStarted(const AttemptRecord& attempt); // request part and at.scheduled/at.started set
    void attemptPhase(const AttemptPhaseEvent& event);
    void attemptFinished(const AttemptRecord& attempt); // complete, with its decision
    void waitScheduled(const WaitInfo& wait);
    void breakerChanged(const BreakerChange& change); // a pipeline breaker's state changed (any run's)
    void runFinished(const RunSummary& run);
    void idle(); // no run queued or in progress

private:
    void pump();
    void startRun(EngineRun& run);
    void startAttempt(EngineRun& run, MonoTime scheduledAt);
    void launchAttempt(EngineRun& run, MonoTime scheduledAt, int slot);
    void queueForConnection(EngineRun& run, const QString& host, MonoTime scheduledAt);
    void leaveConnectionQueue(EngineRun& run);
    bool deadlinePassed(const EngineRun& run) const;
    void finishQueuedAtDeadline(EngineRun& run);
    void releaseWireSlot(EngineRun& run);
    void serveConnectionQueue(const QString& host);
    bool holdForHostThrottle(EngineRun& run);
    void scheduleWait(EngineRun& run, const WaitInfo& info, bool throttleHold = false);
    void noteHostReset(const AttemptRecord& record);
    std::optional<Millis> hostResetIn(const QUrl& url) const;
    void onAttemptFinished(int runId, AttemptRecord record);
    // Hints, cookies and the host's reported reset from an attempt's answer (every attempt, hedged or not).
    void absorbAnswer(EngineRun& run, AttemptRecord& record);
    void decideAndContinue(EngineRun& run, AttemptRecord record, AttemptOutcome outcome);
    // decide() on RECORD's outcome with the run's budgets; applies the decision's effects and keeps it in
    // RECORD. ATTEMPT is what the decision context calls the attempt (a hedged copy is each a first try).
    RetryDecision decideOn(EngineRun& run, AttemptRecord& record, AttemptOutcome outcome, int attempt);
    // Hedging (issue 28 §2, retryenginehedging.cpp): the copies of one logical request, each an attempt.
    void beginHedging(EngineRun& run, MonoTime scheduledAt);
    void launchDueCopies(int runId, HedgeFacts::Trigger trigger);
    void launchCopy(EngineRun& run, int index, HedgeFacts::Trigger trigger, MonoTime scheduledAt);
    void armHedgeTimer(EngineRun& run);
    void onCopyFinished(int runId, AttemptRecord record);
    void copyEnded(EngineRun& run, AttemptRecord record);
    bool hedgingFailure(const EngineRun& run, const AttemptRecord& record) const;
    void cancelCopies(EngineRun& run, AbortReason reason, const QList<int>& indexes);
    void dropCopies(EngineRun& run);
    // The pipeline (issue 28 §2): a limiter's permit before the run's first attempt, the breaker's
    // admission before each attempt it guards. False: the run does not go on now (it waits, or was refused).
    bool takePermit(EngineRun& run);
    void releasePermit(EngineRun& run);
    bool passBreaker(EngineRun& run, MonoTime scheduledAt);
    // WAKE_WAITERS false: the caller wakes the callers waiting for the verdict itself, once it reported the call.
    void recordBreaker(EngineRun& run, bool failure, bool wakeWaiters = true);
    bool breakerFailure(const EngineRun& run, const AttemptRecord& record) const;
    bool matchesAny(const QList<RuleCondition>& conditions, const EngineRun& run, const AttemptRecord& record) const;
    void recordBreakerTicket(const QString& key, const CircuitBreaker::Ticket& ticket, bool failure, bool wakeWaiters = true);
    AttemptRecord refusedRecord(EngineRun& run, MonoTime scheduledAt, const StrategyRefusal& refusal, int index = 0);
    std::optional<StrategyRefusal> admitCopy(EngineRun& run, int index); // the breaker and limiter inside the hedging
    void publishBreaker(const QString& key);
    void wakeVerdictWaiters(const QString& key);
    void refuseAttempt(EngineRun& run, MonoTime scheduledAt, const StrategyRefusal& refusal);
    void finishRun(int runId, FinalKind kind, const QString& reason, std::optional<Millis> serverAskedFor = {});

    const Clock& m_clock;
    Scheduler& m_scheduler;
    WireSlots* m_slots = nullptr;
    std::map<QString, QList<int>> m_connectionQueue; // per host: runs waiting for a connection, in order
    TransportFactory m_factory;
    RandomSource* m_random = nullptr;
    int m_limit = 8;
    int m_nextId = 1;
    std::uint64_t m_nextSeed = 0;
    std::map<int, std::unique_ptr<EngineRun>> m_runs;
    bool m_draining = false;
    bool m_pumping = false;
    int m_running = 0; // runs started and not finished
    bool m_pumpAgain = false;
    HostThrottleState m_hostThrottle;
    BudgetBook m_budgets; // per policy, per client or host
    std::unique_ptr<BreakerBook> m_breakers; // per policy, breaker strategy and scope
    struct Limiter
    {
        int inUse = 0;
        QList<int> queue; // runs waiting for a permit, in order
    };
    std::map<QString, Limiter> m_limiters; // per policy and limiter strategy
};
