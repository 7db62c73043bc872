// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/decisiontable.h"

#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/randomsource.h"

#include <QCoreApplication>

#include <algorithm>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("DecisionTable", text);
}

// The backoff state just before retry RETRY: earlier retries drawn at mid-range.
BackoffState stateBeforeRetry(const RetryPolicy& policy, int retry)
{
    BackoffState state;
    FixedRandomSource middle({ 0.5 });
    const int draws = std::min(retry - 1, 100'000);
    for (int i = 0; i < draws; ++i)
        drawBackoff(policy.backoff, policy.jitter, state, middle, false);
    return state;
}

struct OutcomeRow
{
    QString label;
    AttemptOutcome outcome;
};

QList<OutcomeRow> tableOutcomes()
{
    QList<OutcomeRow> rows;
    for (int status : { 408, 409, 429, 500, 501, 502, 503, 504 })
        rows << OutcomeRow { QString::number(status), AttemptOutcome::answered(status) };
    for (const QString& name : errorClassNames())
        rows << OutcomeRow { name, AttemptOutcome::failed(*errorClassFromName(name)) };
    return rows;
}

} // namespace

RetryDecision explain(const RetryPolicy& policy, const ExplainQuery& query)
{
    RequestFacts request = query.request;
    request.method = query.method.toUpper();
    BackoffState state = stateBeforeRetry(policy, std::max(1, std::min(query.attempt, policy.limits.maxAttempts)));
    DecisionContext context;
    context.attempt = query.attempt;
    context.elapsed = query.elapsed;
    context.now = query.now.isValid() ? query.now : QDateTime::currentDateTimeUtc();
    // Fresh budgets: full quota and throttling tokens.
    if (policy.quota.enabled)
        context.budget.quotaTokens = policy.quota.capacity;
    if (policy.throttling.enabled)
        context.budget.throttlingTokens = policy.throttling.maxTokens;
    FixedRandomSource middle({ 0.5 });
    return decide(policy, request, query.outcome, context, state, middle);
}

QJsonObject explanationJson(const RetryDecision& d)
{
    QJsonObject o;
    o.insert(QStringLiteral("decision"), verdictName(d.verdict));
    if (d.verdict == Verdict::Retry) {
        o.insert(QStringLiteral("delay_ms"),
            QJsonObject { { QStringLiteral("min"), double(d.delayLow.count()) }, { QStringLiteral("max"), double(d.delayHigh.count()) } });
        o.insert(QStringLiteral("delay_source"), delaySourceName(d.source));
    } else {
        o.insert(QStringLiteral("delay_ms"), QJsonValue::Null);
        o.insert(QStringLiteral("delay_source"), QJsonValue::Null);
    }
    o.insert(QStringLiteral("reason"), d.reason);
    o.insert(QStringLiteral("final"), d.finalKind == FinalKind::None ? QJsonValue(QJsonValue::Null) : QJsonValue(finalKindName(d.finalKind)));
    o.insert(QStringLiteral("rule"), d.ruleName.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(d.ruleName));
    o.insert(QStringLiteral("server_asked_ms"),
        d.serverAskedFor ? QJsonValue(double(d.serverAskedFor->count())) : QJsonValue(QJsonValue::Null));
    return o;
}

DecisionTable buildDecisionTable(const RetryPolicy& policy, const QDateTime& now)
{
    DecisionTable table;
    table.methods = { QStringLiteral("GET"), QStringLiteral("HEAD"), QStringLiteral("PUT"), QStringLiteral("DELETE"),
        QStringLiteral("POST"), QStringLiteral("POST+key"), QStringLiteral("PATCH") };
    const QList<OutcomeRow> rows = tableOutcomes();
    for (const OutcomeRow& row : rows) {
        table.outcomes << row.label;
        QList<DecisionCell> cells;
        for (const QString& column : table.methods) {
            ExplainQuery query;
            query.method = column.section(QLatin1Char('+'), 0, 0);
            query.request.hasIdempotencyKey = column.endsWith(QLatin1String("+key"));
            query.outcome = row.outcome;
            query.now = now;
            // A policy with a single attempt still shows whether the outcome is retryable in principle.
            RetryPolicy probe = policy;
            probe.limits.maxAttempts = std::max(2, probe.limits.maxAttempts);
            const RetryDecision d = explain(probe, query);
            cells << DecisionCell { d.verdict, d.finalKind, d.reason };
        }
        table.cells << cells;
    }
    const int retries = std::min(policy.maxRetries(), 10);
    for (int retry = 1; retry <= retries; ++retry) {
        BackoffState state = stateBeforeRetry(policy, retry);
        FixedRandomSource middle({ 0.5 });
        const DelayDraw draw = drawBackoff(policy.backoff, policy.jitter, state, middle, false);
        table.waits << qMakePair(draw.low, draw.high);
    }
    return table;
}

QString decisionTableText(const DecisionTable& table)
{
    QString text;
    qsizetype labelWidth = 8;
    for (const QString& outcome : table.outcomes)
        labelWidth = std::max(labelWidth, outcome.size());
    constexpr int kColumn = 9;
    text += QString(labelWidth + 2, QLatin1Char(' '));
    for (const QString& method : table.methods)
        text += method.leftJustified(kColumn);
    text += QLatin1Char('\n');
    for (qsizetype r = 0; r < table.outcomes.size(); ++r) {
        text += table.outcomes.at(r).leftJustified(labelWidth + 2);
        for (const DecisionCell& cell : table.cells.at(r)) {
            QString mark;
            switch (cell.verdict) {
            case Verdict::Retry:
                mark = tr("retry");
                break;
            case Verdict::Stop:
                mark = cell.finalKind == FinalKind::RetryAfterTooLong ? tr("give-up") : QStringLiteral("-");
                break;
            case Verdict::Success:
                mark = tr("ok");
                break;
            }
            text += mark.leftJustified(kColumn);
        }
        text += QLatin1Char('\n');
    }
    text += QLatin1Char('\n');
    if (table.waits.isEmpty()) {
        text += tr("No retries: the policy allows a single attempt.\n");
        return text;
    }
    text += tr("Wait before each retry (backoff and jitter; server hints may replace it):\n");
    for (qsizetype i = 0; i < table.waits.size(); ++i) {
        const auto& [low, high] = table.waits.at(i);
        text += QStringLiteral("  retry %1: %2\n")
                    .arg(i + 1)
                    .arg(low == high ? formatMillis(low) : formatMillis(low) + QStringLiteral(" – ") + formatMillis(high));
    }
    return text;
}
