// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/decisionequivalence.h"

#include "http/httpdate.h"
#include "policy/decisiontable.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace {

// The answer fields a policy's rules and hints read, lower-case: "header retry-after", "body error.code".
QSet<QString> fieldsRead(const RetryPolicy& p)
{
    QSet<QString> out;
    for (const RetryRule& r : p.rules) {
        for (const HeaderMatch& h : r.when.headers)
            out.insert(u"header "_s + h.name.toLower());
        if (r.when.body)
            out.insert(u"body "_s + r.when.body->path);
    }
    for (const DelayHint& h : p.hints) {
        out.insert(u"header "_s + h.header.toLower());
        if (h.alsoRetryAfterMs)
            out.insert(u"header retry-after-ms"_s);
    }
    return out;
}

QString sortedText(const QSet<QString>& set)
{
    QStringList list(set.cbegin(), set.cend());
    list.sort();
    return list.isEmpty() ? u"nothing"_s : list.join(u", "_s);
}

QString optionalMs(const std::optional<Millis>& ms)
{
    return ms ? QString::number(ms->count()) + u" ms"_s : u"none"_s;
}

// The parts of a policy explain() does not show; empty when equal.
QString settingsDifference(const RetryPolicy& a, const RetryPolicy& b)
{
    const Limits& la = a.limits;
    const Limits& lb = b.limits;
    if (la.maxAttempts != lb.maxAttempts)
        return u"attempts: %1 / %2"_s.arg(la.maxAttempts).arg(lb.maxAttempts);
    if (la.deadline != lb.deadline)
        return u"deadline: %1 / %2"_s.arg(optionalMs(la.deadline), optionalMs(lb.deadline));
    if (la.deadline && la.deadlineMode != lb.deadlineMode)
        return u"deadline mode differs"_s;
    if (la.attemptTimeout != lb.attemptTimeout)
        return u"attempt timeout: %1 / %2"_s.arg(optionalMs(la.attemptTimeout), optionalMs(lb.attemptTimeout));
    if (la.connectTimeout != lb.connectTimeout)
        return u"connect timeout: %1 / %2"_s.arg(optionalMs(la.connectTimeout), optionalMs(lb.connectTimeout));
    if (la.connectionsPerHost != lb.connectionsPerHost)
        return u"connections per host differ"_s;
    if (!(a.idempotency == b.idempotency))
        return u"idempotency keys differ (added: %1 / %2)"_s.arg(a.idempotency.autoAdd ? u"yes"_s : u"no"_s,
            b.idempotency.autoAdd ? u"yes"_s : u"no"_s);
    if (!(a.quota == b.quota))
        return u"retry quota differs"_s;
    if (!(a.throttling == b.throttling))
        return u"retry throttling differs"_s;
    if (!(a.hostThrottle == b.hostThrottle))
        return u"host throttle differs"_s;
    if (!(a.pipeline == b.pipeline))
        return u"pipeline differs (%1 / %2 strategies)"_s.arg(a.pipeline.size()).arg(b.pipeline.size());
    const QSet<QString> fa = fieldsRead(a);
    const QSet<QString> fb = fieldsRead(b);
    if (fa != fb)
        return u"the answer fields read: %1 / %2"_s.arg(sortedText(fa), sortedText(fb));
    return {};
}

QString decisionText(const RetryDecision& d)
{
    if (d.verdict != Verdict::Retry)
        return verdictName(d.verdict) + u" ("_s + d.reason + u')';
    return u"retry after %1–%2 ms (%3)"_s.arg(d.delayLow.count()).arg(d.delayHigh.count()).arg(d.reason);
}

struct Probe
{
    QString method;
    bool keyed = false;
    AttemptOutcome outcome;
    QString label; // "503 with Retry-After: 3"
};

QList<Probe> probes(const QDateTime& now)
{
    static const int statuses[] = { 200, 201, 301, 400, 401, 404, 408, 409, 413, 422, 425, 429, 500, 501, 502, 503, 504 };
    QList<QPair<QByteArray, QString>> retryAfter { { {}, {} }, { "0", u" with Retry-After: 0"_s },
        { "3", u" with Retry-After: 3"_s }, { "200", u" with Retry-After: 200"_s } };
    const QByteArray date = formatHttpDate(now.addSecs(30));
    retryAfter.append({ date, u" with Retry-After: "_s + QString::fromLatin1(date) });
    QList<QPair<AttemptOutcome, QString>> outcomes;
    for (const int s : statuses)
        for (const auto& [value, words] : std::as_const(retryAfter)) {
            HttpHeaderList headers;
            if (!value.isEmpty())
                headers.append({ QByteArray("Retry-After"), value });
            outcomes.append({ AttemptOutcome::answered(s, headers), QString::number(s) + words });
        }
    for (const QString& name : errorClassNames())
        outcomes.append({ AttemptOutcome::failed(*errorClassFromName(name)), name });
    QList<Probe> out;
    const QList<QPair<QString, bool>> methods { { u"GET"_s, false }, { u"HEAD"_s, false }, { u"PUT"_s, false },
        { u"DELETE"_s, false }, { u"POST"_s, false }, { u"POST"_s, true }, { u"PATCH"_s, false }, { u"OPTIONS"_s, false } };
    for (const auto& [method, keyed] : methods)
        for (const auto& [outcome, words] : std::as_const(outcomes))
            out.append({ method, keyed, outcome, words + u" on "_s + method + (keyed ? u" with a key"_s : QString()) });
    return out;
}

// The attempts asked about: every one up to the limit and one past it, but past 40 only the last two (the
// backoff has long reached its cap there).
QList<int> attempts(int maxAttempts)
{
    QList<int> out;
    for (int n = 1; n <= std::min(maxAttempts + 1, 40); ++n)
        out << n;
    for (int n = std::max(41, maxAttempts); n <= maxAttempts + 1; ++n)
        out << n;
    return out;
}

} // namespace

QString firstDecisionDifference(const RetryPolicy& a, const RetryPolicy& b)
{
    if (const QString s = settingsDifference(a, b); !s.isEmpty())
        return s;
    const QDateTime now(QDate(2025, 1, 1), QTime(12, 0), Qt::UTC);
    const QList<Probe> all = probes(now);
    const QList<int> numbers = attempts(std::max(a.limits.maxAttempts, b.limits.maxAttempts));
    for (const bool lostEarlier : { false, true })
        for (const Probe& p : all)
            for (const int attempt : numbers) {
                ExplainQuery q;
                q.method = p.method;
                q.request.hasIdempotencyKey = p.keyed;
                q.request.answerLostEarlier = lostEarlier;
                q.outcome = p.outcome;
                q.attempt = attempt;
                q.now = now;
                const RetryDecision da = explain(a, q);
                const RetryDecision db = explain(b, q);
                if (da.verdict != db.verdict || da.delayLow != db.delayLow || da.delayHigh != db.delayHigh)
                    return u"%1 at attempt %2%3: %4 / %5"_s.arg(p.label).arg(attempt)
                        .arg(lostEarlier ? u" after a lost answer"_s : QString(), decisionText(da), decisionText(db));
            }
    return {};
}
