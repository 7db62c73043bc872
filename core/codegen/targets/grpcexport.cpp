// SPDX-License-Identifier: GPL-3.0-or-later
// gRPC service config (gRFC A6): a methodConfig for every method with its retryPolicy or hedgingPolicy and
// timeout, and retryThrottling. Facts: retry-systems.md §3, resilience-fleets.md §1.7 and §5; field names from
// grpc/grpc doc/service_config.md and grpc/proposal A6-client-retries.md; HTTP → gRPC codes from
// doc/http-grpc-status-mapping.md. JSON has no comments: the header travels in "_retrylab", an array of strings.
#include "codegen/codewriter.h"
#include "codegen/targets/grpcstatus.h"
#include "codegen/targets/proxyoutcomes.h"
#include "codegen/targets/proxytargets.h"

#include <QSet>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString duration(Millis ms)
{
    return quoted(secondsText(ms) + u's');
}

bool isGrpcStatus(const HeaderMatch& h)
{
    return h.name.compare(u"grpc-status"_s, Qt::CaseInsensitive) == 0;
}

// The grpc-status codes a condition names (grpc-status present with listed values), empty otherwise.
QList<int> namedCodes(const RuleCondition& c)
{
    QList<int> out;
    for (const HeaderMatch& h : c.headers)
        if (isGrpcStatus(h) && !h.absent)
            for (const QString& v : h.values) {
                bool ok = false;
                const int code = v.toInt(&ok);
                if (ok && !GrpcStatus::name(code).isEmpty())
                    out << code;
            }
    return out;
}

// Only grpc-status conditions (present, with values or any, or absent): the ones the gRPC target understands.
bool onlyGrpcStatusHeaders(const RuleCondition& c)
{
    return !c.body && !c.afterLostAnswer && std::all_of(c.headers.cbegin(), c.headers.cend(), [](const HeaderMatch& h) {
        return isGrpcStatus(h);
    });
}

QString codeList(QList<int> codes)
{
    std::sort(codes.begin(), codes.end());
    QStringList names;
    for (const int c : codes)
        names << quoted(GrpcStatus::name(c));
    return u"["_s + names.join(u", "_s) + u']';
}

QString statusText(const QList<int>& statuses)
{
    QStringList parts;
    for (const StatusRange& r : ProxyOutcomes::ranges(statuses))
        parts << (r.low == r.high ? QString::number(r.low) : u"%1-%2"_s.arg(r.low).arg(r.high));
    return parts.join(u", "_s);
}

// Compares what CODES would retry among OUTCOMES' kinds with what the policy retries, as losses at PATH.
void compareCodes(const QList<int>& codes, const RetriedOutcomes& wanted, const QString& path, const QString& verb, LossList& lost)
{
    QList<int> extraStatuses;
    QList<int> missedStatuses;
    for (int s = 400; s <= 599; ++s) {
        const bool grpc = codes.contains(GrpcStatus::fromHttp(s));
        const bool policy = wanted.statuses.contains(s);
        if (grpc && !policy)
            extraStatuses << s;
        else if (!grpc && policy)
            missedStatuses << s;
    }
    QStringList extraErrors;
    QStringList missedErrors;
    for (const ErrorClass e : ProxyOutcomes::allErrors()) {
        const bool grpc = codes.contains(GrpcStatus::fromError(e));
        const bool policy = wanted.contains(e);
        if (grpc && !policy)
            extraErrors << errorClassId(e);
        else if (!grpc && policy)
            missedErrors << errorClassId(e);
    }
    if (!extraStatuses.isEmpty() || !extraErrors.isEmpty())
        lost.add(path + u".wider"_s, u"gRPC %1 by status code, so it also %1 what shares one with the policy's outcomes: HTTP %2%3%4"_s.arg(
                                     verb, extraStatuses.isEmpty() ? u"none"_s : statusText(extraStatuses),
                                     extraErrors.isEmpty() ? QString() : u"; errors "_s, extraErrors.join(u", "_s)));
    if (!missedStatuses.isEmpty() || !missedErrors.isEmpty())
        lost.add(path + u".narrower"_s, u"outcomes whose gRPC code cannot be listed without more: HTTP %1%2%3"_s.arg(
                                        missedStatuses.isEmpty() ? u"none"_s : statusText(missedStatuses),
                                        missedErrors.isEmpty() ? QString() : u"; errors "_s, missedErrors.join(u", "_s)));
}

