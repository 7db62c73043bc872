// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labledger.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

quint64 LabLedger::recordRequest(const LabReceipt& receipt)
{
    ++m_requestsReceived;
    if (!receipt.attemptId.isEmpty())
        ++m_perAttempt[receipt.attemptId];
    m_receipts.append(receipt);
    if (m_receipts.size() > maxReceipts)
        m_receipts.removeFirst();
    return receipt.requestId;
}

void LabLedger::setOutcome(quint64 requestId, const QString& outcome, int status)
{
    for (auto it = m_receipts.rbegin(); it != m_receipts.rend(); ++it) {
        if (it->requestId == requestId) {
            it->outcome = outcome;
            it->status = status;
            return;
        }
    }
}

void LabLedger::recordOperation(const LabOperation& operation)
{
    m_operations.append(operation);
}

void LabLedger::recordExchange(const LabExchange& exchange)
{
    ++m_exchangesRecorded;
    ++m_outcomes[exchange.outcome];
    qsizetype size = 512 + exchange.requestBody.size() + exchange.target.size();
    for (const HttpHeaderList* headers : { &exchange.requestHeaders, &exchange.responseHeaders }) {
        for (const auto& [name, value] : *headers)
            size += name.size() + value.size() + 32;
    }
    m_exchanges.append(exchange);
    m_exchangeSizes.append(size);
    m_exchangeBytes += size;
    while (m_exchanges.size() > maxExchanges || (m_exchangeBytes > maxExchangeBytes && m_exchanges.size() > 1)) {
        m_exchangeBytes -= m_exchangeSizes.takeFirst();
        m_exchanges.removeFirst();
    }
}

int LabLedger::beginOutage(const LabOutage& outage)
{
    m_outages.append(outage);
    return int(m_outages.size()) - 1;
}

void LabLedger::countOutageFailure(int outage)
{
    if (outage >= 0 && outage < m_outages.size())
        ++m_outages[outage].requestsFailed;
}

void LabLedger::endOutage(int outage, qint64 untilMs)
{
    if (outage >= 0 && outage < m_outages.size())
        m_outages[outage].untilMs = untilMs;
}

void LabLedger::clear()
{
    m_outages.clear();
    m_exchanges.clear();
    m_exchangeSizes.clear();
    m_exchangeBytes = 0;
    m_exchangesRecorded = 0;
    m_outcomes.clear();
    m_requestsReceived = 0;
    m_operations.clear();
    m_receipts.clear();
    m_perAttempt.clear();
}

int LabLedger::operationsForKey(const QString& idempotencyKey) const
{
    return int(std::count_if(m_operations.cbegin(), m_operations.cend(),
        [&](const LabOperation& op) { return op.idempotencyKey == idempotencyKey; }));
}

QStringList LabLedger::attemptsReceivedMoreThanOnce() const
{
    QStringList ids;
    for (auto it = m_perAttempt.cbegin(); it != m_perAttempt.cend(); ++it) {
        if (it.value() > 1)
            ids << it.key();
    }
    ids.sort();
    return ids;
}

QJsonObject LabLedger::toJson() const
{
    return toJson(LabExchangeJson::secretRedactor(m_salt));
}

QJsonObject LabLedger::toJson(const LabExchangeJson::HeaderFilter& filter) const
{
    QJsonArray operations;
    for (const LabOperation& op : m_operations) {
        operations.append(QJsonObject { { u"route"_s, op.route }, { u"operation"_s, op.operation },
            { u"idempotency_key"_s, op.idempotencyKey.isEmpty() ? QJsonValue() : QJsonValue(op.idempotencyKey) },
            { u"attempt_id"_s, op.attemptId.isEmpty() ? QJsonValue() : QJsonValue(op.attemptId) },
            { u"at_ms"_s, op.atMs } });
    }
    QJsonArray requests;
    for (const LabReceipt& r : m_receipts) {
        requests.append(QJsonObject { { u"id"_s, qint64(r.requestId) }, { u"method"_s, r.method },
            { u"path"_s, r.path }, { u"route"_s, r.route }, { u"attempt_id"_s, r.attemptId },
            { u"idempotency_key"_s, r.idempotencyKey }, { u"outcome"_s, r.outcome }, { u"status"_s, r.status },
            { u"at_ms"_s, r.atMs } });
    }
    QJsonObject attempts;
    for (auto it = m_perAttempt.cbegin(); it != m_perAttempt.cend(); ++it)
        attempts.insert(it.key(), it.value());
    QJsonArray exchanges;
    for (const LabExchange& x : m_exchanges)
        exchanges.append(LabExchangeJson::toJson(x, filter));
    QJsonArray outages;
    for (const LabOutage& o : m_outages) {
        QJsonObject entry { { u"cause"_s, o.cause }, { u"mode"_s, o.mode }, { u"from_ms"_s, o.fromMs },
            { u"until_ms"_s, o.untilMs ? QJsonValue(*o.untilMs) : QJsonValue() },
            { u"requests_failed"_s, o.requestsFailed } };
        if (o.window >= 0)
            entry.insert(u"window"_s, o.window);
        if (o.step >= 0) {
            entry.insert(u"route"_s, o.route);
            entry.insert(u"step"_s, o.step);
        }
        if (o.status)
            entry.insert(u"status"_s, o.status);
        outages.append(entry);
    }
    QJsonObject outcomes;
    for (auto it = m_outcomes.cbegin(); it != m_outcomes.cend(); ++it)
        outcomes.insert(it.key(), it.value());
    return QJsonObject {
        { u"requests_received"_s, m_requestsReceived },
        { u"operations_applied"_s, operationsApplied() },
        { u"operations"_s, operations },
        { u"requests"_s, requests },
        { u"attempts"_s, attempts },
        { u"duplicate_attempts"_s, QJsonArray::fromStringList(attemptsReceivedMoreThanOnce()) },
        { u"exchanges_recorded"_s, m_exchangesRecorded },
        { u"exchanges_kept"_s, qint64(m_exchanges.size()) },
        { u"exchange_outcomes"_s, outcomes },
        { u"exchanges"_s, exchanges },
        { u"outages"_s, outages },
    };
}
