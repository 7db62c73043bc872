// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

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

// What the fault lab received and applied, so a test or a user can prove nothing was applied twice and
// every attempt was transmitted exactly once (receipts are counted per attempt-id header value).
class LabLedger
{
public:
    static constexpr qsizetype maxReceipts = 10000; // older receipts are dropped from the list, not the counts

    quint64 recordRequest(const LabReceipt& receipt);
    void setOutcome(quint64 requestId, const QString& outcome, int status);
    void recordOperation(const LabOperation& operation);
    void clear();

    int requestsReceived() const { return m_requestsReceived; }
    int operationsApplied() const { return int(m_operations.size()); }
    const QList<LabOperation>& operations() const { return m_operations; }
    const QList<LabReceipt>& receipts() const { return m_receipts; }
    int operationsForKey(const QString& idempotencyKey) const;
    int receiptsForAttempt(const QString& attemptId) const { return m_perAttempt.value(attemptId); }
    QStringList attemptsReceivedMoreThanOnce() const;

    // {"requests_received":N,"operations_applied":M,"operations":[…],"requests":[…],"attempts":{id:n},
    //  "duplicate_attempts":[…]}
    QJsonObject toJson() const;

private:
    int m_requestsReceived = 0;
    QList<LabOperation> m_operations;
    QList<LabReceipt> m_receipts;
    QHash<QString, int> m_perAttempt;
};
