// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdsimulator.h"

#include "policy/answerfacts.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/resilience/circuitbreaker.h"
#include "policy/resilience/pipelineshape.h"
#include "policy/retrybudget.h"
#include "policy/rulematcher.h"
#include "sim/herdeventqueue.h"
#include "sim/herdjudgement.h"
#include "sim/herdlatency.h"
#include "sim/herdrandom.h"
#include "sim/herdverdicts.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

namespace {

using Micros = std::int64_t; // the virtual axis, in microseconds

Micros micros(double ms)
{
    return Micros(ms * 1000.0 + 0.5); // ms ≥ 0
}

Micros micros(Millis ms)
{
    return Micros(ms.count()) * 1000;
}

enum class EventKind : quint8 {
    Arrival, // open loop: the next request arrives
    Start, // closed loop: a client starts its next request
    Send, // a client sends an attempt (the first, or after a wait)
    ServerArrive, // the attempt reaches the server (optimistic row: its read)
    RowWrite, // optimistic row: the conditional write reaches the server
    ServiceDone, // the server finished an attempt
    Reply, // an answer reaches the client
    Timeout, // the client's attempt timeout (or the deadline) fired
    Sample, // the end of a series bucket
};

// 16 bytes: the heap moves these around more than anything else the simulator does. Events at the same
// microsecond come out in an order the heap's history fixes, so a run is still a function of its seed.
struct Event
{
    Micros at = 0;
    std::uint64_t packed = 0; // the attempt id (bits 0–31), the client (32–55), the kind (56–59), the code (60–63)

    std::uint32_t attempt() const { return std::uint32_t(packed); }
    std::uint32_t client() const { return std::uint32_t((packed >> 32) & 0xFFFFFF); }
    EventKind kind() const { return EventKind((packed >> 56) & 0xF); }
    HerdVerdicts::Code code() const { return HerdVerdicts::Code(packed >> 60); }
};
static_assert(sizeof(Event) == 16);
static_assert(HerdVerdicts::kCodes <= 16);

enum class Phase : quint8 { Idle, InFlight, Waiting, HeldByBreaker, Done };

// Everything one client keeps. Small: a million of them fit the 256-byte-per-client budget with room for
// the events in flight (issue 29 §4).
struct Client
{
    Micros requestStart = 0;
    Micros attemptStart = 0;
    BackoffState backoff;
    std::uint32_t attemptId = 0; // the current attempt's id, 0 = none
    std::uint32_t firstAttemptId = 0; // the current logical request's first attempt (ids only grow)
    std::uint32_t rowVersion = 0; // optimistic row: the version its read saw
    std::uint16_t attempt = 0; // within the logical request
    std::uint16_t requestsDone = 0;
    std::uint16_t quotaAcquired = 0;
    Phase phase = Phase::Idle;
    std::uint8_t applied = 0; // times the server applied the current logical request
    bool answerLost = false;
    bool deadlineFired = false;
    CircuitBreaker::Admission admission = CircuitBreaker::Admission::Allowed; // the breaker ticket in hand
    CircuitBreaker::State admittedIn = CircuitBreaker::State::Closed;
    bool holdsTicket = false;
};

// Hands decide() the run's draws and keeps a copy of each, for a trace.
class RecordingRandom final : public RandomSource
{
public:
    RecordingRandom(RandomSource& source, QList<double>& kept)
        : m_source(source)
        , m_kept(kept)
    {
    }
    double uniform01() override
    {
        const double value = m_source.uniform01();
        m_kept.append(value);
        return value;
    }

private:
    RandomSource& m_source;
    QList<double>& m_kept;
};

struct Queued
{
    std::uint32_t client;
    std::uint32_t attempt;
    Micros arrivedAt;
};

// What a client process shares between its requests: budgets and the breaker.
struct Process
{
    std::optional<RetryBudget> budget;
    std::optional<CircuitBreaker> breaker;
    std::vector<std::uint32_t> heldClients; // waiting for a half-open verdict (cockatiel)
};

class HerdWorld
{
public:
    HerdWorld(const HerdExperiment& experiment, const RetryPolicy& policy, std::uint64_t seed,
        QList<QList<HerdTraceAttempt>>* trace)
        : m_experiment(experiment)
        , m_server(experiment.server)
        , m_clientsModel(experiment.clients)
        , m_shape(readPipeline(policy))
        , m_random(seed)
        , m_verdicts(m_shape.policy, experiment)
        , m_trace(trace)
    {
        const RetryPolicy& p = m_shape.policy;
        m_open = m_clientsModel.loop == HerdClientModel::Loop::Open;
        m_clientCount = std::max(0, m_clientsModel.clients);
        m_clients.resize(std::size_t(m_clientCount));
        const int processes = m_open ? std::max(1, std::min(m_clientsModel.processes, m_clientCount)) : m_clientCount;
        m_processes.resize(std::size_t(std::max(0, processes)));
        if (p.quota.enabled || p.throttling.enabled)
            for (Process& process : m_processes)
                process.budget.emplace(p.quota, p.throttling);
        if (const ResilienceStrategy* breaker = m_shape.breaker())
            for (Process& process : m_processes)
                process.breaker.emplace(breaker->breaker);
        m_attemptTimeout = m_clientsModel.attemptTimeout ? m_clientsModel.attemptTimeout : p.limits.attemptTimeout;
        m_durationUs = micros(experiment.duration);
        m_resolutionUs = std::max<Micros>(1000, micros(experiment.resolution));
        if (m_trace) {
            m_trace->clear();
            m_trace->resize(m_clientCount);
        }
    }