QList<int> codesOf(const RetriedOutcomes& o)
{
    QList<int> codes;
    for (const int s : o.statuses) {
        // 1xx–3xx retried: gRPC would see them as UNKNOWN, which is too wide to list for them.
        if (s < 400)
            continue;
        const int c = GrpcStatus::fromHttp(s);
        if (!codes.contains(c))
            codes << c;
    }
    for (const ErrorClass e : o.errors) {
        const int c = GrpcStatus::fromError(e);
        if (!codes.contains(c))
            codes << c;
    }
    return codes;
}

bool isPushback(const DelayHint& h)
{
    return h.header.compare(u"grpc-retry-pushback-ms"_s, Qt::CaseInsensitive) == 0 && h.format == HintFormat::Milliseconds
        && h.combine == HintCombine::Replace && !h.max && h.resetsExponent && h.negativeMeansStop && h.invalidMeansStop
        && h.statuses.isEmpty() && !h.jittered && !h.alsoRetryAfterMs && !h.cappedByBackoffCap;
}

} // namespace

CodeExport exportGrpc(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    TargetAbilities can;
    can.retryThrottling = can.deadline = can.timeouts = can.hedging = true;
    loseUnsupported(p, can, u"gRPC"_s, lost);
    // The attempt timeout strategy: gRPC has none (loseUnsupported let every timeout through).
    qsizetype attemptIndex = -1;
    if (strategyOf(p, ResilienceStrategy::Kind::AttemptTimeout, &attemptIndex))
        lost.add(u"pipeline[%1]"_s.arg(attemptIndex), u"a per-attempt timeout: gRPC has only the call's deadline"_s);

    qsizetype hedgeIndex = -1;
    const ResilienceStrategy* hedge = strategyOf(p, ResilienceStrategy::Kind::Hedging, &hedgeIndex);
    const ResilienceStrategy* total = strategyOf(p, ResilienceStrategy::Kind::TotalTimeout);
    std::optional<Millis> deadline = total ? std::optional<Millis>(total->timeout) : p.limits.deadline;
    if (deadline && p.limits.deadlineMode == DeadlineMode::StopAfterWait)
        lost.add(u"limits.deadline_mode"_s, u"a wait may cross the deadline: gRPC's deadline ends the call when it passes"_s);
    if (p.idempotency.autoAdd)
        lost.add(u"idempotency"_s, u"adding an idempotency key: gRPC does not mint one (set it as call metadata)"_s);

    // Which codes: grpc-status rules name theirs; HTTP answers without grpc-status and failures map to one.
    QList<int> codes;
    RetriedOutcomes wanted;
    const QString hedgePath = u"pipeline[%1]"_s.arg(hedgeIndex);
    if (hedge) {
        wanted = ProxyOutcomes::matchedBy(hedge->failures);
        for (qsizetype i = 0; i < hedge->failures.size(); ++i) {
            const RuleCondition& c = hedge->failures.at(i);
            for (const int code : namedCodes(c))
                if (!codes.contains(code))
                    codes << code;
            if (!onlyGrpcStatusHeaders(c))
                lost.add(hedgePath + u".failures[%1]"_s.arg(i), u"a failure recognised by other headers or the body: gRPC sees only status codes"_s);
        }
        if (!hedge->hedgeUnsafe)
            lost.add(hedgePath + u".hedge_unsafe"_s, u"hedging only requests with an idempotency key: gRPC hedges every call of the method"_s);
        if (hedge->hedging.delay < Millis(0))
            lost.add(hedgePath + u".delay_ms"_s, u"a copy only after a failure: gRPC sends copies hedgingDelay apart (written as 0s: all at once)"_s);
        if (p.limits.maxAttempts > 1)
            lost.add(u"limits.max_attempts"_s, u"retries besides the hedges: a gRPC method has a retryPolicy or a hedgingPolicy, never both"_s);
        if (hedge->hedging.maxHedges + 1 > 5)
            lost.add(hedgePath + u".max_hedges"_s, u"more than 4 hedges: gRPC sends at most 5 copies"_s);
    } else {
        QStringList methods;
        for (const QString& m : ProxyOutcomes::methods()) {
            const RetriedOutcomes o = ProxyOutcomes::retried(p, m);
            for (const int s : o.statuses)
                if (!wanted.statuses.contains(s))
                    wanted.statuses << s;
            for (const ErrorClass e : o.errors)
                if (!wanted.errors.contains(e))
                    wanted.errors << e;
        }
        std::sort(wanted.statuses.begin(), wanted.statuses.end());
        std::sort(wanted.errors.begin(), wanted.errors.end());
        for (const QString& m : ProxyOutcomes::methods())
            if (!(ProxyOutcomes::retried(p, m) == wanted))
                methods << m;
        if (!methods.isEmpty())
            lost.add(u"rules.methods"_s, u"%1 retried less than other methods: gRPC has no HTTP methods and retries every call of the method alike"_s.arg(methods.join(u", "_s)));
        if (!(ProxyOutcomes::retried(p, u"POST"_s, true) == ProxyOutcomes::retried(p, u"POST"_s, false)))
            lost.add(u"rules.idempotency_key"_s, u"a request with an idempotency key is retried differently: gRPC cannot see the key"_s);
        for (qsizetype i = 0; i < p.rules.size(); ++i) {
            const RetryRule& r = p.rules.at(i);
            if (r.action == RuleAction::Retry)
                for (const int code : namedCodes(r.when))
                    if (!codes.contains(code))
                        codes << code;
            if (!onlyGrpcStatusHeaders(r.when))
                lost.add(u"rules[%1].when"_s.arg(i), u"a condition on other headers, the body or an earlier lost answer: gRPC sees only status codes"_s);
        }
    }
    for (const int c : codesOf(wanted))
        if (!codes.contains(c))
            codes << c;
    std::sort(codes.begin(), codes.end());
    compareCodes(codes, wanted, hedge ? hedgePath + u".failures"_s : u"rules"_s, hedge ? u"hedges again"_s : u"retries"_s, lost);

    // Backoff: min(initialBackoff · backoffMultiplier^(n−1), maxBackoff), then the client's jitter.
    const int attempts = hedge ? std::min(hedge->hedging.maxHedges + 1, 5) : std::min(p.limits.maxAttempts, 5);
    if (!hedge && p.limits.maxAttempts > 5)
        lost.add(u"limits.max_attempts"_s, u"%1 attempts: gRPC makes at most 5 (more are treated as 5)"_s.arg(p.limits.maxAttempts));
    Millis initial = p.backoff.base;
    double multiplier = p.backoff.multiplier;
    std::optional<Millis> cap = p.backoff.cap;
    switch (p.backoff.kind) {
    case BackoffKind::None:
        lost.add(u"backoff.kind"_s, u"no wait between attempts: gRPC's initialBackoff must be above 0 (written as 1 ms)"_s);
        initial = Millis(1);
        multiplier = 1;
        cap = initial;
        break;
    case BackoffKind::Constant:
        multiplier = 1;
        cap = initial;
        break;
    case BackoffKind::Linear:
        multiplier = 1;
        if (attempts > 2)
            lost.add(u"backoff.kind"_s, u"a linear backoff: gRPC's grows by a multiplier (written as a constant)"_s);
        break;
    case BackoffKind::Decorrelated:
    case BackoffKind::DecorrelatedV2:
        multiplier = 2;
        lost.add(u"backoff.kind"_s, u"decorrelated jitter: gRPC's backoff grows by a multiplier (written as doubling)"_s);
        break;
    case BackoffKind::Exponential:
        initial = Millis(qint64(std::llround(double(initial.count()) * std::pow(multiplier, p.backoff.exponentOffset))));
        if (p.backoff.origin == ExponentOrigin::FirstRetryIsZero)
            lost.add(u"backoff.origin"_s, u"a first retry without a wait: gRPC's first retry waits about initialBackoff"_s);
        break;
    }
    initial = std::max(initial, Millis(1));
    if (!(multiplier > 0)) {
        lost.add(u"backoff.multiplier"_s, u"a multiplier of 0 or less: gRPC's must be above 0 (written as 1)"_s);
        multiplier = 1;
    }
    Millis top = initial;
    for (int i = 2; i < attempts && top < Millis(86'400'000); ++i)
        top = Millis(qint64(double(top.count()) * multiplier));
    const Millis maxBackoff = std::max(cap.value_or(std::max(top, initial)), Millis(1));
    const bool newJitter = version == u"A6"_s;
    const bool jitterExact = newJitter
        ? p.jitter.kind == JitterKind::Multiplicative && p.jitter.low == 0.8 && p.jitter.high == 1.2 && p.jitter.capOrder == CapOrder::BeforeJitter
        : p.jitter.kind == JitterKind::Full && (p.jitter.capOrder == CapOrder::BeforeJitter || !cap);
    if (!jitterExact && !hedge)
        lost.add(u"jitter.kind"_s, newJitter
                ? u"this jitter: gRPC clients since the 2024 gRFC A6 update (grpc-go 1.69+) multiply the capped wait by U(0.8, 1.2)"_s
                : u"this jitter: older gRPC clients (grpc-go before 1.69) draw the wait uniformly below the capped backoff"_s);
    if (p.jitter.floor > Millis(0) && !hedge)
        lost.add(u"jitter.floor_ms"_s, u"a floor under every wait: gRPC has none"_s);

    // Server hints: only grpc-retry-pushback-ms, always honoured.
    bool pushback = false;
    for (qsizetype i = 0; i < p.hints.size(); ++i) {
        if (isPushback(p.hints.at(i)) && !pushback)
            pushback = true;
        else
            lost.add(u"hints[%1]"_s.arg(i), u"%1: gRPC reads only the grpc-retry-pushback-ms trailer"_s.arg(p.hints.at(i).header));
    }
    if (!pushback && (hedge || attempts > 1))
        lost.add(u"hints"_s, u"the policy ignores grpc-retry-pushback-ms: gRPC always honours it (a valid value sets the next wait, a negative one stops)"_s);

    // Throttling: exact when it is per server (gRPC's retryThrottling is per server name).
    double maxTokens = p.throttling.maxTokens;
    double tokenRatio = p.throttling.tokenRatio;
    if (p.throttling.enabled) {
        if (p.throttling.scope != BudgetScope::Host)
            lost.add(u"throttling.scope"_s, u"one bucket for the whole client: gRPC keeps one per server name"_s);
        const double clampedTokens = std::clamp(maxTokens, 1.0, 1000.0);
        const double roundedRatio = std::max(0.001, std::round(tokenRatio * 1000.0) / 1000.0);
        if (clampedTokens != maxTokens || roundedRatio != tokenRatio)
            lost.add(u"throttling.token_ratio"_s, u"maxTokens must lie in (0, 1000] and tokenRatio has 3 decimals: written as %1 and %2"_s.arg(numberText(clampedTokens), numberText(roundedRatio)));
        maxTokens = clampedTokens;
        tokenRatio = roundedRatio;
    }

    // The unit.
    // The header as headerComment() writes it, one string a line, unwrapped.
    QStringList headerLines { u"Retry policy \"%1\", exported by Retrylab %2 for gRPC service config %3."_s.arg(p.name, QStringLiteral(RETRYLAB_VERSION), version) };
    if (const QString summary = policySummary(p); !summary.isEmpty() && summary != p.name)
        headerLines << summary;
    if (!p.sourceTitle.isEmpty())
        headerLines << u"Source: "_s + p.sourceTitle;
    if (lost.items().isEmpty())
        headerLines << u"Exact: every behaviour of the policy is expressed below."_s;
    else
        headerLines << u"NOT EXPRESSED by gRPC service config %1 (%2), so this config differs from the policy here:"_s.arg(version).arg(lost.items().size());
    for (const LostBehaviour& l : lost.items())
        headerLines << u"- %1: %2"_s.arg(l.path, l.what);
    headerLines << u"JSON has no comments: these members carry them; gRPC ignores unknown fields."_s;
    QString j = u"{\n  \"_retrylab_policy\": "_s + quoted(p.name) + u",\n  \"_retrylab\": [\n"_s;
    for (qsizetype i = 0; i < headerLines.size(); ++i)
        j += u"    "_s + quoted(headerLines.at(i)) + (i + 1 < headerLines.size() ? u",\n"_s : u"\n"_s);
    j += u"  ],\n  \"methodConfig\": [\n    {\n      \"name\": [{}]"_s;
    if (deadline)
        j += u",\n      \"timeout\": "_s + duration(*deadline);
    if (hedge) {
        j += u",\n      \"hedgingPolicy\": {\n"_s;
        j += u"        \"maxAttempts\": %1,\n"_s.arg(attempts);
        j += u"        \"hedgingDelay\": %1,\n"_s.arg(duration(std::max(hedge->hedging.delay, Millis(0))));
        j += u"        \"nonFatalStatusCodes\": %1\n      }"_s.arg(codeList(codes));
    } else if (attempts > 1 && !codes.isEmpty()) {
        j += u",\n      \"retryPolicy\": {\n"_s;
        j += u"        \"maxAttempts\": %1,\n"_s.arg(attempts);
        j += u"        \"initialBackoff\": %1,\n"_s.arg(duration(initial));
        j += u"        \"maxBackoff\": %1,\n"_s.arg(duration(maxBackoff));
        j += u"        \"backoffMultiplier\": %1,\n"_s.arg(numberText(multiplier));
        j += u"        \"retryableStatusCodes\": %1\n      }"_s.arg(codeList(codes));
    }
    j += u"\n    }\n  ]"_s;
    if (p.throttling.enabled)
        j += u",\n  \"retryThrottling\": {\n    \"maxTokens\": %1,\n    \"tokenRatio\": %2\n  }"_s.arg(numberText(maxTokens), numberText(tokenRatio));
    j += u"\n}\n"_s;
    return CodeExport { j, lost.items() };
}
