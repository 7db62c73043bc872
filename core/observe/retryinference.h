// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Groups the exchanges a lab saw into the logical requests their clients made, each a run of attempts,
// by the strongest evidence present; the rule used is recorded on the run (ObservedGrouping):
//
//  1. "attempt-header": the client numbered its attempts (attemptevidence.h). A header with an id
//     (X-Retrylab-Attempt, amz-sdk-invocation-id, x-ms-client-request-id, gccl-invocation-id) groups by
//     the id. A header with only a count (x-stainless-retry-count, x-envoy-attempt-count,
//     grpc-previous-rpc-attempts, Retry-Attempt) chains attempt N onto the latest run of the same
//     fingerprint whose last attempt was N − 1 (for the headers sent on retries only, onto an unmarked
//     first attempt) within the window.
//  2. "idempotency-key": the same Idempotency-Key value, at any distance in time.
//  3. "fingerprint" (heuristic): the same client (address and User-Agent), method, target and body hash,
//     repeated after a failed answer (failedExchange()) within the window, onto the latest such run.
//     Two identical clients on one address cannot be told apart by this rule; it is labelled as a guess.
//
// Exchanges are added in the order they end (or arrive): a retry arrives after the attempt before it
// ended, so its run is already known. infer() sorts a whole list by arrival first.

#include "observe/observedrun.h"

#include <QHash>

#include <functional>

struct InferenceOptions
{
    Millis window { 5 * 60 * 1000 }; // how long after a failed answer a repetition still counts as a retry
    // The wall-clock time at lab time 0, for Retry-After dates in answers without a valid Date field.
    QDateTime wallOrigin;
};

class RetryInference
{
public:
    explicit RetryInference(InferenceOptions options = {});

    struct Placement
    {
        qsizetype run = -1; // index into runs()
        int index = 1; // the attempt's index in it
        bool newRun = true;
    };
    Placement add(const LabExchange& exchange);

    const QList<ObservedRun>& runs() const { return m_runs; }
    qsizetype attemptCount() const { return m_attempts; }

    static QList<ObservedRun> infer(QList<LabExchange> exchanges, const InferenceOptions& options = {});

private:
    QString fingerprintOf(const LabExchange& exchange) const;
    qsizetype findByCount(const AttemptEvidence& evidence, const QString& fingerprint, qint64 arrivedMs) const;
    qsizetype findByFingerprint(const QString& fingerprint, qint64 arrivedMs) const;
    bool withinWindow(const ObservedRun& run, qint64 arrivedMs) const;
    Placement append(qsizetype run, const LabExchange& exchange, std::optional<AttemptEvidence> evidence);
    Placement start(ObservedGrouping grouping, const LabExchange& exchange, std::optional<AttemptEvidence> evidence);

    InferenceOptions m_options;
    QList<ObservedRun> m_runs;
    qsizetype m_attempts = 0;
    QHash<QByteArray, qsizetype> m_byId; // header + id → run
    QHash<QByteArray, qsizetype> m_byKey; // Idempotency-Key → run
    QHash<QString, QList<qsizetype>> m_byFingerprint; // fingerprint → runs, oldest first
};
