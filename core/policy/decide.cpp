// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/decide.h"

#include "http/retryafter.h"
#include "policy/answerfacts.h"
#include "policy/backoff.h"
#include "policy/jitter.h"
#include "policy/randomsource.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("decide", text);
}

// "503 on GET", "connection-lost on POST".
QString describe(const AttemptOutcome& outcome, const RequestFacts& request)
{
    if (outcome.circuitOpen)
        return tr("circuit-open on %1 (the breaker refused it, %2 left of its break)").arg(request.method, formatMillis(outcome.circuitRetryIn));
    const QString what = outcome.isError() ? errorClassName(*outcome.error) : QString::number(outcome.status.value_or(0));
    return tr("%1 on %2").arg(what, request.method);
}

QString ruleSuffix(const RetryRule* rule)
{
    if (!rule || rule->name.isEmpty())
        return {};
    return tr(" (rule %1)").arg(rule->name);
}

FinalKind finalKindFor(const AttemptOutcome& outcome, bool throttling)
{
    if (outcome.circuitOpen)
        return FinalKind::CircuitOpen;
    if (outcome.isError())
        return FinalKind::Network;
    const int status = outcome.status.value_or(0);
    if (status == 429 || throttling)
        return FinalKind::RateLimited;
    if (status >= 500)
        return FinalKind::ServerError;
    if (status >= 400)
        return FinalKind::ClientError;
    return FinalKind::ClientError;
}

DelaySource sourceFor(const RetryAfterValue& value)
{
    if (value.source == u"retry-after")
        return DelaySource::RetryAfter;
    if (value.source == u"retry-after-ms")
        return DelaySource::RetryAfterMs;
    return DelaySource::ServerHint;
}

QString hintLabel(const RetryAfterValue& value)
{
    if (value.source == u"retry-after")
        return QStringLiteral("Retry-After");
    return value.source;
}

QString jitterWords(const Jitter& jitter)
{
    switch (jitter.kind) {
    case JitterKind::None:
        return tr("no jitter");
    case JitterKind::Full:
        return tr("full jitter");
    case JitterKind::Equal:
        return tr("equal jitter");
    case JitterKind::Proportional:
        return tr("±%1 % jitter").arg(jitter.factor * 100.0, 0, 'g', 3);
    case JitterKind::Multiplicative:
        return tr("×U(%1, %2) jitter").arg(jitter.low).arg(jitter.high);
    case JitterKind::Additive:
        return tr("+U(0, %1) jitter").arg(formatMillis(jitter.additive));
    }
    return {};
}

// The reason, made only when the caller wants one (DecisionContext::explain).
template<typename Make>
QString because(bool explain, Make make)
{
    return explain ? make() : QString();
}

RetryDecision stop(RetryDecision d, FinalKind kind, QString reason)
{
    d.verdict = Verdict::Stop;
    d.finalKind = kind;
    d.delay = d.ceiling = d.delayLow = d.delayHigh = Millis(0);
    d.source = DelaySource::None;
    d.hintHeader.clear();
    d.reason = std::move(reason);
    return d;
}

RetryDecision decideOutcome(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& backoff, RandomSource& random);

} // namespace

int retryQuotaCost(const RetryPolicy& policy, const AttemptOutcome& outcome, bool throttling)
{
    if (!policy.quota.enabled)
        return 0;
    if (throttling && policy.quota.throttlingRetryCost)
        return *policy.quota.throttlingRetryCost;
    if (outcome.isError() && errorClassIsTimeout(*outcome.error))
        return policy.quota.timeoutRetryCost;
    return policy.quota.retryCost;
}

RetryDecision decide(const RetryPolicy& policy, const RequestFacts& request, const AttemptOutcome& outcome,
    const DecisionContext& context, BackoffState& backoff, RandomSource& random)
{
    return decide(policy, readAnswer(policy, request, outcome, context.now), context, backoff, random);
}

