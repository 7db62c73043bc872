// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/labexchange.h"
#include "lab/labexchangejson.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// One operation the server applied (a settlement, a deletion…).
struct LabOperation
{
    QString route;
    QString operation;
    QString idempotencyKey;
    QString attemptId;
    qint64 atMs = 0;
};

// One scenario request the server received (control requests under /_lab/ are not recorded).
struct LabReceipt
{
    quint64 requestId = 0;
    QString method;
    QString path;
    QString route;
    QString attemptId;
    QString idempotencyKey;
    QString outcome; // step kind, "replay", "rate-limited", "409", …
    int status = 0;
    qint64 atMs = 0;
};

// A stretch of time the whole server was down: an outage window of the scenario, or one an `outage` step
// started. Times on the lab's clock; `untilMs` unset while it lasts.
struct LabOutage
{
    QString cause; // "window" or "step"
    int window = -1; // cause window: its index in the scenario's outages
    QString route; // cause step: the route whose step started it…
    int step = -1; // …and the step's index in that route
    QString mode; // status, reset, refuse
    int status = 0; // status mode: the answer's status
    qint64 fromMs = 0;
    std::optional<qint64> untilMs;
    int requestsFailed = 0; // scenario requests it failed (refused connections never arrive: not counted)
};

// What the fault lab received and applied, so a test or a user can prove nothing was applied twice and
// every attempt was transmitted exactly once (receipts are counted per attempt-id header value), and every
// exchange whole (LabExchange: headers, body hash, answer, times).
class LabLedger
{
public:
    static constexpr qsizetype maxReceipts = 10000; // older receipts are dropped from the list, not the counts
    // Exchanges kept in the list: at most this many, and at most about this many bytes of headers and
    // kept bodies together; the oldest go first. The counts stay exact.
    static constexpr qsizetype maxExchanges = 10000;
    static constexpr qsizetype maxExchangeBytes = 64 * 1024 * 1024;

    quint64 recordRequest(const LabReceipt& receipt);
    void setOutcome(quint64 requestId, const QString& outcome, int status);
    void recordOperation(const LabOperation& operation);
    void recordExchange(const LabExchange& exchange);
    // An outage began: its index, for the two calls after it.
    int beginOutage(const LabOutage& outage);
    void countOutageFailure(int outage);
    void endOutage(int outage, qint64 untilMs);
    void clear();
    // Secret header values are written redacted with this salt (FaultServer sets one per server).
    void setRedactionSalt(const QByteArray& salt) { m_salt = salt; }

    int requestsReceived() const { return m_requestsReceived; }
    int operationsApplied() const { return int(m_operations.size()); }
    const QList<LabOperation>& operations() const { return m_operations; }
    const QList<LabReceipt>& receipts() const { return m_receipts; }
    int operationsForKey(const QString& idempotencyKey) const;
    int receiptsForAttempt(const QString& attemptId) const { return m_perAttempt.value(attemptId); }
    QStringList attemptsReceivedMoreThanOnce() const;
    qint64 exchangesRecorded() const { return m_exchangesRecorded; } // every exchange that ended, exact
    const QList<LabExchange>& exchanges() const { return m_exchanges; } // the newest, bounded
    const QHash<QString, qint64>& exchangeOutcomes() const { return m_outcomes; } // outcome → count, exact
    const QList<LabOutage>& outages() const { return m_outages; }

    // {"requests_received":N,"operations_applied":M,"operations":[…],"requests":[…],"attempts":{id:n},
    //  "duplicate_attempts":[…],"exchanges_recorded":N,"exchanges_kept":K,"exchange_outcomes":{…},
    //  "exchanges":[…],"outages":[{"cause":…,"mode":…,"from_ms":…,"until_ms":…,"requests_failed":…}]} —
    // secret header values redacted unless FILTER says otherwise.
    QJsonObject toJson() const;
    QJsonObject toJson(const LabExchangeJson::HeaderFilter& filter) const;

private:
    int m_requestsReceived = 0;
    QList<LabOperation> m_operations;
    QList<LabReceipt> m_receipts;
    QHash<QString, int> m_perAttempt;
    QList<LabExchange> m_exchanges;
    QList<qsizetype> m_exchangeSizes;
    qsizetype m_exchangeBytes = 0;
    qint64 m_exchangesRecorded = 0;
    QHash<QString, qint64> m_outcomes;
    QList<LabOutage> m_outages;
    QByteArray m_salt;
};