    HerdRun run(const std::atomic_bool* cancel, const std::function<void(double)>& progress);

private:
    void push(Micros at, EventKind kind, std::uint32_t client = 0, std::uint32_t attempt = 0,
        HerdVerdicts::Code code = HerdVerdicts::Code::Ok)
    {
        const std::uint64_t packed = std::uint64_t(attempt) | (std::uint64_t(client) << 32)
            | (std::uint64_t(kind) << 56) | (std::uint64_t(code) << 60);
        m_events.push(Event { at, packed });
    }
    // The bucket of the event being handled (events come in time order; the Sample event moves it on).
    HerdSample& current() { return m_buckets[m_bucket]; }
    Process& processOf(std::uint32_t client) { return m_processes[client % m_processes.size()]; }
    bool within(const std::optional<HerdWindow>& window, Micros at) const
    {
        return window && at >= micros(window->start) && at < micros(window->end());
    }
    double hop() { return m_random.draw(m_server.hop); }

    void arrival(Micros now);
    void startRequest(std::uint32_t c, Micros now);
    void send(std::uint32_t c, Micros now);
    void serverArrive(std::uint32_t c, std::uint32_t attempt, Micros now);
    void rowWrite(std::uint32_t c, std::uint32_t attempt, Micros now);
    void startService(const Queued& q, Micros now);
    void serviceDone(std::uint32_t c, std::uint32_t attempt, HerdVerdicts::Code code, Micros now);
    void reply(std::uint32_t c, std::uint32_t attempt, HerdVerdicts::Code code, Micros now);
    void timeout(std::uint32_t c, std::uint32_t attempt, Micros now);
    void ended(std::uint32_t c, HerdVerdicts::Code code, Micros now, bool sent);
    void finish(std::uint32_t c, bool success, Micros now);
    void releaseHeld(Process& process, Micros now);
    void sample(Micros now);
    void busyChanged(Micros now, int delta);

    const HerdExperiment& m_experiment;
    const HerdServerModel& m_server;
    const HerdClientModel& m_clientsModel;
    const PipelineShape m_shape;
    HerdRandom m_random;
    HerdVerdicts m_verdicts;
    QList<QList<HerdTraceAttempt>>* m_trace;