RetryDecision decide(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& backoff, RandomSource& random)
{
    const AttemptOutcome& outcome = answer.outcome;
    // gRFC A6: this outcome's token is taken before the retry is judged, so the judgement sees it gone.
    const bool throttlingFailure = policy.throttling.enabled && answer.takesThrottlingToken(policy);
    std::optional<DecisionContext> lessOneToken; // copied only when a token is taken (the herd decides millions of times)
    if (throttlingFailure && context.budget.throttlingTokens) {
        lessOneToken = context;
        lessOneToken->budget.throttlingTokens = std::max(0.0, *context.budget.throttlingTokens - 1.0);
    }
    const DecisionContext& judged = lessOneToken ? *lessOneToken : context;

    RetryDecision d;
    if (outcome.deadlinePassed) {
        d = stop(d, FinalKind::Deadline, because(context.explain, [&] { return tr("the %1 deadline passed during attempt %2")
                .arg(QString::number(policy.limits.deadline.value_or(Millis(0)).count()) + QStringLiteral(" ms"))
                .arg(context.attempt); }));
    } else {
        d = decideOutcome(policy, answer, judged, backoff, random);
        const int status = outcome.status.value_or(0);
        if (d.verdict != Verdict::Retry && context.followRedirects && outcome.redirectTarget && !outcome.isError()
            && status >= 300 && status < 400 && context.redirectsFollowed < context.maxRedirects) {
            d = RetryDecision {};
            d.verdict = Verdict::Retry;
            d.redirectTo = outcome.redirectTarget;
            d.reason = because(context.explain, [&] { return tr("%1 redirect followed to %2").arg(status).arg(outcome.redirectTarget->toString()); });
        }
    }
    d.effects.throttlingFailure = throttlingFailure;
    d.effects.quotaTaken = d.verdict == Verdict::Retry && !d.redirectTo ? std::max(0, d.quotaCost) : 0;
    d.effects.success = d.verdict == Verdict::Success;
    return d;
}

