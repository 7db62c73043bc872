// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/policydescription.h"

#include "policy/jsonreader.h"
#include "policy/policyjson.h"
#include "policy/retrydecision.h"

#include <QCoreApplication>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PolicyDescription", text);
}

QString ranges(const QList<StatusRange>& list)
{
    QStringList parts;
    for (const StatusRange& range : list)
        parts << statusRangeText(range);
    return parts.join(QStringLiteral(", "));
}

QString budgetScope(BudgetScope scope)
{
    return scope == BudgetScope::Host ? tr("per host") : tr("per client");
}

} // namespace

QString describeLimits(const Limits& l)
{
    QStringList parts;
    parts << tr("%1 attempts (%2 retries)").arg(l.maxAttempts).arg(l.maxAttempts - 1);
    if (l.deadline)
        parts << tr("deadline %1 including waits (%2)")
                     .arg(formatMillis(*l.deadline), PolicyNames::deadlineModes().at(int(l.deadlineMode)));
    if (l.attemptTimeout)
        parts << tr("attempt timeout %1").arg(formatMillis(*l.attemptTimeout));
    if (l.connectTimeout)
        parts << tr("connect timeout %1").arg(formatMillis(*l.connectTimeout));
    if (l.connectionsPerHost)
        parts << tr("%1 connections per host").arg(*l.connectionsPerHost);
    return parts.join(QStringLiteral("; "));
}

QString describeBackoff(const Backoff& b, const Jitter& j)
{
    QString text;
    switch (b.kind) {
    case BackoffKind::None:
        return tr("no wait between attempts");
    case BackoffKind::Constant:
        text = tr("constant %1").arg(formatMillis(b.base));
        break;
    case BackoffKind::Linear:
        text = tr("linear: %1, then +%2 per retry").arg(formatMillis(b.base), formatMillis(b.increment));
        break;
    case BackoffKind::Exponential:
        text = tr("exponential: %1 × %2^(n−1%3)")
                   .arg(formatMillis(b.base))
                   .arg(b.multiplier)
                   .arg(b.exponentOffset == 0 ? QString() : QStringLiteral("%1%2").arg(b.exponentOffset > 0 ? QStringLiteral("+") : QString()).arg(b.exponentOffset));
        if (b.origin == ExponentOrigin::FirstRetryIsZero)
            text += tr(", first retry immediate");
        break;
    case BackoffKind::Decorrelated:
        text = tr("decorrelated (AWS): min(cap, U(%1, previous × 3))").arg(formatMillis(b.base));
        break;
    case BackoffKind::DecorrelatedV2:
        text = tr("decorrelated jitter V2 (Polly), median ≈ %1 × 2^(n−1)").arg(formatMillis(b.base));
        break;
    }
    if (b.cap)
        text += tr(", capped at %1").arg(formatMillis(*b.cap));
    if (b.throttlingBase)
        text += tr(", base %1 after throttling errors").arg(formatMillis(*b.throttlingBase));
    switch (j.kind) {
    case JitterKind::None:
        text += tr("; no jitter");
        break;
    case JitterKind::Full:
        text += tr("; full jitter U(0, x)");
        break;
    case JitterKind::Equal:
        text += tr("; equal jitter x/2 + U(0, x/2)");
        break;
    case JitterKind::Proportional:
        text += tr("; ±%1 % jitter").arg(j.factor * 100.0, 0, 'g', 3);
        break;
    case JitterKind::Multiplicative:
        text += tr("; jitter × U(%1, %2)").arg(j.low).arg(j.high);
        break;
    case JitterKind::Additive:
        text += tr("; jitter + U(0, %1)").arg(formatMillis(j.additive));
        break;
    }
    if (j.kind != JitterKind::None && b.cap)
        text += j.capOrder == CapOrder::BeforeJitter ? tr(" (cap applied before jitter)") : tr(" (hard cap after jitter)");
    if (j.floor.count() > 0)
        text += tr("; never below %1").arg(formatMillis(j.floor));
    return text;
}

QString describeCondition(const RuleCondition& w)
{
    QStringList parts;
    if (!w.statuses.isEmpty())
        parts << tr("status %1").arg(ranges(w.statuses));
    if (!w.errors.isEmpty()) {
        QStringList names;
        for (ErrorClass error : w.errors)
            names << errorClassName(error);
        parts << tr("error %1").arg(names.join(QStringLiteral(", ")));
    } else if (w.outcome == OutcomeKind::Error) {
        parts << tr("any error");
    } else if (w.outcome == OutcomeKind::Status && w.statuses.isEmpty()) {
        parts << tr("any status");
    }
    if (w.serverCouldHaveActed)
        parts << (*w.serverCouldHaveActed ? tr("server may have acted") : tr("server cannot have acted"));
    if (!w.methods.isEmpty())
        parts << tr("method %1").arg(w.methods.join(QStringLiteral(", ")));
    if (w.idempotencyKey)
        parts << (*w.idempotencyKey ? tr("with Idempotency-Key") : tr("without Idempotency-Key"));
    if (w.body)
        parts << tr("body %1 in [%2]").arg(w.body->path, w.body->values.join(QStringLiteral(", ")));
    for (const HeaderMatch& h : w.headers) {
        if (h.absent)
            parts << tr("no %1 header").arg(h.name);
        else if (h.values.isEmpty())
            parts << tr("%1 present").arg(h.name);
        else
            parts << tr("%1: %2").arg(h.name, h.values.join(QStringLiteral("|")));
    }
    if (w.afterLostAnswer)
        parts << (*w.afterLostAnswer ? tr("after a lost answer") : tr("no earlier answer lost"));
    return parts.isEmpty() ? tr("anything") : parts.join(QStringLiteral(", "));
}