    bool m_open = false;
    int m_clientCount = 0;
    std::vector<Client> m_clients;
    std::vector<Process> m_processes;
    std::optional<Millis> m_attemptTimeout;
    Micros m_durationUs = 0;
    Micros m_resolutionUs = 1000000;

    HerdEventQueue<Event> m_events;
    std::uint32_t m_attemptIds = 0;
    std::uint32_t m_nextArrival = 0;

    // The server.
    int m_inService = 0;
    std::deque<Queued> m_queue;
    std::uint32_t m_rowVersion = 0;
    Micros m_busySince = 0;
    double m_busyIntegral = 0; // request·µs in service, of the current bucket

    // What is counted.
    HerdTotals m_totals;
    std::vector<HerdSample> m_buckets = std::vector<HerdSample>(1);
    std::size_t m_bucket = 0;
    HerdLatency m_latency;
    int m_done = 0; // closed loop: clients with every request ended
    Micros m_lastEnd = 0;
};

void HerdWorld::busyChanged(Micros now, int delta)
{
    m_busyIntegral += double(m_inService) * double(now - m_busySince);
    m_busySince = now;
    m_inService += delta;
}

void HerdWorld::arrival(Micros now)
{
    if (m_nextArrival >= std::uint32_t(m_clientCount) || (m_durationUs > 0 && now >= m_durationUs))
        return;
    const std::uint32_t c = m_nextArrival++;
    startRequest(c, now);
    const double rate = within(m_clientsModel.spike, now) ? m_clientsModel.spikeRate : m_clientsModel.rate;
    if (rate > 0 && m_nextArrival < std::uint32_t(m_clientCount)) {
        const double gapMs = m_clientsModel.poisson ? m_random.exponential(1000.0 / rate) : 1000.0 / rate;
        push(now + std::max<Micros>(1, micros(gapMs)), EventKind::Arrival);
    }
}

void HerdWorld::startRequest(std::uint32_t c, Micros now)
{
    Client& client = m_clients[c];
    client.requestStart = now;
    client.attempt = 0;
    client.backoff = BackoffState {};
    client.applied = 0;
    client.answerLost = false;
    client.deadlineFired = false;
    client.quotaAcquired = 0;
    m_totals.requests += 1;
    current().offered += 1;
    // A breaker outside the retry sees the logical request as one call.
    if (m_shape.breaker() && !m_shape.breakerPerAttempt) {
        Process& process = processOf(c);
        const CircuitBreaker::Ticket ticket = process.breaker->admit(Millis(now / 1000));
        if (!ticket.sent()) {
            finish(c, false, now);
            return;
        }
        client.holdsTicket = true;
        client.admission = ticket.admission;
        client.admittedIn = ticket.state;
    }
    send(c, now);
}

// The client's next attempt leaves at NOW (later than the event being handled only when no breaker asks).
void HerdWorld::send(std::uint32_t c, Micros now)
{
    Client& client = m_clients[c];
    if (m_shape.breaker() && m_shape.breakerPerAttempt) {
        Process& process = processOf(c);
        const CircuitBreaker::Ticket ticket = process.breaker->admit(Millis(now / 1000));
        if (ticket.admission == CircuitBreaker::Admission::Wait) {
            client.phase = Phase::HeldByBreaker; // asked again when the probe's verdict comes
            process.heldClients.push_back(c);
            return;
        }
        client.holdsTicket = ticket.sent();
        client.admission = ticket.admission;
        client.admittedIn = ticket.state;
    }
    client.attempt += 1;
    client.attemptId = ++m_attemptIds;
    if (client.attempt == 1)
        client.firstAttemptId = client.attemptId;
    client.attemptStart = now;
    if (m_shape.breaker() && m_shape.breakerPerAttempt && !client.holdsTicket) {
        if (m_trace)
            (*m_trace)[c].append(HerdTraceAttempt { double(now) / 1000.0, 0, QStringLiteral("circuit-open"), Millis(0), {}, {} });
        ended(c, HerdVerdicts::Code::CircuitOpen, now, false);
        return;
    }
    client.phase = Phase::InFlight;
    m_totals.attempts += 1;
    if (m_trace)
        (*m_trace)[c].append(HerdTraceAttempt { double(now) / 1000.0, 0, {}, Millis(0), {}, {} });
    const Micros arrive = now + micros(hop());
    push(arrive, EventKind::ServerArrive, c, client.attemptId);
    // The attempt timeout, or the deadline when it comes first.
    std::optional<Micros> fire;
    if (m_attemptTimeout)
        fire = now + micros(*m_attemptTimeout);
    if (const std::optional<Millis>& deadline = m_shape.policy.limits.deadline) {
        const Micros at = client.requestStart + micros(*deadline);
        if (!fire || at < *fire) {
            fire = at;
            client.deadlineFired = true;
        } else {
            client.deadlineFired = false;
        }
    }
    if (fire)
        push(std::max(now, *fire), EventKind::Timeout, c, client.attemptId);
}

void HerdWorld::serverArrive(std::uint32_t c, std::uint32_t attempt, Micros now)
{
    using Code = HerdVerdicts::Code;
    if (within(m_server.outage, now)) {
        switch (m_server.outageAnswer) {
        case HerdOutageAnswer::Status:
            current().attempts += 1;
            push(now + micros(hop()), EventKind::Reply, c, attempt, Code::Outage);
            return;
        case HerdOutageAnswer::Reset:
            current().attempts += 1;
            push(now + micros(hop()), EventKind::Reply, c, attempt, Code::Reset);
            return;
        case HerdOutageAnswer::Refuse:
            push(now + micros(hop()), EventKind::Reply, c, attempt, Code::Refused);
            return;
        case HerdOutageAnswer::Hang:
            current().attempts += 1;
            return;
        }
    }
    current().attempts += 1;
    if (m_clients[c].attempt > 1 && m_clients[c].attemptId == attempt)
        current().retries += 1;
    if (m_server.kind == HerdServerModel::Kind::OptimisticRow) {
        // The read: the client learns the version, then sends its conditional write.
        m_clients[c].rowVersion = m_rowVersion;
        push(now + micros(hop()) + micros(hop()), EventKind::RowWrite, c, attempt);
        return;
    }
    const Queued q { c, attempt, now };
    if (m_server.concurrency <= 0 || m_inService < m_server.concurrency) {
        startService(q, now);
        return;
    }
    if (m_server.queueLimit && int(m_queue.size()) >= *m_server.queueLimit) {
        push(now + micros(hop()), EventKind::Reply, c, attempt, Code::Overload);
        return;
    }
    m_queue.push_back(q);
}

void HerdWorld::rowWrite(std::uint32_t c, std::uint32_t attempt, Micros now)
{
    m_totals.serverCalls += 1;
    Client& client = m_clients[c];
    const bool current = client.attemptId == attempt;
    HerdVerdicts::Code code = HerdVerdicts::Code::Conflict;
    if (current && client.rowVersion == m_rowVersion) {
        ++m_rowVersion;
        code = HerdVerdicts::Code::Ok;
    }
    push(now + micros(hop()), EventKind::Reply, c, attempt, code);
}

void HerdWorld::startService(const Queued& q, Micros now)
{
    busyChanged(now, +1);
    m_totals.serverCalls += 1;
    double ms = m_random.draw(m_server.service) + m_server.loadLatencyMs * double(m_inService);
    if (within(m_server.cut, now) && m_server.cutFraction > 0)
        ms /= m_server.cutFraction;
    if (within(m_server.latencySpike, now))
        ms += m_server.latencySpikeMs;
    HerdVerdicts::Code code = HerdVerdicts::Code::Ok;
    if (m_server.errorRate > 0 && m_random.uniform01() < m_server.errorRate)
        code = HerdVerdicts::Code::Error;
    push(now + micros(ms), EventKind::ServiceDone, q.client, q.attempt, code);
}

void HerdWorld::serviceDone(std::uint32_t c, std::uint32_t attempt, HerdVerdicts::Code code, Micros now)
{
    busyChanged(now, -1);
    Client& client = m_clients[c];
    // Applied: a success the server carried out, whether or not its client still waits for it (or has
    // ended). The attempts of one logical request carry ids from its first attempt's on.
    if (code == HerdVerdicts::Code::Ok && m_verdicts.appliesEachCopy() && attempt >= client.firstAttemptId) {
        if (client.applied < 255)
            ++client.applied;
        if (client.applied == 2)
            m_totals.duplicates += 1;
    }
    push(now + micros(hop()), EventKind::Reply, c, attempt, code);
    while (!m_queue.empty() && (m_server.concurrency <= 0 || m_inService < m_server.concurrency)) {
        const Queued next = m_queue.front();
        m_queue.pop_front();
        if (m_server.queueTimeout && now - next.arrivedAt > micros(*m_server.queueTimeout)) {
            push(now + micros(hop()), EventKind::Reply, next.client, next.attempt, HerdVerdicts::Code::Overload);
            continue;
        }
        startService(next, now);
    }
}

void HerdWorld::reply(std::uint32_t c, std::uint32_t attempt, HerdVerdicts::Code code, Micros now)
{
    Client& client = m_clients[c];
    if (client.attemptId != attempt || client.phase != Phase::InFlight)
        return; // the client gave up on this attempt (its timeout fired): the answer is dropped
    ended(c, code, now, true);
}

void HerdWorld::timeout(std::uint32_t c, std::uint32_t attempt, Micros now)
{
    Client& client = m_clients[c];
    if (client.attemptId != attempt || client.phase != Phase::InFlight)
        return;
    ended(c, client.deadlineFired ? HerdVerdicts::Code::Deadline : HerdVerdicts::Code::Timeout, now, true);
}

// An attempt ended with CODE (SENT: it went; a breaker's refusal did not): the breaker hears it, decide() says
// what comes next.
void HerdWorld::ended(std::uint32_t c, HerdVerdicts::Code code, Micros now, bool sent)
{
    Client& client = m_clients[c];
    Process& process = processOf(c);
    const Millis nowMs(now / 1000);
    const double durationMs = double(now - client.attemptStart) / 1000.0;
    if (m_trace && !(*m_trace)[c].isEmpty() && sent) {
        HerdTraceAttempt& t = (*m_trace)[c].last();
        t.status = m_verdicts.status(code);
        t.error = m_verdicts.errorName(code);
    }
    if (sent && client.holdsTicket && m_shape.breakerPerAttempt) {
        client.holdsTicket = false;
        const bool failure = m_verdicts.breakerFailure(code, client.answerLost, durationMs);
        process.breaker->record(CircuitBreaker::Ticket { client.admission, client.admittedIn, Millis(0) }, failure, nowMs);
        releaseHeld(process, now);
    }
    if (code == HerdVerdicts::Code::CircuitOpen && !m_shape.breakerInsideRetry) {
        finish(c, false, now); // nothing retries a refusal the breaker makes outside the retry
        return;
    }

    DecisionContext context;
    context.attempt = client.attempt;
    context.elapsed = Millis((now - client.requestStart) / 1000);
    context.explain = false;
    if (process.budget)
        context.budget = process.budget->view();
    const AnswerFacts& facts = code == HerdVerdicts::Code::CircuitOpen
        ? m_verdicts.refusal(std::max(Millis(0), process.breaker->openUntil() - nowMs), client.answerLost)
        : m_verdicts.facts(code, client.answerLost);
    QList<double> draws;
    RecordingRandom recording(m_random, draws);
    RandomSource& random = m_trace ? static_cast<RandomSource&>(recording) : static_cast<RandomSource&>(m_random);
    const RetryDecision d = decide(m_shape.policy, facts, context, client.backoff, random);
    if (process.budget) {
        process.budget->apply(d.effects, client.attempt > 1, client.quotaAcquired);
        client.quotaAcquired = std::uint16_t(std::min(65535, client.quotaAcquired + d.effects.quotaTaken));
    }
    if (m_verdicts.serverCouldHaveActed(code))
        client.answerLost = true;
    if (m_trace && !(*m_trace)[c].isEmpty()) {
        HerdTraceAttempt& t = (*m_trace)[c].last();
        t.verdict = verdictName(d.verdict);
        t.delay = d.verdict == Verdict::Retry ? d.delay : Millis(0);
        t.draws = draws;
    }
    if (d.verdict == Verdict::Retry) {
        client.phase = Phase::Waiting;
        // Without a breaker to ask when the wait ends, nothing can happen to the client meanwhile: the
        // attempt is made now for the moment it leaves, saving the heap an event per retry.
        if (m_shape.breaker() && m_shape.breakerPerAttempt)
            push(now + micros(d.delay), EventKind::Send, c);
        else
            send(c, now + micros(d.delay));
        return;
    }
    finish(c, d.verdict == Verdict::Success, now);
}

void HerdWorld::finish(std::uint32_t c, bool success, Micros now)
{
    Client& client = m_clients[c];
    client.phase = Phase::Done;
    client.attemptId = 0;
    if (client.holdsTicket) { // the breaker outside the retry: the logical request was its call
        client.holdsTicket = false;
        Process& process = processOf(c);
        process.breaker->record(CircuitBreaker::Ticket { client.admission, client.admittedIn, Millis(0) }, !success, Millis(now / 1000));
        releaseHeld(process, now);
    }
    if (success) {
        m_totals.succeeded += 1;
        current().goodput += 1;
    } else {
        m_totals.failed += 1;
    }
    m_latency.add(double(now - client.requestStart) / 1000.0);
    m_lastEnd = std::max(m_lastEnd, now);
    if (!m_open) {
        client.requestsDone += 1;
        if (client.requestsDone < m_clientsModel.requestsPerClient) {
            client.phase = Phase::Idle;
            push(now + micros(m_clientsModel.think), EventKind::Start, c);
        } else {
            ++m_done;
        }
    }
}

void HerdWorld::releaseHeld(Process& process, Micros now)
{
    if (process.heldClients.empty() || process.breaker->state(Millis(now / 1000)) == CircuitBreaker::State::HalfOpen)
        return;
    std::vector<std::uint32_t> held;
    held.swap(process.heldClients);
    for (std::uint32_t c : held)
        push(now, EventKind::Send, c);
}

void HerdWorld::sample(Micros now)
{
    HerdSample& s = current();
    busyChanged(now, 0);
    if (m_server.concurrency > 0)
        s.utilisation = m_busyIntegral / (double(m_server.concurrency) * double(m_resolutionUs));
    m_busyIntegral = 0;
    s.inService = m_inService;
    s.queue = double(m_queue.size());
    if (m_shape.breaker()) {
        int open = 0;
        for (Process& process : m_processes)
            open += process.breaker->state(Millis(now / 1000)) == CircuitBreaker::State::Open ? 1 : 0;
        s.breakerOpen = m_processes.empty() ? 0.0 : double(open) / double(m_processes.size());
    }
    if (!m_processes.empty() && m_processes.front().budget) {
        double tokens = 0;
        for (const Process& process : m_processes)
            tokens += process.budget->quotaEnabled() ? double(process.budget->quotaTokens()) : process.budget->throttlingTokens();
        s.budgetTokens = tokens / double(m_processes.size());
    }
    m_bucket += 1;
    m_buckets.resize(m_bucket + 1);
}

HerdRun HerdWorld::run(const std::atomic_bool* cancel, const std::function<void(double)>& progress)
{
    if (m_open) {
        push(0, EventKind::Arrival);
    } else {
        for (int c = 0; c < m_clientCount; ++c)
            push(0, EventKind::Start, std::uint32_t(c));
    }
    push(m_resolutionUs, EventKind::Sample);
    std::uint64_t handled = 0;
    Micros now = 0;
    bool stopped = false;
    while (!m_events.empty()) {
        const Event e = m_events.pop();
        const std::uint32_t client = e.client();
        const std::uint32_t attempt = e.attempt();
        if (m_durationUs > 0 && e.at > m_durationUs)
            break;
        now = e.at;
        switch (e.kind()) {
        case EventKind::Arrival:
            arrival(now);
            break;
        case EventKind::Start:
            startRequest(client, now);
            break;
        case EventKind::Send:
            send(client, now);
            break;
        case EventKind::ServerArrive:
            serverArrive(client, attempt, now);
            break;
        case EventKind::RowWrite:
            rowWrite(client, attempt, now);
            break;
        case EventKind::ServiceDone:
            serviceDone(client, attempt, e.code(), now);
            break;
        case EventKind::Reply:
            reply(client, attempt, e.code(), now);
            break;
        case EventKind::Timeout:
            timeout(client, attempt, now);
            break;
        case EventKind::Sample:
            sample(now);
            // Closed loop without a duration: sample until every client is done.
            if (m_open || m_durationUs > 0 || m_done < m_clientCount)
                push(now + m_resolutionUs, EventKind::Sample);
            break;
        }
        if (!m_open && m_done >= m_clientCount && m_durationUs == 0)
            break;
        if ((++handled & 0xFFFF) == 0) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                break;
            }
            if (progress) {
                const double share = m_durationUs > 0 ? double(now) / double(m_durationUs)
                                                      : double(m_done) / double(std::max(1, m_clientCount));
                progress(std::clamp(share, 0.0, 1.0));
            }
        }
    }
    if (!stopped && !m_open && m_durationUs == 0 && now % m_resolutionUs != 0)
        sample(now - now % m_resolutionUs + m_resolutionUs); // the last, partial bucket
    m_buckets.pop_back(); // the bucket after the last sample: never filled

    HerdRun out;
    m_totals.unfinished = std::max(0.0, m_totals.requests - m_totals.succeeded - m_totals.failed);
    m_totals.completionMs = double(m_lastEnd) / 1000.0;
    m_totals.latencyP50Ms = m_latency.quantile(0.50);
    m_totals.latencyP90Ms = m_latency.quantile(0.90);
    m_totals.latencyP99Ms = m_latency.quantile(0.99);
    out.totals = m_totals;
    out.series.resolution = Millis(m_resolutionUs / 1000);
    const std::size_t kept = m_durationUs > 0 ? std::size_t((m_durationUs + m_resolutionUs - 1) / m_resolutionUs)
                                              : m_buckets.size();
    m_buckets.resize(std::max(kept, std::size_t(1)));
    const double perSecond = 1e6 / double(m_resolutionUs);
    for (HerdSample& s : m_buckets) {
        s.offered *= perSecond;
        s.attempts *= perSecond;
        s.goodput *= perSecond;
        s.retries *= perSecond;
        out.series.samples.append(s);
    }
    const double measuredSeconds = m_durationUs > 0 ? double(m_durationUs) / 1e6 : double(m_lastEnd) / 1e6;
    out.goodput = measuredSeconds > 0 ? m_totals.succeeded / measuredSeconds : 0;
    judgeRecovery(m_experiment, out.series, out.recovered, out.collapsedAt);
    return out;
}

} // namespace

HerdRun HerdSimulator::run(const HerdExperiment& experiment, const RetryPolicy& policy, std::uint64_t seed,
    const std::atomic_bool* cancel, const std::function<void(double)>& progress, QList<QList<HerdTraceAttempt>>* trace)
{
    HerdWorld world(experiment, policy, seed, trace);
    return world.run(cancel, progress);
}
