// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/retrypolicy.h"

#include <QCoreApplication>

#include <cmath>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RetryPolicy", text);
}

// RFC 9110 token characters, for header and method names.
bool isToken(const QString& text)
{
    if (text.isEmpty())
        return false;
    for (QChar c : text) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')
            || QStringView(u"!#$%&'*+-.^_`|~").contains(c);
        if (!ok)
            return false;
    }
    return true;
}

class Checker
{
public:
    explicit Checker(QList<PolicyProblem>& problems)
        : m_problems(problems)
    {
    }
    void add(const QString& path, const QString& message) { m_problems << PolicyProblem { path, message }; }
    void positive(const QString& path, const std::optional<Millis>& value)
    {
        if (value && value->count() <= 0)
            add(path, tr("must be more than 0 ms (it is %1); leave it out for no limit").arg(value->count()));
    }
    void nonNegative(const QString& path, Millis value)
    {
        if (value.count() < 0)
            add(path, tr("must not be negative (it is %1 ms)").arg(value.count()));
    }
    void statuses(const QString& path, const QList<StatusRange>& ranges)
    {
        for (qsizetype i = 0; i < ranges.size(); ++i) {
            const StatusRange& r = ranges.at(i);
            const QString at = path + QStringLiteral("[%1]").arg(i);
            if (r.low < 100 || r.high > 599)
                add(at, tr("status codes run from 100 to 599"));
            else if (r.low > r.high)
                add(at, tr("the range %1-%2 is empty (low above high)").arg(r.low).arg(r.high));
        }
    }
    void methods(const QString& path, const QStringList& methods)
    {
        for (qsizetype i = 0; i < methods.size(); ++i) {
            if (!isToken(methods.at(i)))
                add(path + QStringLiteral("[%1]").arg(i), tr("\"%1\" is not an HTTP method name").arg(methods.at(i)));
        }
    }
    void header(const QString& path, const QString& name)
    {
        if (!isToken(name))
            add(path, tr("\"%1\" is not a valid header name").arg(name));
    }

private:
    QList<PolicyProblem>& m_problems;
};

void validateLimits(Checker& c, const Limits& l)
{
    if (l.maxAttempts < 1) {
        if (l.countedAs == AttemptCounting::Retries)
            c.add(QStringLiteral("limits.max_retries"),
                tr("must not be negative (it is %1); 0 turns retries off").arg(l.maxAttempts - 1));
        else
            c.add(QStringLiteral("limits.max_attempts"),
                tr("must be at least 1 (it is %1): the first attempt counts").arg(l.maxAttempts));
    }
    c.positive(QStringLiteral("limits.deadline_ms"), l.deadline);
    c.positive(QStringLiteral("limits.attempt_timeout_ms"), l.attemptTimeout);
    c.positive(QStringLiteral("limits.connect_timeout_ms"), l.connectTimeout);
    if (l.connectionsPerHost && *l.connectionsPerHost < 1)
        c.add(QStringLiteral("limits.connections_per_host"), tr("must be at least 1 (or null: one per attempt in flight)"));
    if (l.attemptTimeout && l.connectTimeout && *l.connectTimeout > *l.attemptTimeout && l.attemptTimeout->count() > 0)
        c.add(QStringLiteral("limits.connect_timeout_ms"),
            tr("(%1 ms) is longer than the whole attempt may take (attempt_timeout_ms %2 ms)")
                .arg(l.connectTimeout->count())
                .arg(l.attemptTimeout->count()));
    if (l.attemptTimeout && l.deadline && *l.attemptTimeout > *l.deadline && l.deadline->count() > 0)
        c.add(QStringLiteral("limits.attempt_timeout_ms"),
            tr("(%1 ms) is longer than the overall deadline (%2 ms)").arg(l.attemptTimeout->count()).arg(l.deadline->count()));
}

void validateBackoff(Checker& c, const Backoff& b)
{
    c.nonNegative(QStringLiteral("backoff.base_ms"), b.base);
    c.nonNegative(QStringLiteral("backoff.increment_ms"), b.increment);
    if (!std::isfinite(b.multiplier) || b.multiplier <= 0)
        c.add(QStringLiteral("backoff.multiplier"), tr("must be a number above 0"));
    if (b.cap) {
        if (b.cap->count() < 0)
            c.add(QStringLiteral("backoff.cap_ms"), tr("must not be negative"));
        else if (*b.cap < b.base && b.kind != BackoffKind::None)
            c.add(QStringLiteral("backoff.cap_ms"),
                tr("(%1 ms) is below the base delay (%2 ms)").arg(b.cap->count()).arg(b.base.count()));
    }
    if (b.exponentOffset < -64 || b.exponentOffset > 64)
        c.add(QStringLiteral("backoff.exponent_offset"), tr("must be between -64 and 64"));
    if (b.throttlingBase)
        c.nonNegative(QStringLiteral("backoff.throttling_base_ms"), *b.throttlingBase);
}

