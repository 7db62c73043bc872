// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/calls/hedgereplay.h"

#include "conform/calls/breakerreplay.h" // strategyFailure
#include "policy/resilience/hedging.h"
#include "policy/retrypolicy.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;
using Kind = ResilienceStrategy::Kind;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("conform", text);
}

Millis ms(std::optional<MonoTime> t)
{
    return std::chrono::duration_cast<Millis>(t.value_or(MonoTime { 0 }));
}

// Every copy of one kind, across the calls: one finding.
struct Found
{
    int firstCall = 0;
    int lastCall = 0;
    int count = 0;
    int request = 0;
    QString example; // the first one, in words
    QString expected;
};

class CallHedges
{
public:
    CallHedges(const RetryPolicy& policy, const ResilienceStrategy* strategy, const QList<AttemptRecord>& attempts,
        const WaitTolerance& tolerance)
        : m_policy(policy)
        , m_strategy(strategy)
        , m_attempts(attempts)
        , m_tolerance(tolerance)
        , m_who(policy.name.isEmpty() ? tr("the policy") : policy.name)
    { }

    // The requests of call NUMBER (arrival order): its hedges counted, its findings added to EARLY and BEYOND.
    int judge(int number, const QList<int>& requests, Found& early, Found& beyond)
    {
        int hedges = 0;
        QList<std::pair<Millis, int>> answers; // copies in flight that will be answered: when, and the request
        QHash<int, int> copyOf; // request → its copy number in the current hedging
        int inFlight = 0; // requests of the call without an answer yet (those never answered included)
        std::optional<Hedging> hedging;
        // The answers that ended by AT (in the same millisecond as a request: heard before it went).
        const auto hear = [&](Millis at) {
            while (!answers.isEmpty() && answers.first().first <= at) {
                const auto [when, request] = answers.takeFirst();
                --inFlight;
                if (hedging && copyOf.contains(request)) {
                    const bool failed = strategyFailure(*m_strategy, m_policy, m_attempts.at(request));
                    hedging->answered(
                        copyOf.value(request), failed ? Hedging::Answer::Failed : Hedging::Answer::Accepted, when);
                }
            }
        };
        for (const int r : requests) { // in arrival order
            const AttemptRecord& attempt = m_attempts.at(r);
            const Millis at = ms(attempt.at.started);
            hear(at);
            const bool alongside = inFlight > 0;
            ++inFlight;
            if (attempt.at.finished) {
                const Millis end = std::max(at, ms(attempt.at.finished));
                const auto place = std::upper_bound(answers.begin(), answers.end(), end,
                    [](Millis t, const std::pair<Millis, int>& a) { return t < a.first; });
                answers.insert(place, { end, r });
            }
            hedges += alongside ? 1 : 0;
            if (!m_strategy) {
                if (alongside)
                    note(beyond, number, r,
                        tr("call %1 sent request %2 while another of its requests had no answer")
                            .arg(number)
                            .arg(r + 1),
                        tr("%1 does not hedge: one request of a call at a time").arg(m_who));
                continue;
            }
            if (!hedging || (hedging->done() && !alongside)) { // the call's first copy, or it starts again
                hedging.emplace(m_strategy->hedging, at);
                copyOf.clear();
                copyOf.insert(r, 1);
                continue;
            }
            if (const std::optional<int> copy = hedging->startDue(at)) {
                copyOf.insert(r, *copy);
                continue;
            }
            const HedgingOptions& o = m_strategy->hedging;
            if (hedging->done() || hedging->started() >= 1 + o.maxHedges) {
                note(beyond, number, r,
                    tr("call %1 sent copy %2 (request %3)").arg(number).arg(hedging->started() + 1).arg(r + 1),
                    tr("%1 sends at most %2 copies of a call and none after its answer")
                        .arg(m_who)
                        .arg(1 + o.maxHedges));
                continue;
            }
            const std::optional<Millis> next = hedging->nextStartAt();
            if (next && *next - at <= m_tolerance.earlySlack(o.delay)) {
                copyOf.insert(r, *hedging->startDue(*next)); // a little early: the policy's copy
                continue;
            }
            const Millis sinceNewest = at - hedging->startedAt(hedging->started());
            note(early, number, r,
                tr("call %1 sent copy %2 (request %3) %4 after the copy before it, which had no failed answer")
                    .arg(number)
                    .arg(hedging->started() + 1)
                    .arg(r + 1)
                    .arg(formatMillis(sinceNewest)),
                o.delay.count() < 0
                    ? tr("%1 sends the next copy only after a failed answer").arg(m_who)
                    : tr("%1 sends the next copy %2 after the newest, or at once after a failed answer; "
                         "tolerance %3")
                          .arg(m_who, formatMillis(o.delay), m_tolerance.describe()));
        }
        return hedges;
    }

private:
    static void note(Found& f, int call, int request, const QString& example, const QString& expected)
    {
        if (f.count++ == 0) {
            f.firstCall = call;
            f.request = request;
            f.example = example;
            f.expected = expected;
        }
        f.lastCall = call;
    }

    const RetryPolicy& m_policy;
    const ResilienceStrategy* m_strategy;
    const QList<AttemptRecord>& m_attempts;
    WaitTolerance m_tolerance;
    QString m_who;
};

ConformanceFinding finding(FindingRule rule, const Found& f)
{
    ConformanceFinding out;
    out.rule = rule;
    out.attempt = f.request + 1;
    out.firstCall = f.firstCall;
    out.lastCall = f.lastCall;
    out.callCount = f.count;
    out.observed = f.count == 1
        ? f.example
        : tr("%1 (and %2 more such copies, up to call %3)").arg(f.example).arg(f.count - 1).arg(f.lastCall);
    out.expected = f.expected;
    return out;
}

} // namespace

HedgeReplayResult replayHedges(const RetryPolicy& policy, const QList<AttemptRecord>& attempts,
    const CallPlacement& placement, const WaitTolerance& tolerance)
{
    const ResilienceStrategy* strategy = nullptr;
    for (const ResilienceStrategy& s : policy.pipeline) {
        if (s.kind == Kind::Hedging) {
            strategy = &s;
            break;
        }
    }
    CallHedges judge(policy, strategy, attempts, tolerance);
    HedgeReplayResult result;
    Found early, beyond;
    for (const PlacedCall& c : placement.calls) {
        if (c.requests.size() > 1)
            result.hedges += judge.judge(c.number, c.requests, early, beyond);
    }
    if (early.count > 0)
        result.findings.append(finding(FindingRule::HedgeEarly, early));
    if (beyond.count > 0)
        result.findings.append(finding(FindingRule::HedgeBeyondMax, beyond));
    return result;
}
