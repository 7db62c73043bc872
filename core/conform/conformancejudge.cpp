// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conformancejudge.h"

#include "conform/attemptreading.h"
#include "conform/implieddecision.h"
#include "engine/answerreading.h"
#include "policy/answerfacts.h"

#include <QCoreApplication>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("conform", text); }

constexpr Millis kHttpDateSlack { 1000 }; // an HTTP-date has whole seconds

QString rangeText(Millis low, Millis high)
{
    return low == high ? formatMillis(low) : u"%1–%2"_s.arg(formatMillis(low), formatMillis(high));
}

Millis toMillis(MonoTime t) { return std::chrono::duration_cast<Millis>(t); }

ConformanceFinding makeFinding(FindingRule rule, int attempt, QString observed, QString expected)
{
    ConformanceFinding f;
    f.rule = rule;
    f.attempt = attempt;
    f.observed = std::move(observed);
    f.expected = std::move(expected);
    return f;
}

// Which of the policy's rules a further attempt broke, when the policy sends none.
FindingRule stopRule(const RetryDecision& d, const RetryPolicy& policy, const AnswerFacts& answer, int attempt)
{
    if (d.verdict == Verdict::Success)
        return FindingRule::RetriedAfterSuccess;
    switch (d.finalKind) {
    case FinalKind::Deadline:
        return FindingRule::Deadline;
    case FinalKind::RetryAfterTooLong:
        return FindingRule::RetryAfterCap;
    case FinalKind::BudgetExhausted:
        return FindingRule::Budget;
    default:
        break;
    }
    const RetryRule* rule = answer.rule(policy);
    if (rule && rule->action == RuleAction::Retry && attempt >= policy.limits.maxAttempts)
        return FindingRule::AttemptLimit;
    return FindingRule::RetriedNotRetryable;
}

} // namespace

ConformanceJudge::ConformanceJudge(RetryPolicy policy, JudgeOptions options)
    : m_policy(std::move(policy))
    , m_options(std::move(options))
{
    if (!m_options.wallOrigin.isValid())
        m_options.wallOrigin = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
}