namespace {

RetryDecision decideOutcome(const RetryPolicy& policy, const AnswerFacts& answer, const DecisionContext& context,
    BackoffState& backoff, RandomSource& random)
{
    const AttemptOutcome& outcome = answer.outcome;
    const RequestFacts& request = answer.request;
    RetryDecision d;
    const QString what = context.explain ? describe(outcome, request) : QString();
    const RetryRule* rule = answer.rule(policy);
    if (rule) {
        d.ruleName = rule->name;
        d.throttling = rule->throttling;
    }

    // What the server asked for is reported even when it is not honoured (e.g. the final 429).
    for (const HintReading& reading : answer.hints) {
        if (reading.value && reading.value->delay && reading.value->delay->count() >= 0) {
            d.serverAskedFor = *reading.value->delay;
            break;
        }
    }

    if (!rule) {
        if (!outcome.isError() && !outcome.circuitOpen && outcome.status.value_or(0) < 400) {
            d.verdict = Verdict::Success;
            d.finalKind = FinalKind::Success;
            d.reason = because(context.explain, [&] { return tr("%1 is a success").arg(what); });
            return d;
        }
        return stop(d, finalKindFor(outcome, false), because(context.explain, [&] { return tr("%1 is not retried: no rule of %2 retries it").arg(what, policy.name.isEmpty() ? tr("the policy") : policy.name); }));
    }
    if (rule->action == RuleAction::Success) {
        d.verdict = Verdict::Success;
        d.finalKind = FinalKind::Success;
        d.reason = because(context.explain, [&] { return tr("%1 counts as a success%2").arg(what, ruleSuffix(rule)); });
        return d;
    }
    if (rule->action == RuleAction::Stop)
        return stop(d, finalKindFor(outcome, rule->throttling), because(context.explain, [&] { return tr("%1 is not retried%2").arg(what, ruleSuffix(rule)); }));

    // The rule says retry; now every limit gets its say, in order.
    const QString retried = because(context.explain, [&] { return tr("%1 is retried%2").arg(what, ruleSuffix(rule)); });
    const FinalKind failure = finalKindFor(outcome, rule->throttling);
    if (context.attempt >= policy.limits.maxAttempts) {
        return stop(d, failure, because(context.explain, [&] { return tr("%1 would be retried%2, but all %3 attempts are used").arg(what, ruleSuffix(rule)).arg(policy.limits.maxAttempts); }));
    }
    if (!request.bodyRewindable)
        return stop(d, FinalKind::BodyNotRewindable, because(context.explain, [&] { return tr("%1 would be retried, but its body cannot be sent again").arg(what); }));
    if (context.budget.throttlingTokens && policy.throttling.enabled
        && *context.budget.throttlingTokens <= policy.throttling.maxTokens / 2.0) {
        return stop(d, FinalKind::BudgetExhausted, because(context.explain, [&] { return tr("%1 would be retried, but retry throttling has %2 tokens left and retries need more than %3")
                .arg(what)
                .arg(*context.budget.throttlingTokens, 0, 'g', 4)
                .arg(policy.throttling.maxTokens / 2.0, 0, 'g', 4); }));
    }
    d.quotaCost = retryQuotaCost(policy, outcome, rule->throttling);
    if (context.budget.quotaTokens && *context.budget.quotaTokens < d.quotaCost) {
        return stop(d, FinalKind::BudgetExhausted, because(context.explain, [&] { return tr("%1 would be retried, but the retry quota has %2 tokens and a retry costs %3")
                .arg(what)
                .arg(*context.budget.quotaTokens)
                .arg(d.quotaCost); }));
    }

    const BackoffState beforeDraw = backoff;
    const DelayDraw draw = drawBackoff(policy.backoff, policy.jitter, backoff, random, rule->throttling);
    d.ceiling = draw.ceiling;
    d.delay = draw.delay;
    d.delayLow = draw.low;
    d.delayHigh = draw.high;
    d.source = policy.backoff.kind == BackoffKind::None ? DelaySource::None : DelaySource::Backoff;
    QString how = because(context.explain, [&] {
        return policy.backoff.kind == BackoffKind::None
            ? tr("no wait")
            : tr("waiting %1 (backoff ceiling %2, %3)").arg(formatMillis(d.delay), formatMillis(d.ceiling), jitterWords(policy.jitter));
    });

    for (qsizetype i = 0; i < policy.hints.size() && i < answer.hints.size(); ++i) {
        const DelayHint& hint = policy.hints.at(i);
        const std::optional<RetryAfterValue>& value = answer.hints.at(i).value;
        if (!value)
            continue;
        const QString label = hintLabel(*value);
        if (!value->delay) {
            if (hint.invalidMeansStop)
                return stop(d, failure, because(context.explain, [&] { return tr("%1 would be retried, but %2 \"%3\" is not a valid value, which means \"don't retry\"").arg(what, label, QString::fromLatin1(value->raw)); }));
            if (context.explain)
                how += tr("; %1 \"%2\" ignored (not a valid value)").arg(label, QString::fromLatin1(value->raw));
            continue;
        }
        Millis asked = *value->delay;
        if (asked.count() < 0) {
            if (hint.negativeMeansStop)
                return stop(d, failure, because(context.explain, [&] { return tr("%1 would be retried, but %2 %3 means \"don't retry\"").arg(what, label, QString::fromLatin1(value->raw)); }));
            if (context.explain)
                how += tr("; negative %1 ignored").arg(label);
            continue;
        }
        if (asked.count() == 0 && hint.zeroFallsBackToBackoff) {
            if (context.explain)
                how += tr("; %1 0 falls back to the backoff").arg(label);
            break;
        }
        QString capNote;
        if (hint.max && asked > *hint.max) {
            if (hint.overMax == HintOverMax::GiveUp) {
                return stop(d, FinalKind::RetryAfterTooLong, because(context.explain, [&] { return tr("%1 would be retried, but %2 asks for %3, more than the %4 this policy waits")
                        .arg(what, label, formatMillis(asked), formatMillis(*hint.max)); }));
            }
            if (hint.overMax == HintOverMax::Ignore) {
                if (context.explain)
                    how += tr("; %1 %2 ignored (over the %3 limit)").arg(label, formatMillis(asked), formatMillis(*hint.max));
                continue;
            }
            if (context.explain)
                capNote = tr(", clamped to %1").arg(formatMillis(*hint.max));
            asked = *hint.max;
        } else if (hint.max) {
            if (context.explain)
                capNote = tr(" (≤ %1 cap)").arg(formatMillis(*hint.max));
        }
        Millis chosen = asked;
        Millis low = asked;
        Millis high = asked;
        switch (hint.combine) {
        case HintCombine::Replace:
            break;
        case HintCombine::AtLeastBackoff:
            chosen = std::max(d.delay, asked);
            low = std::max(d.delayLow, asked);
            high = std::max(d.delayHigh, asked);
            break;
        case HintCombine::ClampAroundBackoff:
            chosen = std::max(d.delay, std::min(asked, d.delay + hint.window));
            low = std::max(d.delayLow, std::min(asked, d.delayLow + hint.window));
            high = std::max(d.delayHigh, std::min(asked, d.delayHigh + hint.window));
            break;
        }
        if (hint.cappedByBackoffCap && policy.backoff.cap) {
            chosen = std::min(chosen, *policy.backoff.cap);
            low = std::min(low, *policy.backoff.cap);
            high = std::min(high, *policy.backoff.cap);
        }
        if (hint.jittered && policy.jitter.kind != JitterKind::None) {
            const double base = double(chosen.count());
            const double drawn = applyJitter(policy.jitter, base, random.uniform01());
            const auto toMillis = [](double ms) { return Millis(qint64(std::max(0.0, std::floor(ms + 1e-6)))); };
            chosen = std::max(policy.jitter.floor, toMillis(drawn));
            low = std::max(policy.jitter.floor, toMillis(applyJitter(policy.jitter, double(low.count()), 0.0)));
            high = std::max(policy.jitter.floor, toMillis(applyJitter(policy.jitter, double(high.count()), 1.0)));
            if (context.explain)
                capNote += tr(", %1").arg(jitterWords(policy.jitter));
        }
        if (!hint.advancesBackoff)
            backoff = beforeDraw;
        if (hint.resetsExponent)
            resetExponent(backoff);
        d.delay = chosen;
        d.delayLow = low;
        d.delayHigh = high;
        d.source = sourceFor(*value);
        if (d.source == DelaySource::ServerHint)
            d.hintHeader = hint.header;
        if (context.explain)
            how = chosen == asked ? tr("%1 %2 honoured%3").arg(label, formatMillis(asked), capNote)
                                  : tr("waiting %1 (%2 asked %3%4, backoff %5)")
                                        .arg(formatMillis(chosen), label, formatMillis(asked), capNote, formatMillis(draw.delay));
        if (context.explain && !value->conformant && !value->warnings.isEmpty())
            how += tr(" [non-conformant: %1]").arg(value->warnings.first());
        break;
    }

    if (policy.hostThrottle.enabled && context.budget.hostResetIn) {
        const Millis reset = *context.budget.hostResetIn;
        if (reset > policy.hostThrottle.maxWait) {
            return stop(d, FinalKind::RateLimited, because(context.explain, [&] { return tr("%1 would be retried, but the host's rate limit resets in %2, beyond the throttle's %3 maximum wait")
                    .arg(what, formatMillis(reset), formatMillis(policy.hostThrottle.maxWait)); }));
        }
        if (reset > d.delay) {
            d.delay = reset;
            d.delayLow = std::max(d.delayLow, reset);
            d.delayHigh = std::max(d.delayHigh, reset);
            d.source = DelaySource::Throttle;
            if (context.explain)
                how = tr("waiting %1 for the host's rate-limit reset (throttle)").arg(formatMillis(reset));
        }
    }

    if (policy.limits.deadline) {
        const Millis deadline = *policy.limits.deadline;
        if (policy.limits.deadlineMode == DeadlineMode::StopBeforeWait && context.elapsed + d.delay > deadline) {
            return stop(d, FinalKind::Deadline, because(context.explain, [&] { return tr("%1 would be retried, but waiting %2 after %3 would pass the %4 deadline")
                    .arg(what, formatMillis(d.delay), formatMillis(context.elapsed), formatMillis(deadline)); }));
        }
        if (policy.limits.deadlineMode == DeadlineMode::StopAfterWait && context.elapsed >= deadline) {
            return stop(d, FinalKind::Deadline, because(context.explain, [&] { return tr("%1 would be retried, but %2 have passed, the %3 deadline")
                    .arg(what, formatMillis(context.elapsed), formatMillis(deadline)); }));
        }
    }

    d.verdict = Verdict::Retry;
    d.finalKind = FinalKind::None;
    if (context.explain)
        d.reason = retried + QStringLiteral("; ") + how;
    return d;
}

} // namespace
