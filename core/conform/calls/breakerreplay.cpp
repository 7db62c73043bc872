// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/calls/breakerreplay.h"

#include "conform/attemptreading.h"
#include "engine/answerreading.h"
#include "policy/policydescription.h"
#include "policy/retrypolicy.h"
#include "policy/rulematcher.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;
using State = CircuitBreaker::State;
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

// What passes the breaker once: a request, or a whole call when the breaker is outside the retry.
struct Pass
{
    int call = 0; // 0: a request that names no call of the plan
    int request = 0; // its (first) request, an index into the attempts
    Millis start { 0 };
    std::optional<Millis> end;
    bool failure = false;
};

// A moment a call asks the breaker: a request's arrival, or the time of a call the client kept. The answers
// of the requests already admitted are told to it as their time comes, before whatever asks at or after
// that time (an answer and a request stamped in the same millisecond: the answer was heard first), and
// never before their own request.
struct Event
{
    Millis at { 0 };
    bool kept = false; // at one moment: the requests that came, then the calls that did not
    int index = 0; // into the passes, or the placement's calls
};

// The "opens at …" clause of the strategy's description ("opens at 5 failures in a row").
QString openingRule(const ResilienceStrategy& s)
{
    QString line = describeStrategy(s).section(u'\n', 0, 0);
    line = line.section(u':', 1).trimmed();
    return line.section(u';', 0, 0).trimmed();
}

QString windowText(const CircuitBreakerOptions& o, const CircuitBreaker::Counts& c)
{
    if (o.window == CircuitBreakerOptions::Window::Consecutive)
        return c.failures == 1 ? tr("1 failure in a row") : tr("%1 failures in a row").arg(c.failures);
    return tr("%1 calls, %2 failures in its window").arg(c.calls).arg(c.failures);
}

class Replay
{
public:
    Replay(const RetryPolicy& policy, const QList<AttemptRecord>& attempts, const CallPlacement& placement,
        const WaitTolerance& tolerance)
        : m_placement(placement)
        , m_tolerance(tolerance)
        , m_who(policy.name.isEmpty() ? tr("the policy") : policy.name)
    {
        qsizetype breakerAt = -1, retryAt = -1;
        for (qsizetype i = 0; i < policy.pipeline.size(); ++i) {
            if (policy.pipeline.at(i).kind == Kind::CircuitBreaker && breakerAt < 0)
                breakerAt = i;
            if (policy.pipeline.at(i).kind == Kind::Retry && retryAt < 0)
                retryAt = i;
        }
        if (breakerAt >= 0) {
            m_strategy = &policy.pipeline.at(breakerAt);
            m_breaker.emplace(m_strategy->breaker, placement.origin);
        }
        const bool perCall = breakerAt >= 0 && retryAt > breakerAt; // the breaker outside the retry
        const auto failed
            = [&](int request) { return m_strategy && strategyFailure(*m_strategy, policy, attempts.at(request)); };
        const auto end = [&](int request) {
            const AttemptRecord& a = attempts.at(request);
            return a.at.finished ? std::optional<Millis>(ms(a.at.finished)) : std::nullopt;
        };
        for (const PlacedCall& c : placement.calls) {
            if (c.requests.isEmpty())
                continue;
            m_firstArrival.insert(c.number, ms(attempts.at(c.requests.first()).at.started));
            if (perCall) {
                m_passes.append({ c.number, c.requests.first(), ms(attempts.at(c.requests.first()).at.started),
                    end(c.requests.last()), failed(c.requests.last()) });
                continue;
            }
            for (const int r : c.requests)
                m_passes.append({ c.number, r, ms(attempts.at(r).at.started), end(r), failed(r) });
        }
        for (const int r : placement.strays)
            m_passes.append({ 0, r, ms(attempts.at(r).at.started), end(r), failed(r) });
    }

