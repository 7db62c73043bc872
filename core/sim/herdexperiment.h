// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A herd experiment as data: a server model, a population of clients, the failure that strikes the server,
// and one to four policies the clients run (issue 29 §1). Plain copyable values with their defaults here;
// the JSON form is herdexperimentjson.h, the built-in experiments herdcatalog.h, the simulation
// herdsimulator.h. Times are on the simulation's virtual axis, in milliseconds from its start.

#include "policy/retrypolicy.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

// [start, start + duration) on the virtual axis.
struct HerdWindow
{
    Millis start { 0 };
    Millis duration { 0 };
    Millis end() const { return start + duration; }
    friend bool operator==(const HerdWindow&, const HerdWindow&) = default;
};

// A random duration: fixed, exponential with a mean, or |N(mean, sd)| (the AWS 2015 simulator's hops).
struct HerdDistribution
{
    enum class Kind : quint8 { Fixed, Exponential, Normal };
    Kind kind = Kind::Fixed;
    double meanMs = 0;
    double sdMs = 0; // Normal only
    friend bool operator==(const HerdDistribution&, const HerdDistribution&) = default;
};

// What the failing server answers while an outage lasts.
enum class HerdOutageAnswer : quint8 {
    Status, // an HTTP status at once (outageStatus, with Retry-After when retryAfter is set)
    Reset, // the connection is reset after the request arrived (connection-lost)
    Refuse, // the connection is refused (refused: the server never saw it)
    Hang, // no answer at all: the client's attempt timeout ends it
};

struct HerdServerModel
{
    enum class Kind : quint8 {
        Queue, // servers, a queue, a service time (and latency that grows with load)
        OptimisticRow, // AWS 2015: one row; read its version, then a conditional write that fails on a race
    };
    Kind kind = Kind::Queue;
    int concurrency = 0; // requests in service at once; 0 = no limit (every arrival is served at once)
    HerdDistribution service { HerdDistribution::Kind::Fixed, 100, 0 };
    double loadLatencyMs = 0; // added to a request's service time per request already in service (Brooker)
    std::optional<int> queueLimit; // requests waiting for a server; beyond it the server answers overloadStatus
    std::optional<Millis> queueTimeout; // a request that waited longer is answered overloadStatus when its turn comes
    int overloadStatus = 503;
    HerdDistribution hop { HerdDistribution::Kind::Fixed, 0, 0 }; // network delay, each way
    double errorRate = 0; // a share of the requests served answers errorStatus instead
    int errorStatus = 503;
    std::optional<Millis> retryAfter; // sent with 429 and 503 answers (delta-seconds, rounded up)
    std::optional<HerdWindow> outage;
    HerdOutageAnswer outageAnswer = HerdOutageAnswer::Status;
    int outageStatus = 503;
    std::optional<HerdWindow> cut; // capacity cut: service times divided by cutFraction while it lasts
    double cutFraction = 1.0;
    std::optional<HerdWindow> latencySpike; // every service started in it takes latencySpikeMs longer
    double latencySpikeMs = 0;
    friend bool operator==(const HerdServerModel&, const HerdServerModel&) = default;
};

struct HerdClientModel
{
    enum class Loop : quint8 {
        Closed, // `clients` clients each send requestsPerClient requests, one after the other
        Open, // requests arrive at `rate` per second whatever happened to earlier ones, `clients` in all
    };
    Loop loop = Loop::Closed;
    int clients = 100; // Closed: clients; Open: requests (each an independent logical request)
    int requestsPerClient = 1; // Closed
    Millis think { 0 }; // Closed: between a client's answer and its next request
    double rate = 0; // Open: arrivals per second
    bool poisson = true; // Open: exponential gaps; false: fixed gaps
    std::optional<HerdWindow> spike; // Open: the rate is spikeRate in this window (a load spike)
    double spikeRate = 0;
    // Open: the processes the arrivals are spread over, round robin; each keeps its own budgets and breaker
    // (Brooker 2022's 100 independent clients). Closed: every client is a process of its own.
    int processes = 100;
    QString method = QStringLiteral("GET"); // with the policy's idempotency settings: what the server may apply twice
    std::optional<Millis> attemptTimeout; // overrides the policy's (and its pipeline's) attempt timeout
    friend bool operator==(const HerdClientModel&, const HerdClientModel&) = default;
};

struct HerdPolicy
{
    QString label; // in tables, charts and JSON ("full-jitter", or the preset's name)
    RetryPolicy policy;
    friend bool operator==(const HerdPolicy&, const HerdPolicy&) = default;
};

struct HerdExperiment
{
    QString name; // "aws-2015", or the user's
    QString title; // one line
    QString source; // where the model and its claims come from
    QString claims; // what it must reproduce, in words
    HerdServerModel server;
    HerdClientModel clients;
    Millis duration { 0 }; // Open: arrivals and measuring stop here; Closed: a cap (0 = until every client is done)
    int runs = 1; // each policy runs this many times, seeds seed, seed+1, …; totals are their means
    std::uint64_t seed = 1;
    Millis resolution { 1000 }; // of the time series
    QList<HerdPolicy> policies; // 1 to 4 in the view; any number in the CLI
    friend bool operator==(const HerdExperiment&, const HerdExperiment&) = default;
};

// Every problem of EXPERIMENT at once, each with its JSON path ("server.cut.fraction"); empty when it runs.
// Policies are checked with validate() and refused when they hold what the simulator does not run.
QList<PolicyProblem> validate(const HerdExperiment& experiment);