RunJudgement ConformanceJudge::judge(const JudgedRun& observed)
{
    const RunRecord& run = observed.record;
    const QList<AttemptRecord>& attempts = run.attempts;
    const QString who = m_policy.name.isEmpty() ? tr("the policy") : m_policy.name;
    const QString keyField = m_policy.idempotency.header;
    RunJudgement result;
    result.runId = run.runId;
    result.policyName = m_policy.name;
    if (attempts.isEmpty()) {
        result.findings << makeFinding(FindingRule::NoRequest, 0, tr("the client sent no request"),
            tr("one logical request was expected"));
        return result;
    }

    // ---- the idempotency key: one for the whole request, and there when the policy adds one
    const QByteArray firstKey = idempotencyKeyOf(attempts.first(), keyField);
    const QString method = attempts.first().method.toUpper();
    if (m_policy.idempotency.autoAdd && firstKey.isEmpty()
        && m_policy.idempotency.methods.contains(method, Qt::CaseInsensitive)) {
        result.findings << makeFinding(FindingRule::KeyMissing, 1, tr("%1 was sent without %2").arg(method, keyField),
            tr("%1 adds one to every %2 request").arg(who, m_policy.idempotency.methods.join(u", "_s)));
    }
    for (qsizetype i = 1; i < attempts.size(); ++i) {
        const QByteArray key = idempotencyKeyOf(attempts.at(i), keyField);
        if (key == firstKey)
            continue;
        const QString now = key.isEmpty() ? tr("no %1").arg(keyField) : tr("%1 %2").arg(keyField, QString::fromLatin1(key));
        const QString then = firstKey.isEmpty() ? tr("none") : QString::fromLatin1(firstKey);
        result.findings << makeFinding(FindingRule::KeyChanged, int(i + 1),
            tr("attempt %1 carried %2, attempt 1 %3").arg(i + 1).arg(now, then),
            tr("every attempt of one request carries the same key, so the server can recognise a repeat"));
    }

    // ---- attempt by attempt
    const MonoTime origin = attempts.first().at.started.value_or(run.startedAt.value_or(MonoTime { 0 }));
    BackoffState backoff;
    bool answerLost = false;
    int quotaAcquired = 0;
    std::optional<RetryDecision> last;
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        const AttemptRecord& attempt = attempts.at(i);
        const AttemptRecord* next = i + 1 < attempts.size() ? &attempts.at(i + 1) : nullptr;
        const int index = int(i + 1);
        AttemptJudgement judged;
        judged.index = index;
        judged.answer = describeAnswer(attempt, m_policy);
        std::optional<MonoTime> ended = attempt.at.finished;
        if (!ended && next) // abandoned when the next one went out
            ended = next->at.started;
        if (!ended) {
            judged.open = true;
            result.attempts << judged;
            result.notes << makeFinding(FindingRule::Unfinished, index,
                tr("attempt %1 was still open when the observation ended").arg(index), {});
            last.reset();
            break;
        }
        const MonoTime end = *ended;
        const QDateTime wall = m_options.wallOrigin.addMSecs(toMillis(end).count());

        RequestFacts facts;
        facts.method = attempt.method.toUpper();
        facts.hasIdempotencyKey = !idempotencyKeyOf(attempt, keyField).isEmpty();
        facts.answerLostEarlier = answerLost;
        const AnswerFacts answer = readAnswer(m_policy, facts, outcomeOf(attempt), wall);
        const QString host = HostThrottleState::hostKey(attempt.url);
        if (m_policy.hostThrottle.enabled) { // as the engine does, before deciding
            AttemptRecord read = attempt;
            readAnswerHints(read, wall);
            if (const std::optional<HostReset> reset
                = HostThrottleState::reportedReset(read, attempt.at.headersReceived.value_or(end)))
                m_hostResets.note(host, *reset);
        }
        RetryBudget& budget = m_budgets.budgetFor(m_policy, attempt.url);
        DecisionContext context;
        context.attempt = index;
        context.elapsed = std::max(Millis(0), toMillis(end - origin));
        context.now = wall;
        context.budget = budget.view();
        if (m_policy.hostThrottle.enabled) {
            if (const std::optional<MonoTime> in = m_hostResets.resetIn(host, end))
                context.budget.hostResetIn = std::chrono::ceil<Millis>(*in);
        }
        std::optional<Millis> wait;
        if (next && next->at.started)
            wait = std::max(Millis(0), toMillis(*next->at.started - end));
        const RetryDecision d = decideAsObserved(m_policy, answer, context, backoff, wait);
        judged.expected = d;
        judged.waitAfter = wait;

        if (d.verdict == Verdict::Retry) {
            const Millis dateSlack = waitSetByHttpDate(attempt, m_policy, wall) ? kHttpDateSlack : Millis(0);
            const Millis low = std::max(Millis(0), d.delayLow - dateSlack);
            const Millis high = d.delayHigh + dateSlack;
            const Millis earliest = std::max(Millis(0), low - m_options.tolerance.earlySlack(low));
            const Millis latest = high + m_options.tolerance.lateSlack(high);
            QString expectation = tr("%1 waits %2: %3").arg(who, rangeText(d.delayLow, d.delayHigh), d.reason);
            if (dateSlack.count() > 0)
                expectation += tr(" (an HTTP-date counts whole seconds: ±1 s)");
            expectation += tr("; tolerance %1").arg(m_options.tolerance.describe());
            if (next && wait && (*wait < earliest || *wait > latest)) {
                ConformanceFinding f = makeFinding(FindingRule::Wait, index + 1,
                    tr("attempt %1 came %2 after %3").arg(index + 1).arg(formatMillis(*wait), judged.answer), expectation);
                f.observedWait = *wait;
                f.expectedLow = d.delayLow;
                f.expectedHigh = d.delayHigh;
                f.toleranceEarly = d.delayLow - earliest;
                f.toleranceLate = latest - d.delayHigh;
                result.findings << f;
            } else if (!next) {
                const MonoTime until = std::max(end, observed.observedUntil.value_or(end));
                const Millis quiet = toMillis(until - end);
                const QString retries = tr("%1 sends attempt %2 after %3: %4")
                                            .arg(who)
                                            .arg(index + 1)
                                            .arg(rangeText(d.delayLow, d.delayHigh), d.reason);
                if (observed.exitCode) {
                    result.findings << makeFinding(FindingRule::NotRetried, index,
                        tr("the client exited %1 after %2 at attempt %3").arg(formatMillis(quiet), judged.answer).arg(index),
                        retries);
                } else if (quiet > latest) {
                    result.findings << makeFinding(FindingRule::NotRetried, index,
                        tr("nothing followed %1 at attempt %2 for %3").arg(judged.answer).arg(index).arg(formatMillis(quiet)),
                        retries);
                } else {
                    result.notes << makeFinding(FindingRule::NotObserved, index,
                        tr("the observation ended %1 after %2 at attempt %3").arg(formatMillis(quiet), judged.answer).arg(index),
                        retries);
                }
            }
        } else if (next) {
            const QString sent = wait ? tr("attempt %1 was sent %2 after %3").arg(index + 1).arg(formatMillis(*wait), judged.answer)
                                      : tr("attempt %1 was sent after %2").arg(index + 1).arg(judged.answer);
            const QString verdict = d.verdict == Verdict::Success ? tr("%1 is done: %2").arg(who, d.reason)
                                                                  : tr("%1 stops: %2").arg(who, d.reason);
            result.findings << makeFinding(stopRule(d, m_policy, answer, index), index + 1, sent, verdict);
        }

        // The budgets move as the client's history says: a retry it made takes its cost, one it did not, none.
        RetryDecision::Effects effects = d.effects;
        if (next && d.verdict != Verdict::Retry) {
            effects.quotaTaken = retryQuotaCost(m_policy, answer.outcome, d.throttling);
            effects.success = false;
        } else if (!next) {
            effects.quotaTaken = 0;
        }
        budget.apply(effects, i > 0, quotaAcquired);
        quotaAcquired += effects.quotaTaken;
        if (attempt.error && errorClassServerCouldHaveActed(*attempt.error))
            answerLost = true;
        result.attempts << judged;
        last = d;
    }

    // ---- the final error, where the exit status shows it
    if (m_options.checkExitStatus && observed.exitCode && last) {
        const AttemptJudgement& end = result.attempts.last();
        const int code = *observed.exitCode;
        if (last->verdict == Verdict::Success && code != 0) {
            result.findings << makeFinding(FindingRule::FinalError, end.index,
                tr("the request ended with %1 and the command exited %2").arg(end.answer).arg(code),
                tr("%1 counts it a success (%2): exit status 0").arg(who, last->reason));
        } else if (last->verdict != Verdict::Success && code == 0) {
            result.findings << makeFinding(FindingRule::FinalError, end.index,
                tr("the request ended with %1 and the command exited 0").arg(end.answer),
                tr("%1 ends it as a failure (%2): the error must surface, as a non-zero exit status")
                    .arg(who, last->verdict == Verdict::Retry ? tr("the client gave up before the policy") : last->reason));
        }
    }
    std::stable_sort(result.findings.begin(), result.findings.end(),
        [](const ConformanceFinding& a, const ConformanceFinding& b) { return a.attempt < b.attempt; });
    return result;
}