    BreakerReplayResult run()
    {
        QList<Event> events;
        for (qsizetype i = 0; i < m_passes.size(); ++i) {
            events.append({ m_passes.at(i).start, false, int(i) });
            m_result.failures += m_passes.at(i).failure ? 1 : 0;
        }
        for (qsizetype i = 0; i < m_placement.calls.size(); ++i) {
            const PlacedCall& c = m_placement.calls.at(i);
            const bool onTime = !c.requests.isEmpty() && m_firstArrival.value(c.number) <= c.due + m_placement.slack;
            if (!onTime)
                events.append({ c.due, true, int(i) });
        }
        std::stable_sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.at != b.at ? a.at < b.at : !a.kept && b.kept; });
        for (const Event& e : std::as_const(events)) {
            hearUntil(e.at);
            judgeDeferred(e.at);
            if (e.kept) {
                kept(m_placement.calls.at(e.index));
                continue;
            }
            started(e.index);
            if (const std::optional<Millis> end = m_passes.at(e.index).end) {
                const auto at = std::upper_bound(m_answers.begin(), m_answers.end(), *end,
                    [](Millis t, const std::pair<Millis, int>& a) { return t < a.first; });
                m_answers.insert(at, { *end, e.index });
            }
        }
        hearUntil(std::nullopt);
        judgeDeferred(std::nullopt);
        m_result.hasBreaker = m_breaker.has_value();
        if (m_breaker)
            m_result.changes = m_breaker->changes();
        for (const Found& f : std::as_const(m_found))
            m_result.findings.append(finding(f));
        return m_result;
    }

