// SPDX-License-Identifier: GPL-3.0-or-later
// Envoy (API v3, written for 1.3x): the route's retry_policy, hedge_policy and timeout, and the cluster's
// retry_budget and connect_timeout. Facts: retry-systems.md §6, resilience-fleets.md §1.7 and §5; field names
// from envoyproxy/envoy api/envoy/config/route/v3/route_components.proto (RetryPolicy, HedgePolicy) and
// api/envoy/config/cluster/v3/circuit_breaker.proto (RetryBudget).
#include "codegen/codewriter.h"
#include "codegen/targets/proxyoutcomes.h"
#include "codegen/targets/proxytargets.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

const QList<ErrorClass> kConnectFailure { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectTimeout };
const QList<ErrorClass> kReset { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectTimeout,
    ErrorClass::ConnectionLost, ErrorClass::Protocol };

bool containsAll(const QList<ErrorClass>& have, const QList<ErrorClass>& wanted)
{
    return std::all_of(wanted.cbegin(), wanted.cend(), [&](ErrorClass e) { return have.contains(e); });
}

QString duration(Millis ms)
{
    return secondsText(ms) + u's';
}

QString errorNames(const QList<ErrorClass>& errors)
{
    QStringList names;
    for (const ErrorClass e : errors)
        names << errorClassId(e);
    return names.join(u", "_s);
}

QString statusText(const QList<int>& statuses)
{
    QStringList parts;
    for (const StatusRange& r : ProxyOutcomes::ranges(statuses))
        parts << (r.low == r.high ? QString::number(r.low) : u"%1-%2"_s.arg(r.low).arg(r.high));
    return parts.isEmpty() ? u"none"_s : parts.join(u", "_s);
}

// The retry_on conditions for outcomes OUT (statuses and error classes), the status codes they leave to
// retriable_status_codes, and what they retry beyond OUT or miss of it, as losses.
struct RetryOn
{
    QStringList conditions;
    QList<int> codes;
    bool resetCovered = false; // a condition Envoy applies to a per-try timeout (5xx, reset)
};

RetryOn retryOnFor(RetriedOutcomes out, LossList& lost, const QString& path)
{
    RetryOn r;
    QList<int> all5xx;
    for (int s = 500; s <= 599; ++s)
        all5xx << s;
    const bool every5xx = std::all_of(all5xx.cbegin(), all5xx.cend(), [&](int s) { return out.statuses.contains(s); });
    if (every5xx && containsAll(out.errors, kReset)) {
        r.conditions << u"5xx"_s;
        r.resetCovered = true;
        out.statuses.removeIf([](int s) { return s >= 500 && s <= 599; });
    } else if (containsAll(out.errors, kReset)) {
        r.conditions << u"reset"_s;
        r.resetCovered = true;
    } else if (out.contains(ErrorClass::ConnectionLost) || out.contains(ErrorClass::Protocol)) {
        r.conditions << u"reset"_s;
        r.resetCovered = true;
        lost.add(path + u".errors"_s, u"Envoy's reset retries every failure without a response; the policy retries only %1"_s.arg(errorNames(out.errors)));
    } else if (containsAll(out.errors, kConnectFailure)) {
        r.conditions << u"connect-failure"_s;
    } else if (std::any_of(kConnectFailure.cbegin(), kConnectFailure.cend(), [&](ErrorClass e) { return out.contains(e); })) {
        r.conditions << u"connect-failure"_s;
        lost.add(path + u".errors"_s, u"Envoy's connect-failure retries dns, refused, tls and connect-timeout alike; the policy retries only %1"_s.arg(errorNames(out.errors)));
    }
    if (out.statuses.removeAll(409) > 0)
        r.conditions << u"retriable-4xx"_s;
    if (!out.statuses.isEmpty()) {
        r.conditions << u"retriable-status-codes"_s;
        r.codes = out.statuses;
    }
    return r;
}

QString flowList(const QList<int>& codes)
{
    QStringList parts;
    for (const int c : codes)
        parts << QString::number(c);
    return u"["_s + parts.join(u", "_s) + u']';
}

} // namespace

