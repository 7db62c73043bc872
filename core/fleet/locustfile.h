// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The locustfile a fleet runs (issue 32 §1): a Locust user that makes logical requests under a retry policy,
// the policy's rules and plan being exactly the Python the code export writes for urllib3
// (codegen/targets/pythonpolicy.h), so nothing about a decision is written twice. Every logical request has
// its own idempotency key and an attempt header "ID;attempt=N" (the lab's X-Retrylab-Attempt, which groups
// attempts exactly); every attempt is fired through Locust's `request` event with its facts in the
// context, and the workers send them to the master in batches with Locust's custom messages
// ("retrylab_attempts", then one "retrylab_done" per worker). The master writes them as JSON lines to the file
// named by RETRYLAB_FLEET_OUT and quits once every expected worker is done. Facts:
// shared/reference/resilience-fleets.md §3a.

#include "codegen/codeexport.h"
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QString>

struct LocustFileOptions
{
    enum class Arrival : quint8 {
        Closed, // each user sends its next logical request when the last one ended (plus `think`)
        Open, // logical requests start at `rate` per second in all, whatever became of earlier ones
    };
    QString url; // what every logical request asks for
    QString method = QStringLiteral("GET");
    Arrival arrival = Arrival::Closed;
    double rate = 0; // Open: logical requests per second, all users together
    Millis think { 0 }; // Closed: between a user's logical requests
    int users = 1; // Open: the rate is split evenly between them
    Millis duration { 10000 }; // no logical request starts after this (from the worker's test start)
    Millis drain { 30000 }; // after `duration`, requests under way may go on this long, then are cut
    Millis defaultAttemptTimeout { 30000 }; // when the policy sets none (a real client would wait forever)
    QByteArray attemptHeader = "X-Retrylab-Attempt";
    bool recordAttempts = true; // false: no request events at all (to measure what recording costs)
};

namespace LocustFile {

// The whole locustfile for POLICY. LOST receives what the policy holds that its Python form cannot express
// (the urllib3 export's own list): the fleet reports it.
QString write(const RetryPolicy& policy, const LocustFileOptions& options, QList<LostBehaviour>* lost = nullptr);

} // namespace LocustFile
