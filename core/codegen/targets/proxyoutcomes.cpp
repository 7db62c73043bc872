// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/proxyoutcomes.h"

#include "policy/decisiontable.h"
#include "policy/rulematcher.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace ProxyOutcomes {

QStringList methods()
{
    return { u"GET"_s, u"HEAD"_s, u"OPTIONS"_s, u"PUT"_s, u"DELETE"_s, u"POST"_s, u"PATCH"_s };
}

QList<ErrorClass> allErrors()
{
    return { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectTimeout,
        ErrorClass::ResponseTimeout, ErrorClass::ConnectionLost, ErrorClass::Protocol };
}

RetriedOutcomes retried(const RetryPolicy& policy, const QString& method, bool key)
{
    // The rules alone: room for a retry, nothing shared, no deadline, no pipeline.
    RetryPolicy probe = policy;
    probe.limits.maxAttempts = 2;
    probe.limits.deadline.reset();
    probe.quota.enabled = false;
    probe.throttling.enabled = false;
    probe.hostThrottle.enabled = false;
    probe.pipeline.clear();
    ExplainQuery q;
    q.method = method;
    q.request.method = method;
    q.request.hasIdempotencyKey = key;
    q.now = QDateTime(QDate(2025, 1, 1), QTime(0, 0), Qt::UTC);
    RetriedOutcomes out;
    for (int status = 100; status <= 599; ++status) {
        q.outcome = AttemptOutcome::answered(status);
        const RetryDecision d = explain(probe, q);
        if (d.verdict == Verdict::Retry && !d.redirectTo)
            out.statuses << status;
    }
    for (const ErrorClass e : allErrors()) {
        q.outcome = AttemptOutcome::failed(e);
        if (explain(probe, q).verdict == Verdict::Retry)
            out.errors << e;
    }
    return out;
}

QList<StatusRange> ranges(const QList<int>& statuses)
{
    QList<StatusRange> out;
    for (const int s : statuses) {
        if (!out.isEmpty() && out.last().high == s - 1)
            out.last().high = s;
        else
            out << StatusRange { s, s };
    }
    return out;
}

QStringList conditionsBeyondStatus(const RetryPolicy& policy)
{
    QStringList out;
    for (qsizetype i = 0; i < policy.rules.size(); ++i) {
        const RuleCondition& w = policy.rules.at(i).when;
        const QString base = u"rules[%1].when"_s.arg(i);
        if (!w.headers.isEmpty())
            out << base + u".headers"_s;
        if (w.body)
            out << base + u".body"_s;
        if (w.afterLostAnswer)
            out << base + u".after_lost_answer"_s;
    }
    return out;
}

RetriedOutcomes matchedBy(const QList<RuleCondition>& conditions)
{
    RequestFacts get;
    RetriedOutcomes out;
    const auto any = [&](const AttemptOutcome& o) {
        return std::any_of(conditions.cbegin(), conditions.cend(), [&](const RuleCondition& c) { return conditionMatches(c, get, o); });
    };
    for (int status = 100; status <= 599; ++status)
        if (any(AttemptOutcome::answered(status)))
            out.statuses << status;
    for (const ErrorClass e : allErrors())
        if (any(AttemptOutcome::failed(e)))
            out.errors << e;
    return out;
}

} // namespace ProxyOutcomes
