// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/runrecord.h"

#include <QJsonObject>
#include <QList>
#include <QString>

class LabLedger;

// What `retrylab run` prints: one line per attempt, the batch's summary and the lab ledger's summary.
namespace RunReport {

// "run 1 attempt 2  +512.3 ms  1.2 ms  200  success  200 on GET is a success".
QString attemptLine(const AttemptRecord& attempt);

struct Totals
{
    int runs = 0;
    int attempts = 0;
    int succeeded = 0;
    Millis waited { 0 };
    double p50Ms = 0.0;
    double p95Ms = 0.0;
};
Totals totalsOf(const QList<RunSummary>& runs);
// "2 runs, 3 attempts, 100.0% succeeded, amplification 1.50, latency p50 … ms p95 … ms, waiting … ms".
QString summaryLine(const Totals& totals);
QJsonObject summaryJson(const Totals& totals);

// "lab ledger: 9 requests received, 3 operations applied: 3 settlement", and what else the ledger holds
// that a reader must not miss (requests no route matched, attempts the lab received more than once).
QString ledgerLine(const LabLedger& ledger);

} // namespace RunReport