private:
    // One finding in the making: every event of one kind in one state of the breaker.
    struct Found
    {
        FindingRule rule = FindingRule::BreakerOpenedEarly;
        qsizetype period = 0;
        bool visible = true; // requests that reached the lab (else calls kept)
        int request = -1;
        int firstCall = 0;
        int lastCall = 0;
        int count = 0;
        Millis firstAt { 0 };
        Millis lastAt { 0 };
        QString expected;
    };
    struct Deferred
    {
        int call = 0;
        Millis at { 0 };
        qsizetype period = 0;
        QString expected;
    };

    QString at(Millis t) const
    {
        return u"+%1 s"_s.arg(QString::number(double((t - m_placement.origin).count()) / 1000.0, 'f', 3));
    }
    qsizetype period() const { return m_breaker ? m_breaker->changes().size() : 0; }
    const CircuitBreaker::Change* lastChange() const
    {
        return m_breaker && !m_breaker->changes().isEmpty() ? &m_breaker->changes().last() : nullptr;
    }

    void add(
        FindingRule rule, qsizetype inPeriod, bool visible, int call, int request, Millis t, const QString& expected)
    {
        for (Found& f : m_found) {
            if (f.rule == rule && f.period == inPeriod) {
                f.lastCall = std::max(f.lastCall, call);
                f.firstCall = std::min(f.firstCall, call);
                f.lastAt = std::max(f.lastAt, t);
                ++f.count;
                return;
            }
        }
        m_found.append({ rule, inPeriod, visible, request, call, call, 1, t, t, expected });
    }

    // The policy's admission of a request that reached the lab.
    void started(int index)
    {
        const Pass& p = m_passes.at(index);
        if (!m_breaker) {
            m_admitted.insert(index, { CircuitBreaker::Ticket {}, p.start });
            return;
        }
        CircuitBreaker trial = *m_breaker;
        const CircuitBreaker::Ticket ticket = trial.admit(p.start);
        if (ticket.sent()) {
            *m_breaker = trial;
            m_admitted.insert(index, { ticket, p.start });
            return;
        }
        const CircuitBreaker::Change* change = lastChange();
        if (ticket.state == State::Open && change) {
            if (p.start - change->at <= m_placement.slack) {
                // Sent before the client could have heard the answer that opened the breaker: its result comes
                // while open, counted but moving nothing.
                m_admitted.insert(
                    index, { CircuitBreaker::Ticket { CircuitBreaker::Admission::Allowed, State::Open, {} }, p.start });
                return;
            }
            const Millis until = m_breaker->openUntil();
            if (until - p.start <= m_tolerance.earlySlack(change->breakFor)) {
                const CircuitBreaker::Ticket probe = m_breaker->admit(until); // the probe, a little early
                if (probe.sent()) {
                    m_admitted.insert(index, { probe, until });
                    return;
                }
            }
            const bool clientOpen = m_lastKept && *m_lastKept > change->at;
            const FindingRule rule = clientOpen ? FindingRule::BreakerSentWhileOpen : FindingRule::BreakerOpenedLate;
            *m_breaker = trial; // the policy refuses it (and counts it where refused calls count)
            add(rule, period(), true, p.call, p.request, p.start, openExpectation(*change, rule));
            return;
        }
        *m_breaker = trial;
        add(FindingRule::BreakerTooManyProbes, period(), true, p.call, p.request, p.start, halfOpenExpectation());
    }

    // The answers that ended by NOW (all, when nullopt), in the order they ended.
    void hearUntil(std::optional<Millis> now)
    {
        while (!m_answers.isEmpty() && (!now || m_answers.first().first <= *now)) {
            const std::pair<Millis, int> answer = m_answers.takeFirst();
            judgeDeferred(answer.first);
            ended(answer.second);
        }
    }

    void ended(int index)
    {
        const auto it = m_admitted.constFind(index);
        if (it == m_admitted.cend() || !m_breaker)
            return;
        const Pass& p = m_passes.at(index);
        m_breaker->record(it->ticket, p.failure, std::max(*p.end, it->at));
    }

    // A call that reached the lab at no request by its time: the client refused it, or held it. One whose
    // request came later is judged only where the policy would not have sent it then either: a timer that
    // fired late is not a breaker that refused.
    void kept(const PlacedCall& c)
    {
        const bool cameLater = !c.requests.isEmpty();
        ++(cameLater ? m_result.late : m_result.kept);
        if (!cameLater)
            m_lastKept = c.due;
        if (!m_breaker) {
            if (cameLater)
                return;
            add(FindingRule::BreakerOpenedEarly, 0, false, c.number, -1, c.due,
                tr("%1 has no circuit breaker: it sends every call").arg(m_who));
            return;
        }
        CircuitBreaker trial = *m_breaker;
        const CircuitBreaker::Change* change = lastChange();
        const Millis breakEnd = m_breaker->openUntil();
        const CircuitBreaker::Ticket ticket = trial.admit(c.due);
        if (!ticket.sent()) {
            *m_breaker = trial; // refused or held, as by the client
            return;
        }
        if (cameLater)
            return;
        if (ticket.admission == CircuitBreaker::Admission::Probe) {
            const Millis breakFor = change ? change->breakFor : Millis { 0 };
            if (c.due - breakEnd <= m_tolerance.lateSlack(breakFor) + m_placement.slack)
                return; // the client's break ends on its own clock, from when it heard the failure
            add(FindingRule::BreakerTooFewProbes, period(), false, c.number, -1, c.due,
                probeExpectation(breakEnd, breakFor));
            return;
        }
        if (change && change->to == State::Closed && c.due - change->at <= m_placement.slack)
            return; // it closed only just
        m_deferred.append({ c.number, c.due, period(),
            tr("%1's breaker was closed at %2 with %3: it %4")
                .arg(m_who, at(c.due), windowText(m_strategy->breaker, trial.window(c.due)),
                    openingRule(*m_strategy)) });
    }

    // Kept calls the policy would have sent are judged once the slack after them has passed: an opening that
    // came within it means the call's time was a little off, not that the client opened early.
    void judgeDeferred(std::optional<Millis> now)
    {
        while (!m_deferred.isEmpty() && (!now || m_deferred.first().at + m_placement.slack < *now)) {
            const Deferred d = m_deferred.takeFirst();
            bool opened = false;
            for (const CircuitBreaker::Change& c : m_breaker->changes())
                opened = opened || (c.to == State::Open && c.at >= d.at && c.at <= d.at + m_placement.slack);
            if (!opened)
                add(FindingRule::BreakerOpenedEarly, d.period, false, d.call, -1, d.at, d.expected);
        }
    }

    QString openExpectation(const CircuitBreaker::Change& opened, FindingRule rule) const
    {
        const QString how = opened.from == State::HalfOpen
            ? tr("%1's breaker reopened at %2 when its probe failed").arg(m_who, at(opened.at))
            : tr("%1's breaker opened at %2 with %3 (it %4)")
                  .arg(m_who, at(opened.at), windowText(m_strategy->breaker, opened.window), openingRule(*m_strategy));
        QString text = tr("%1 and refuses every call until %2").arg(how, at(opened.at + opened.breakFor));
        if (rule == FindingRule::BreakerSentWhileOpen)
            text += tr(" (a break of %1; a probe up to %2 early is the policy's)")
                        .arg(formatMillis(opened.breakFor), formatMillis(m_tolerance.earlySlack(opened.breakFor)));
        return text;
    }

    QString halfOpenExpectation() const
    {
        const CircuitBreakerOptions& o = m_strategy->breaker;
        const CircuitBreaker::Change* change = lastChange();
        const QString probes = o.halfOpenProbes == 1 ? tr("1 probe") : tr("%1 probes").arg(o.halfOpenProbes);
        return tr("%1's breaker is half-open from %2: it lets %3 through and %4 until the verdict")
            .arg(m_who, change ? at(change->at) : QString(), probes,
                o.halfOpenCallers == CircuitBreakerOptions::HalfOpenCallers::Wait ? tr("holds other callers")
                                                                                  : tr("refuses other callers"));
    }

    QString probeExpectation(Millis breakEnd, Millis breakFor) const
    {
        const CircuitBreakerOptions& o = m_strategy->breaker;
        const QString probes = o.halfOpenProbes == 1 ? tr("1 probe") : tr("%1 probes").arg(o.halfOpenProbes);
        return tr("%1's break of %2 ended at %3: it sends %4 then (a break up to %5 longer is the policy's)")
            .arg(m_who, formatMillis(breakFor), at(breakEnd), probes, formatMillis(m_tolerance.lateSlack(breakFor)));
    }

    ConformanceFinding finding(const Found& f) const
    {
        ConformanceFinding out;
        out.rule = f.rule;
        out.attempt = f.visible ? f.request + 1 : 0;
        out.firstCall = f.firstCall;
        out.lastCall = f.lastCall;
        out.callCount = f.count;
        const QString calls = f.firstCall == f.lastCall ? tr("call %1").arg(f.firstCall)
                                                        : tr("calls %1–%2").arg(f.firstCall).arg(f.lastCall);
        const QString when
            = f.count == 1 ? tr("at %1").arg(at(f.firstAt)) : tr("from %1 to %2").arg(at(f.firstAt), at(f.lastAt));
        if (f.visible) {
            const QString how = f.count == 1 ? tr("%1 reached the lab %2").arg(calls, when)
                                             : tr("%1 reached the lab %2 (%3 requests)").arg(calls, when).arg(f.count);
            out.observed = f.rule == FindingRule::BreakerSentWhileOpen
                ? tr("%1, after the client had kept calls to itself").arg(how)
                : how;
        } else {
            out.observed = f.count == 1
                ? tr("the client kept %1 to itself (no request by its time, %2)").arg(calls, at(f.firstAt))
                : tr("the client kept %1 to itself %2 (%3 calls with no request by their time)")
                      .arg(calls, when)
                      .arg(f.count);
        }
        out.expected = f.expected;
        return out;
    }

    struct Admitted
    {
        CircuitBreaker::Ticket ticket;
        Millis at { 0 }; // when it was admitted (a probe taken a little early: the break's end)
    };

    const CallPlacement& m_placement;
    WaitTolerance m_tolerance;
    QString m_who;
    const ResilienceStrategy* m_strategy = nullptr;
    std::optional<CircuitBreaker> m_breaker;
    QList<Pass> m_passes;
    QHash<int, Admitted> m_admitted; // passes the policy let through (or took as sent), by index
    QHash<int, Millis> m_firstArrival; // each call's first request
    QList<std::pair<Millis, int>> m_answers; // answers not yet heard: when each ended, and its pass
    std::optional<Millis> m_lastKept;
    QList<Deferred> m_deferred;
    QList<Found> m_found;
    BreakerReplayResult m_result;
};

} // namespace

bool strategyFailure(const ResilienceStrategy& strategy, const RetryPolicy& policy, const AttemptRecord& attempt)
{
    if (!attempt.at.finished)
        return false;
    RequestFacts facts;
    facts.method = attempt.method.toUpper();
    facts.hasIdempotencyKey = !idempotencyKeyOf(attempt, policy.idempotency.header).isEmpty();
    const AttemptOutcome outcome = outcomeOf(attempt);
    for (const RuleCondition& c : strategy.failures) {
        if (conditionMatches(c, facts, outcome))
            return true;
    }
    const std::optional<MonoTime> took = attempt.duration();
    return strategy.slowCall && took && *took > *strategy.slowCall;
}

BreakerReplayResult replayBreaker(const RetryPolicy& policy, const QList<AttemptRecord>& attempts,
    const CallPlacement& placement, const WaitTolerance& tolerance)
{
    return Replay(policy, attempts, placement, tolerance).run();
}
