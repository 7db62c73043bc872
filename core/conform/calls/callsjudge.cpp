// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/calls/callsjudge.h"

#include "conform/calls/breakerreplay.h"
#include "conform/calls/callplacement.h"
#include "conform/calls/hedgereplay.h"

#include <QCoreApplication>

#include <algorithm>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("conform", text);
}

} // namespace

RunJudgement judgeCalls(
    const RetryPolicy& policy, const JudgedRun& run, const CallPlan& plan, const JudgeOptions& options)
{
    RunJudgement result;
    result.runId = run.record.runId;
    result.policyName = policy.name;
    const QList<AttemptRecord>& attempts = run.record.attempts;
    if (attempts.isEmpty()) {
        ConformanceFinding f;
        f.rule = FindingRule::NoRequest;
        f.observed = tr("the client sent no request");
        f.expected = tr("%1 calls were expected, one every %2").arg(plan.count).arg(formatMillis(plan.interval));
        result.findings << f;
        return result;
    }
    std::optional<Millis> until;
    if (run.observedUntil)
        until = std::chrono::duration_cast<Millis>(*run.observedUntil);
    CallPlacement placement = placeCalls(attempts, plan, until);
    if (until && run.exitCode) // a client that exited by itself made every call it was going to make
        placement = placeCalls(attempts, plan, *until + placement.slack);
    const BreakerReplayResult breaker = replayBreaker(policy, attempts, placement, options.tolerance);
    const HedgeReplayResult hedges = replayHedges(policy, attempts, placement, options.tolerance);
    result.findings = breaker.findings + hedges.findings;
    std::stable_sort(result.findings.begin(), result.findings.end(),
        [](const ConformanceFinding& a, const ConformanceFinding& b) { return a.firstCall < b.firstCall; });

    for (const int stray : placement.strays) {
        ConformanceFinding f;
        f.rule = FindingRule::Unplaced;
        f.attempt = stray + 1;
        f.observed = placement.byHeader ? tr("request %1 names no call from 1 to %2 in %3")
                                              .arg(stray + 1)
                                              .arg(plan.count)
                                              .arg(QString::fromLatin1(kCallHeader))
                                        : tr("request %1 came after the plan's last call").arg(stray + 1);
        result.notes << f;
    }
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        if (!attempts.at(i).at.finished) {
            ConformanceFinding f;
            f.rule = FindingRule::Unfinished;
            f.attempt = int(i + 1);
            f.observed = tr("request %1 was still open when the observation ended").arg(i + 1);
            result.notes << f;
        }
    }

    CallsJudgement calls;
    calls.planned = int(placement.calls.size());
    calls.sent = int(std::count_if(
        placement.calls.cbegin(), placement.calls.cend(), [](const PlacedCall& c) { return !c.requests.isEmpty(); }));
    calls.kept = breaker.kept;
    calls.late = breaker.late;
    calls.requests = int(attempts.size());
    calls.failures = breaker.failures;
    calls.hedges = hedges.hedges;
    calls.origin = placement.origin;
    calls.slack = placement.slack;
    calls.byHeader = placement.byHeader;
    calls.hasBreaker = breaker.hasBreaker;
    calls.breaker = breaker.changes;
    result.calls = calls;
    return result;
}

std::optional<CallPlan> judgedAsCalls(const SuiteCase& suiteCase, const RetryPolicy& policy)
{
    if (suiteCase.calls)
        return suiteCase.calls;
    const auto has = [&](ResilienceStrategy::Kind kind) {
        return std::any_of(policy.pipeline.cbegin(), policy.pipeline.cend(),
            [kind](const ResilienceStrategy& s) { return s.kind == kind; });
    };
    if (has(ResilienceStrategy::Kind::Hedging) && !has(ResilienceStrategy::Kind::Retry))
        return CallPlan { 1, suiteCase.timeout };
    return std::nullopt;
}
