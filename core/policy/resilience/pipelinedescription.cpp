// SPDX-License-Identifier: GPL-3.0-or-later
// describeStrategy and describePipeline (policydescription.h): a pipeline as `policy show` and the policy
// editor print it, outermost first, each strategy nested in the one before.

#include "policy/policydescription.h"
#include "policy/retrydecision.h" // formatMillis

#include <QCoreApplication>

using Kind = ResilienceStrategy::Kind;
using O = CircuitBreakerOptions;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PolicyDescription", text);
}

QString number(double value)
{
    return QString::number(value, 'g', 6);
}

QString breakerText(const ResilienceStrategy& s)
{
    const O& b = s.breaker;
    QString opens;
    const QString cmp = b.comparator == O::Comparator::AtLeast ? QStringLiteral("≥") : QStringLiteral(">");
    const QString ratio = cmp + u' ' + number(b.failureRatio * 100.0) + QStringLiteral(" %");
    const QString least = b.minimumCallsPerSecond
        ? tr("at least %1 calls a second").arg(number(*b.minimumCallsPerSecond))
        : tr("at least %1 calls").arg(b.minimumCalls);
    switch (b.window) {
    case O::Window::Consecutive:
        opens = tr("opens at %1 failures in a row").arg(b.consecutiveFailures);
        break;
    case O::Window::Count:
        opens = tr("opens at %1 failures of the last %2 calls, %3%4")
                    .arg(ratio)
                    .arg(b.windowCalls)
                    .arg(least, b.judgeAfterSuccess ? tr(", judged after every call") : tr(", judged on a failure"));
        break;
    case O::Window::Time:
        opens = tr("opens at %1 failures in %2 (%3 buckets, %4), %5%6")
                    .arg(ratio, formatMillis(b.samplingDuration))
                    .arg(b.buckets)
                    .arg(b.bucketStart == O::BucketStart::AtCall ? tr("each from a call") : tr("turning on the clock"),
                        least, b.judgeAfterSuccess ? tr(", judged after every call") : tr(", judged on a failure"));
        break;
    }
    if (b.countRejected)
        opens += tr(", refused calls counted");
    if (!b.resetOnClose)
        opens += tr(", kept when it closes");
    QString breaks = tr("breaks %1").arg(formatMillis(b.breakDuration));
    if (b.breakGrowth > 1.0)
        breaks += tr(" × %1 each half-open%2")
                      .arg(number(b.breakGrowth),
                          b.maxBreakDuration ? tr(" up to %1").arg(formatMillis(*b.maxBreakDuration)) : QString());
    const QString probes = b.halfOpenProbes == 1 ? tr("1 probe") : tr("%1 probes").arg(b.halfOpenProbes);
    const QString halfOpen = tr("then %1 %2, other callers %3; %4")
                                 .arg(b.transition == O::Transition::Lazy ? tr("on the next call") : tr("on a timer"), probes,
                                     b.halfOpenCallers == O::HalfOpenCallers::Rejected ? tr("refused") : tr("wait for the verdict"),
                                     b.scope == O::Scope::Client ? tr("one for the client") : tr("one per host"));
    return tr("circuit breaker: %1; %2; %3").arg(opens, breaks, halfOpen);
}

QString failuresText(const ResilienceStrategy& s, const QString& what)
{
    QStringList conditions;
    for (const RuleCondition& c : s.failures)
        conditions.append(describeCondition(c));
    if (s.slowCall)
        conditions.append(tr("a call over %1").arg(formatMillis(*s.slowCall)));
    return what + u' ' + (conditions.isEmpty() ? tr("none") : conditions.join(QStringLiteral("; ")));
}

} // namespace

QString describeStrategy(const ResilienceStrategy& s)
{
    switch (s.kind) {
    case Kind::TotalTimeout:
        return tr("total timeout %1").arg(formatMillis(s.timeout));
    case Kind::AttemptTimeout:
        return tr("attempt timeout %1").arg(formatMillis(s.timeout));
    case Kind::Retry:
        return tr("retry (limits, backoff, hints and rules below)");
    case Kind::CircuitBreaker:
        return breakerText(s) + u'\n' + failuresText(s, tr("failures:"));
    case Kind::Hedging: {
        const HedgingOptions& h = s.hedging;
        QString when;
        if (h.delay == Millis { 0 })
            when = tr("all at once");
        else if (h.delay.count() < 0)
            when = tr("each after the last failed");
        else
            when = tr("each %1 after the last without an answer").arg(formatMillis(h.delay));
        const QString copies = h.maxHedges == 1 ? tr("1 more copy") : tr("%1 more copies").arg(h.maxHedges);
        return tr("hedging: up to %1, %2; the first acceptable answer wins%3")
                   .arg(copies, when, s.hedgeUnsafe ? tr("; copies requests without an idempotency key") : QString())
            + u'\n' + failuresText(s, tr("the next copy at once on:"));
    }
    case Kind::RateLimiter:
    case Kind::Bulkhead:
        return tr("%1: %2 at once, %3")
            .arg(s.kind == Kind::RateLimiter ? tr("rate limiter") : tr("bulkhead"))
            .arg(s.permits)
            .arg(s.queue == 0 ? tr("no queue") : tr("%1 more queued").arg(s.queue));
    }
    return {};
}

QString describePipeline(const QList<ResilienceStrategy>& pipeline)
{
    if (pipeline.isEmpty())
        return {};
    QString text = tr("Pipeline (outermost first, each inside the one above):\n");
    for (qsizetype i = 0; i < pipeline.size(); ++i) {
        const QString indent(int(2 + 2 * i), u' ');
        const QStringList lines = describeStrategy(pipeline.at(i)).split(u'\n');
        text += indent + QStringLiteral("%1. ").arg(i + 1) + lines.first() + u'\n';
        for (qsizetype l = 1; l < lines.size(); ++l)
            text += indent + QStringLiteral("   ") + lines.at(l) + u'\n';
    }
    return text;
}