QString describeHint(const DelayHint& h)
{
    QString text = h.header;
    if (!h.statuses.isEmpty())
        text += tr(" on %1").arg(ranges(h.statuses));
    switch (h.combine) {
    case HintCombine::Replace:
        text += tr(": wait what it asks");
        break;
    case HintCombine::AtLeastBackoff:
        text += tr(": wait at least what it asks");
        break;
    case HintCombine::ClampAroundBackoff:
        text += tr(": within [backoff, backoff + %1]").arg(formatMillis(h.window));
        break;
    }
    if (h.max) {
        const QString overMax = h.overMax == HintOverMax::GiveUp ? tr("give up") : h.overMax == HintOverMax::Clamp ? tr("clamp") : tr("ignore it");
        text += tr("; over %1: %2").arg(formatMillis(*h.max), overMax);
    }
    if (h.zeroFallsBackToBackoff)
        text += tr("; 0 uses the backoff");
    if (h.resetsExponent)
        text += tr("; resets the exponent");
    if (h.negativeMeansStop)
        text += tr("; negative means stop");
    return text;
}

QString describePolicy(const RetryPolicy& p)
{
    QString text;
    text += p.name.isEmpty() ? tr("(unnamed policy)\n") : p.name + QLatin1Char('\n');
    if (!p.description.isEmpty())
        text += p.description + QLatin1Char('\n');
    if (!p.sourceTitle.isEmpty())
        text += tr("Source: %1\n").arg(p.sourceTitle);
    if (!p.source.isEmpty())
        text += (p.sourceTitle.isEmpty() ? tr("Source: %1\n") : tr("Cited: %1\n")).arg(p.source);
    text += QLatin1Char('\n');
    if (!p.pipeline.isEmpty())
        text += describePipeline(p.pipeline) + QLatin1Char('\n');
    text += tr("Limits:   %1\n").arg(describeLimits(p.limits));
    text += tr("Backoff:  %1\n").arg(describeBackoff(p.backoff, p.jitter));
    if (p.hints.isEmpty())
        text += tr("Hints:    none (server-asked delays are not read)\n");
    for (qsizetype i = 0; i < p.hints.size(); ++i)
        text += (i == 0 ? tr("Hints:    ") : QStringLiteral("          ")) + describeHint(p.hints.at(i)) + QLatin1Char('\n');
    text += tr("Rules (first match wins):\n");
    for (qsizetype i = 0; i < p.rules.size(); ++i) {
        const RetryRule& rule = p.rules.at(i);
        text += QStringLiteral("  %1. %2 → %3%4%5\n")
                    .arg(i + 1)
                    .arg(describeCondition(rule.when), PolicyNames::ruleActions().at(int(rule.action)))
                    .arg(rule.name.isEmpty() ? QString() : QStringLiteral("  [%1]").arg(rule.name))
                    .arg(rule.throttling ? tr(" (throttling)") : QString());
    }
    text += tr("  otherwise: 1xx–3xx succeed, anything else stops\n");
    if (p.idempotency.autoAdd)
        text += tr("Idempotency: %1 added to %2 (%3%4)\n")
                    .arg(p.idempotency.header, p.idempotency.methods.join(QStringLiteral(", ")),
                        PolicyNames::keyFormats().at(int(p.idempotency.format)),
                        p.idempotency.prefix.isEmpty() ? QString() : tr(", prefix %1").arg(p.idempotency.prefix));
    else
        text += tr("Idempotency: keys only when the request carries one (%1)\n").arg(p.idempotency.header);
    if (p.quota.enabled)
        text += tr("Retry quota: %1 tokens %2; retry costs %3 (timeout %4%5); success +%6%7\n")
                    .arg(p.quota.capacity)
                    .arg(budgetScope(p.quota.scope))
                    .arg(p.quota.retryCost)
                    .arg(p.quota.timeoutRetryCost)
                    .arg(p.quota.throttlingRetryCost ? tr(", throttling %1").arg(*p.quota.throttlingRetryCost) : QString())
                    .arg(p.quota.successReward)
                    .arg(p.quota.refundOnSuccess ? tr(", refund on success after retries") : QString());
    if (p.throttling.enabled)
        text += tr("Retry throttling: %1 tokens %2, +%3 per success, retries while above half\n")
                    .arg(p.throttling.maxTokens)
                    .arg(budgetScope(p.throttling.scope))
                    .arg(p.throttling.tokenRatio);
    if (p.hostThrottle.enabled)
        text += tr("Host throttle: waits for a reported reset up to %1, fails fast beyond\n").arg(formatMillis(p.hostThrottle.maxWait));
    return text;
}
