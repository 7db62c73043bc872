// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a policy decides, asked without sending anything: one explained decision (`policy explain`), or
// the whole matrix of outcomes × methods with the wait range before each retry (`policy table`, and the
// policy editor's live preview).

#include "policy/attemptoutcome.h"
#include "policy/retrydecision.h"
#include "policy/retrypolicy.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QStringList>

struct ExplainQuery
{
    QString method = QStringLiteral("GET");
    RequestFacts request; // its method is overwritten by `method`
    AttemptOutcome outcome;
    int attempt = 1; // the attempt that just ended, 1-based
    Millis elapsed { 0 };
    QDateTime now;
};

// The decision with fresh budgets and the backoff positioned at retry ATTEMPT; the delay range spans the
// jitter (for the stateful decorrelated families, as reached by mid-range earlier draws).
RetryDecision explain(const RetryPolicy& policy, const ExplainQuery& query);
// {"decision":…,"delay_ms":{"min":…,"max":…}|null,"delay_source":…|null,"reason":…,"final":…|null,"rule":…|null}
QJsonObject explanationJson(const RetryDecision& decision);

struct DecisionCell
{
    Verdict verdict = Verdict::Stop;
    FinalKind finalKind = FinalKind::None;
    QString reason;
};

struct DecisionTable
{
    QStringList methods; // columns: GET, HEAD, PUT, DELETE, POST, "POST+key", PATCH
    QStringList outcomes; // rows: statuses then error classes
    QList<QList<DecisionCell>> cells; // [outcome][method], for the first attempt
    QList<QPair<Millis, Millis>> waits; // the backoff range before retry 1, 2, … (at most 10 shown)
};

DecisionTable buildDecisionTable(const RetryPolicy& policy, const QDateTime& now);
QString decisionTableText(const DecisionTable& table);