CodeExport exportEnvoy(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    TargetAbilities can;
    can.retryQuota = can.retryThrottling = true; // written as a retry_budget below, with its own loss
    can.deadline = can.attemptTimeout = can.connectTimeout = can.timeouts = can.hedging = true;
    loseUnsupported(p, can, u"Envoy"_s, lost);

    qsizetype hedgeIndex = -1;
    const ResilienceStrategy* hedge = strategyOf(p, ResilienceStrategy::Kind::Hedging, &hedgeIndex);
    const ResilienceStrategy* total = strategyOf(p, ResilienceStrategy::Kind::TotalTimeout);
    const ResilienceStrategy* perAttempt = strategyOf(p, ResilienceStrategy::Kind::AttemptTimeout);
    std::optional<Millis> deadline = p.limits.deadline;
    if (total)
        deadline = total->timeout;
    std::optional<Millis> perTry = p.limits.attemptTimeout;
    if (perAttempt)
        perTry = perAttempt->timeout;

    // What is retried, and for which methods.
    RetriedOutcomes outcomes;
    QStringList gatedMethods;
    int retries = p.maxRetries();
    const QString hedgePath = u"pipeline[%1]"_s.arg(hedgeIndex);
    if (hedge) {
        outcomes = ProxyOutcomes::matchedBy(hedge->failures);
        retries = hedge->hedging.maxHedges;
        if (hedge->hedging.delay <= Millis(0))
            lost.add(hedgePath + u".delay_ms"_s, hedge->hedging.delay == Millis(0)
                    ? u"copies sent all at once: Envoy sends a hedge only when a try's per_try_timeout passes"_s
                    : u"a copy only after a failure: Envoy hedges when a try's per_try_timeout passes, so this is written as retries"_s);
        else
            perTry = hedge->hedging.delay;
        if (!hedge->hedgeUnsafe)
            lost.add(hedgePath + u".hedge_unsafe"_s, u"hedging only requests with an idempotency key: Envoy hedges every request the route retries"_s);
        for (qsizetype i = 0; i < hedge->failures.size(); ++i)
            if (!hedge->failures.at(i).headers.isEmpty() || hedge->failures.at(i).body)
                lost.add(hedgePath + u".failures[%1]"_s.arg(i), u"a failure recognised by its headers or body: Envoy's retry_on cannot see them"_s);
        if (p.limits.maxAttempts > 1)
            lost.add(u"limits.max_attempts"_s, u"retries besides the hedges: Envoy's num_retries counts hedges and retries together"_s);
    } else {
        for (const QString& m : ProxyOutcomes::methods()) {
            const RetriedOutcomes o = ProxyOutcomes::retried(p, m);
            if (o.isEmpty())
                continue;
            gatedMethods << m;
            for (const int s : o.statuses)
                if (!outcomes.statuses.contains(s))
                    outcomes.statuses << s;
            for (const ErrorClass e : o.errors)
                if (!outcomes.errors.contains(e))
                    outcomes.errors << e;
        }
        std::sort(outcomes.statuses.begin(), outcomes.statuses.end());
        std::sort(outcomes.errors.begin(), outcomes.errors.end());
        for (const QString& m : std::as_const(gatedMethods)) {
            const RetriedOutcomes o = ProxyOutcomes::retried(p, m);
            if (!(o == outcomes))
                lost.add(u"rules"_s, u"%1 retries fewer outcomes than other methods (statuses %2; errors %3): Envoy gates retries by "
                                    "method only as a whole, so every listed method retries statuses %4 and errors %5"_s
                                         .arg(m, statusText(o.statuses), errorNames(o.errors), statusText(outcomes.statuses), errorNames(outcomes.errors)));
        }
        if (!(ProxyOutcomes::retried(p, u"POST"_s, true) == ProxyOutcomes::retried(p, u"POST"_s, false)))
            lost.add(u"rules.idempotency_key"_s, u"a POST with an idempotency key is retried differently: Envoy cannot see the key"_s);
        if (gatedMethods.size() == ProxyOutcomes::methods().size())
            gatedMethods.clear();
    }
    for (const QString& path : ProxyOutcomes::conditionsBeyondStatus(p))
        lost.add(path, u"a condition on the response's headers, its body or an earlier lost answer: Envoy's retry_on cannot express it"_s);

    RetryOn on = retryOnFor(outcomes, lost, hedge ? hedgePath + u".failures"_s : u"rules"_s);
    const bool retriesTimeout = outcomes.contains(ErrorClass::ResponseTimeout);
    if (!hedge) {
        if (retriesTimeout && !perTry)
            lost.add(u"rules.response-timeout"_s, u"a timed-out attempt is retried: Envoy retries a timeout only with a per_try_timeout, and the policy has no attempt timeout"_s);
        else if (retriesTimeout && !on.resetCovered)
            lost.add(u"rules.response-timeout"_s, u"a timed-out attempt is retried: Envoy retries a per-try timeout only under retry_on 5xx, gateway-error or reset"_s);
        else if (!retriesTimeout && perTry && on.resetCovered)
            lost.add(u"rules.response-timeout"_s, u"a timed-out attempt is not retried: Envoy retries a try that hit per_try_timeout (as a 504) under retry_on %1"_s.arg(on.conditions.first()));
    }

    // Backoff: an interval starting at base_interval, doubled up to max_interval, and a full-jitter draw below it.
    Millis base = p.backoff.base;
    std::optional<Millis> cap = p.backoff.cap;
    const int waits = std::max(retries, 1);
    switch (p.backoff.kind) {
    case BackoffKind::None:
        lost.add(u"backoff.kind"_s, u"no wait between attempts: Envoy always waits, at least below its 1 ms base_interval"_s);
        base = Millis(1);
        cap = Millis(1);
        break;
    case BackoffKind::Constant:
        cap = base;
        break;
    case BackoffKind::Linear:
        if (waits > 1)
            lost.add(u"backoff.kind"_s, u"a linear backoff: Envoy's interval doubles (written as doubling from the same base)"_s);
        break;
    case BackoffKind::Decorrelated:
    case BackoffKind::DecorrelatedV2:
        lost.add(u"backoff.kind"_s, u"decorrelated jitter: Envoy's interval doubles (written as doubling from the same base)"_s);
        break;
    case BackoffKind::Exponential:
        if (p.backoff.multiplier != 2.0 && waits > 1)
            lost.add(u"backoff.multiplier"_s, u"a multiplier of %1: Envoy's interval always doubles"_s.arg(numberText(p.backoff.multiplier)));
        if (p.backoff.origin == ExponentOrigin::FirstRetryIsZero)
            lost.add(u"backoff.origin"_s, u"a first retry without a wait: Envoy's first retry waits below base_interval"_s);
        for (int i = 0; i < std::abs(p.backoff.exponentOffset) && i < 20; ++i)
            base = p.backoff.exponentOffset > 0 ? base * 2 : std::max(Millis(1), base / 2);
        break;
    }
    base = std::max(base, Millis(1));
    // Without a cap, the largest interval the retries reach: Envoy always has one (10 × base by default).
    Millis top = base;
    for (int i = 1; i < waits && top < Millis(86'400'000); ++i)
        top *= 2;
    const bool uncapped = !cap;
    Millis maxInterval = cap ? std::max(*cap, base) : top;
    if (cap && *cap < base)
        base = *cap;
    if (p.jitter.kind != JitterKind::Full)
        lost.add(u"jitter.kind"_s, u"%1 jitter: Envoy draws every wait uniformly below the interval (full jitter)"_s.arg(
                                     p.jitter.kind == JitterKind::None ? u"no"_s : u"this"_s));
    else if (p.jitter.capOrder == CapOrder::AfterJitter && cap && *cap < top)
        lost.add(u"jitter.cap"_s, u"the cap applied after the draw: Envoy draws below the capped interval, so fewer waits sit at the cap"_s);
    if (p.jitter.floor > Millis(0))
        lost.add(u"jitter.floor_ms"_s, u"a floor of %1 ms under every wait: Envoy's draw starts at 0"_s.arg(p.jitter.floor.count()));

    // Server hints: rate_limited_retry_back_off's reset headers (SECONDS: delta seconds, no dates).
    QStringList resetHeaders;
    std::optional<Millis> hintMax;
    for (qsizetype i = 0; i < p.hints.size(); ++i) {
        const DelayHint& h = p.hints.at(i);
        const QString hp = u"hints[%1]"_s.arg(i);
        if (h.format == HintFormat::Milliseconds) {
            lost.add(hp, u"%1 in milliseconds: Envoy reads reset headers in seconds or as Unix timestamps only"_s.arg(h.header));
            continue;
        }
        resetHeaders << h.header.toLower();
        lost.add(hp, u"Envoy adds its own jitter to the asked delay, U[d, 1.5·d)"_s);
        if (h.format == HintFormat::RetryAfter)
            lost.add(hp + u".format"_s, u"%1 as an HTTP-date: Envoy reads delta seconds only"_s.arg(h.header));
        if (h.combine != HintCombine::Replace)
            lost.add(hp + u".combine"_s, u"the asked delay combined with the backoff: Envoy waits the asked delay instead"_s);
        if (h.overMax != HintOverMax::Ignore)
            lost.add(hp + u".over_max"_s, h.overMax == HintOverMax::Clamp
                    ? u"a delay above the maximum is clamped: Envoy discards it and uses the backoff"_s
                    : u"a delay above the maximum gives up: Envoy discards it and uses the backoff"_s);
        if (!h.max)
            lost.add(hp + u".max_ms"_s, u"no maximum: Envoy discards a delay above max_interval, 300 s by default"_s);
        else if (hintMax && *hintMax != *h.max)
            lost.add(hp + u".max_ms"_s, u"a maximum of its own: Envoy has one max_interval for every reset header"_s);
        if (h.max && !hintMax)
            hintMax = h.max;
        if (!h.statuses.isEmpty())
            lost.add(hp + u".statuses"_s, u"honoured only on some statuses: Envoy reads reset headers on every retried response"_s);
        if (h.alsoRetryAfterMs)
            lost.add(hp + u".also_retry_after_ms"_s, u"retry-after-ms as a fallback: list it as a header of its own in milliseconds, which Envoy cannot read"_s);
        if (h.resetsExponent || h.negativeMeansStop || h.invalidMeansStop || h.cappedByBackoffCap || !h.advancesBackoff || h.jittered)
            lost.add(hp + u".flags"_s, u"how the asked delay interacts with the backoff (resets, stops, caps, jitter): Envoy has no such settings"_s);
    }

    if (p.limits.deadlineMode == DeadlineMode::StopAfterWait && deadline)
        lost.add(u"limits.deadline_mode"_s, u"a wait may cross the deadline: Envoy's route timeout ends the request when it passes"_s);
    if (p.idempotency.autoAdd)
        lost.add(u"idempotency"_s, u"adding an idempotency key: Envoy does not mint one (set it in the client)"_s);

    // A retry budget: Envoy's limits concurrent retries to a share of the requests in flight.
    std::optional<int> budgetPercent;
    if (p.quota.enabled) {
        budgetPercent = std::clamp(int(100.0 * p.quota.successReward / std::max(1, p.quota.retryCost) + 0.5), 1, 100);
        lost.add(u"quota"_s, u"the retry quota's token bucket: written as the cluster's retry_budget, which bounds concurrent retries to %1 % of "
                            "active requests (the quota's sustained rate, %2 per %3) instead of counting tokens"_s
                                 .arg(*budgetPercent).arg(p.quota.successReward).arg(p.quota.retryCost));
    }
    if (p.throttling.enabled) {
        budgetPercent = std::clamp(int(100.0 * p.throttling.tokenRatio + 0.5), 1, 100);
        lost.add(u"throttling"_s, u"gRPC retry throttling's token bucket: written as the cluster's retry_budget, which bounds concurrent retries "
                                 "to %1 % of active requests (tokenRatio's sustained rate) instead of counting tokens"_s.arg(*budgetPercent));
    }

    // The unit.
    QString y = headerComment(CommentStyle { u"# "_s }, p, u"Envoy route retry policy"_s, version, lost.items());
    y += u"# `route` is a route's action (config.route.v3.Route.route, a RouteAction); `circuit_breakers` and\n"
         "# `connect_timeout` belong to the upstream cluster (config.cluster.v3.Cluster).\n"_s;
    y += u"route:\n"_s;
    if (deadline)
        y += u"  timeout: %1\n"_s.arg(duration(*deadline));
    else
        y += u"  timeout: 0s  # no overall deadline (0s turns off Envoy's 15 s route timeout)\n"_s;
    const bool anything = !on.conditions.isEmpty();
    if (!anything) {
        y += u"  # no retry_policy: the policy retries nothing\n"_s;
    } else {
        y += u"  retry_policy:\n"_s;
        y += u"    retry_on: %1\n"_s.arg(quoted(on.conditions.join(u',')));
        y += u"    num_retries: %1\n"_s.arg(std::max(0, retries));
        if (perTry)
            y += u"    per_try_timeout: %1\n"_s.arg(duration(*perTry));
        y += u"    retry_back_off:\n"_s;
        y += u"      base_interval: %1\n"_s.arg(duration(base));
        y += u"      max_interval: %1%2\n"_s.arg(duration(maxInterval),
            uncapped && p.backoff.kind == BackoffKind::Exponential ? u"  # no cap in the policy: the largest interval its retries reach"_s : QString());
        if (!resetHeaders.isEmpty()) {
            y += u"    rate_limited_retry_back_off:\n      reset_headers:\n"_s;
            for (const QString& h : std::as_const(resetHeaders))
                y += u"      - name: %1\n        format: SECONDS\n"_s.arg(quoted(h));
            y += u"      max_interval: %1\n"_s.arg(duration(hintMax.value_or(Millis(300'000))));
        }
        if (!on.codes.isEmpty())
            y += u"    retriable_status_codes: %1\n"_s.arg(flowList(on.codes));
        if (!gatedMethods.isEmpty()) {
            y += u"    retriable_request_headers:  # retries only for these methods\n"_s;
            for (const QString& m : std::as_const(gatedMethods))
                y += u"    - name: \":method\"\n      string_match: {exact: %1}\n"_s.arg(m);
        }
    }
    if (hedge && hedge->hedging.delay > Millis(0))
        y += u"  hedge_policy:\n    hedge_on_per_try_timeout: true\n"_s;
    if (budgetPercent) {
        y += u"circuit_breakers:\n  thresholds:\n  - priority: DEFAULT\n    retry_budget:\n"_s;
        y += u"      budget_percent: {value: %1}\n      min_retry_concurrency: 3\n"_s.arg(*budgetPercent);
    }
    if (p.limits.connectTimeout)
        y += u"connect_timeout: %1\n"_s.arg(duration(*p.limits.connectTimeout));
    return CodeExport { y, lost.items() };
}