void validateJitter(Checker& c, const Jitter& j, const Backoff& b)
{
    if (!std::isfinite(j.factor) || j.factor < 0 || j.factor > 1)
        c.add(QStringLiteral("jitter.factor"), tr("must be between 0 and 1 (0.25 means ±25 %)"));
    if (!std::isfinite(j.low) || j.low < 0)
        c.add(QStringLiteral("jitter.low"), tr("must be 0 or more"));
    if (!std::isfinite(j.high) || j.high < j.low)
        c.add(QStringLiteral("jitter.high"), tr("must be at least jitter.low (%1)").arg(j.low));
    c.nonNegative(QStringLiteral("jitter.additive_ms"), j.additive);
    c.nonNegative(QStringLiteral("jitter.floor_ms"), j.floor);
    if (b.cap && j.floor > *b.cap && j.capOrder == CapOrder::AfterJitter)
        c.add(QStringLiteral("jitter.floor_ms"),
            tr("(%1 ms) is above the hard cap (%2 ms)").arg(j.floor.count()).arg(b.cap->count()));
}

void validateCondition(Checker& c, const QString& path, const RuleCondition& w)
{
    c.methods(path + QStringLiteral(".methods"), w.methods);
    c.statuses(path + QStringLiteral(".statuses"), w.statuses);
    if (w.outcome == OutcomeKind::Error && !w.statuses.isEmpty())
        c.add(path + QStringLiteral(".statuses"), tr("can never match: the rule looks at errors only"));
    if (w.outcome == OutcomeKind::Status && !w.errors.isEmpty())
        c.add(path + QStringLiteral(".errors"), tr("can never match: the rule looks at HTTP statuses only"));
    if (w.outcome == OutcomeKind::CircuitOpen) {
        // A refused call was never sent: it has no status, error class, body or answer headers.
        if (!w.statuses.isEmpty())
            c.add(path + QStringLiteral(".statuses"), tr("can never match: a call the circuit breaker refused has no status"));
        if (!w.errors.isEmpty())
            c.add(path + QStringLiteral(".errors"), tr("can never match: a call the circuit breaker refused has no error class"));
        if (w.body)
            c.add(path + QStringLiteral(".body"), tr("can never match: a call the circuit breaker refused has no answer"));
        if (!w.headers.isEmpty())
            c.add(path + QStringLiteral(".headers"), tr("can never match: a call the circuit breaker refused has no answer"));
    }
    if (w.body && w.body->path.trimmed().isEmpty())
        c.add(path + QStringLiteral(".body.path"), tr("must name a JSON path such as errors[0].code"));
    for (qsizetype i = 0; i < w.headers.size(); ++i) {
        const HeaderMatch& h = w.headers.at(i);
        const QString at = path + QStringLiteral(".headers[%1]").arg(i);
        c.header(at + QStringLiteral(".name"), h.name);
        if (h.absent && !h.values.isEmpty())
            c.add(at + QStringLiteral(".values"), tr("cannot list values for a header that must be absent"));
    }
}

} // namespace

QList<PolicyProblem> validate(const RetryPolicy& p)
{
    QList<PolicyProblem> problems;
    Checker c(problems);
    validateLimits(c, p.limits);
    validateBackoff(c, p.backoff);
    validateJitter(c, p.jitter, p.backoff);

    for (qsizetype i = 0; i < p.hints.size(); ++i) {
        const DelayHint& h = p.hints.at(i);
        const QString at = QStringLiteral("hints[%1]").arg(i);
        c.header(at + QStringLiteral(".header"), h.header);
        c.statuses(at + QStringLiteral(".statuses"), h.statuses);
        c.nonNegative(at + QStringLiteral(".window_ms"), h.window);
        c.positive(at + QStringLiteral(".max_ms"), h.max);
    }
    for (qsizetype i = 0; i < p.rules.size(); ++i) {
        const QString at = QStringLiteral("rules[%1]").arg(i);
        validateCondition(c, at + QStringLiteral(".when"), p.rules.at(i).when);
    }

    c.header(QStringLiteral("idempotency.header"), p.idempotency.header);
    c.methods(QStringLiteral("idempotency.methods"), p.idempotency.methods);

    if (p.quota.capacity <= 0)
        c.add(QStringLiteral("quota.capacity"), tr("must be more than 0"));
    if (p.quota.retryCost < 0)
        c.add(QStringLiteral("quota.retry_cost"), tr("must not be negative"));
    if (p.quota.timeoutRetryCost < 0)
        c.add(QStringLiteral("quota.timeout_retry_cost"), tr("must not be negative"));
    if (p.quota.throttlingRetryCost && *p.quota.throttlingRetryCost < 0)
        c.add(QStringLiteral("quota.throttling_retry_cost"), tr("must not be negative"));
    if (p.quota.successReward < 0)
        c.add(QStringLiteral("quota.success_reward"), tr("must not be negative"));

    if (!std::isfinite(p.throttling.maxTokens) || p.throttling.maxTokens <= 0 || p.throttling.maxTokens > 1000)
        c.add(QStringLiteral("throttling.max_tokens"), tr("must be above 0 and at most 1000 (gRFC A6)"));
    if (!std::isfinite(p.throttling.tokenRatio) || p.throttling.tokenRatio <= 0)
        c.add(QStringLiteral("throttling.token_ratio"), tr("must be above 0"));
    c.nonNegative(QStringLiteral("host_throttle.max_wait_ms"), p.hostThrottle.maxWait);
    for (qsizetype i = 0; i < p.pipeline.size(); ++i)
        for (qsizetype j = 0; j < p.pipeline.at(i).failures.size(); ++j)
            validateCondition(c, QStringLiteral("pipeline[%1].failures[%2]").arg(i).arg(j), p.pipeline.at(i).failures.at(j));
    problems << validatePipeline(p);
    return problems;
}
