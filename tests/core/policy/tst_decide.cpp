// SPDX-License-Identifier: GPL-3.0-or-later
// decide(): the guard clauses in order, the delay sources, and the reasons. Presets are tested row by row
// against their sources in tst_seedrules; this test pins the mechanism on small hand-made policies.
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/randomsource.h"
#include "policy/retrybudget.h"

#include <QtTest>

using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(AttemptOutcome)

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 11, 30), QTime(12, 0, 0), Qt::UTC);

RetryRule rule(const QString& name, RuleCondition when, RuleAction action = RuleAction::Retry)
{
    RetryRule r;
    r.name = name;
    r.when = std::move(when);
    r.action = action;
    return r;
}

RuleCondition statuses(QList<StatusRange> ranges)
{
    RuleCondition c;
    c.outcome = OutcomeKind::Status;
    c.statuses = std::move(ranges);
    return c;
}

// 3 attempts, 200 ms doubling to 5 s, full jitter; retries 429 and 5xx; Retry-After honoured up to 30 s.
RetryPolicy basePolicy()
{
    RetryPolicy p;
    p.name = u"test"_s;
    p.limits.maxAttempts = 3;
    p.backoff = Backoff { BackoffKind::Exponential, Millis(200), 2.0, Millis(0), Millis(5000), ExponentOrigin::FirstRetryIsBase, 0, std::nullopt };
    p.jitter.kind = JitterKind::Full;
    DelayHint retryAfter;
    retryAfter.header = u"Retry-After"_s;
    retryAfter.max = Millis(30000);
    retryAfter.overMax = HintOverMax::GiveUp;
    retryAfter.alsoRetryAfterMs = true;
    p.hints << retryAfter;
    p.rules << rule(u"throttled"_s, statuses({ { 429, 429 } }));
    p.rules << rule(u"transient-5xx"_s, statuses({ { 500, 599 } }));
    RuleCondition network;
    network.outcome = OutcomeKind::Error;
    p.rules << rule(u"network"_s, network);
    return p;
}

struct Ask
{
    Ask(AttemptOutcome o, int a = 1, QString m = QStringLiteral("GET"))
        : outcome(std::move(o))
        , attempt(a)
        , method(std::move(m))
    {
    }
    AttemptOutcome outcome;
    int attempt = 1;
    QString method = u"GET"_s;
    Millis elapsed { 0 };
    BudgetView budget;
    bool rewindable = true;
};

RetryDecision ask(const RetryPolicy& policy, const Ask& a, double draw = 1.0)
{
    RequestFacts request;
    request.method = a.method;
    request.bodyRewindable = a.rewindable;
    DecisionContext context { a.attempt, a.elapsed, kNow, a.budget };
    BackoffState state;
    state.retriesSinceReset = a.attempt - 1;
    FixedRandomSource random({ draw });
    return decide(policy, request, a.outcome, context, state, random);
}

AttemptOutcome withHeader(int status, const char* name, const char* value)
{
    return AttemptOutcome::answered(status, { { QByteArray(name), QByteArray(value) } });
}

} // namespace

class TestDecide : public QObject
{
    Q_OBJECT
private slots:
    void verdicts_data()
    {
        QTest::addColumn<AttemptOutcome>("outcome");
        QTest::addColumn<int>("attempt");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("finalKind");
        QTest::addColumn<QString>("source");
        QTest::addColumn<qint64>("delayMs");

        QTest::addRow("200 is a success") << AttemptOutcome::answered(200) << 1 << u"success"_s << u"success"_s << u"none"_s << qint64(0);
        QTest::addRow("404 matches no rule: stop") << AttemptOutcome::answered(404) << 1 << u"stop"_s << u"client-error"_s << u"none"_s << qint64(0);
        QTest::addRow("503 first attempt: full-jitter ceiling 200 ms") << AttemptOutcome::answered(503) << 1 << u"retry"_s << QString() << u"backoff"_s << qint64(200);
        QTest::addRow("503 second attempt: ceiling 400 ms") << AttemptOutcome::answered(503) << 2 << u"retry"_s << QString() << u"backoff"_s << qint64(400);
        QTest::addRow("503 third of three: attempts used") << AttemptOutcome::answered(503) << 3 << u"stop"_s << u"server-error"_s << u"none"_s << qint64(0);
        QTest::addRow("429 with Retry-After 2") << withHeader(429, "Retry-After", "2") << 1 << u"retry"_s << QString() << u"retry-after"_s << qint64(2000);
        QTest::addRow("429 with retry-after-ms only") << withHeader(429, "retry-after-ms", "750") << 1 << u"retry"_s << QString() << u"retry-after-ms"_s << qint64(750);
        QTest::addRow("429 with an HTTP-date 90 s ahead: give up") << withHeader(429, "Retry-After", "Sun, 30 Nov 2026 12:01:30 GMT") << 1 << u"stop"_s << u"retry-after-too-long"_s << u"none"_s << qint64(0);
        QTest::addRow("429 final: rate-limited") << withHeader(429, "Retry-After", "2") << 3 << u"stop"_s << u"rate-limited"_s << u"none"_s << qint64(0);
        QTest::addRow("garbage Retry-After falls back to backoff") << withHeader(503, "Retry-After", "soon") << 1 << u"retry"_s << QString() << u"backoff"_s << qint64(200);
        QTest::addRow("connection-lost retried") << AttemptOutcome::failed(ErrorClass::ConnectionLost) << 1 << u"retry"_s << QString() << u"backoff"_s << qint64(200);
        QTest::addRow("dns final: network") << AttemptOutcome::failed(ErrorClass::Dns) << 3 << u"stop"_s << u"network"_s << u"none"_s << qint64(0);
    }

    void verdicts()
    {
        QFETCH(AttemptOutcome, outcome);
        QFETCH(int, attempt);
        const RetryDecision d = ask(basePolicy(), Ask { outcome, attempt });
        QTEST(verdictName(d.verdict), "verdict");
        QTEST(finalKindName(d.finalKind), "finalKind");
        QTEST(delaySourceName(d.source), "source");
        QTEST(qint64(d.delay.count()), "delayMs");
        QVERIFY2(!d.reason.isEmpty(), "every decision says why");
    }

    void reasonNamesRuleAndHint()
    {
        const RetryDecision d = ask(basePolicy(), Ask { withHeader(503, "Retry-After", "2") });
        QCOMPARE(d.reason, u"503 on GET is retried (rule transient-5xx); Retry-After 2 s honoured (≤ 30 s cap)"_s);
        QCOMPARE(d.ruleName, u"transient-5xx"_s);
        QCOMPARE(d.serverAskedFor, Millis(2000));
    }

    void giveUpReportsWhatTheServerAsked()
    {
        const RetryDecision d = ask(basePolicy(), Ask { withHeader(429, "Retry-After", "45") });
        QCOMPARE(d.verdict, Verdict::Stop);
        QCOMPARE(d.finalKind, FinalKind::RetryAfterTooLong);
        QCOMPARE(d.serverAskedFor, Millis(45000));
        QVERIFY2(d.reason.contains(u"45 s"_s), qPrintable(d.reason));
    }

    void hintOverMaxVariants_data()
    {
        QTest::addColumn<int>("overMax");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<qint64>("delayMs");
        QTest::addRow("give up (Slen, seed 002)") << int(HintOverMax::GiveUp) << u"stop"_s << qint64(0);
        QTest::addRow("clamp (urllib3 6 h)") << int(HintOverMax::Clamp) << u"retry"_s << qint64(30000);
        QTest::addRow("ignore, use backoff (Envoy)") << int(HintOverMax::Ignore) << u"retry"_s << qint64(200);
    }

    void hintOverMaxVariants()
    {
        QFETCH(int, overMax);
        RetryPolicy p = basePolicy();
        p.hints[0].overMax = HintOverMax(overMax);
        const RetryDecision d = ask(p, Ask { withHeader(429, "Retry-After", "120") });
        QTEST(verdictName(d.verdict), "verdict");
        QTEST(qint64(d.delay.count()), "delayMs");
        QCOMPARE(d.serverAskedFor, Millis(120000));
    }

    void hintKnobs()
    {
        RetryPolicy p = basePolicy();
        // retry-after-ms is read only when the policy says so (seed 002 does; PayMongo does not).
        p.hints[0].alsoRetryAfterMs = false;
        QCOMPARE(ask(p, Ask { withHeader(429, "retry-after-ms", "750") }).source, DelaySource::Backoff);
        // An invalid value is ignored, or ends the request (gRPC pushback, urllib3 InvalidHeader).
        QCOMPARE(ask(p, Ask { withHeader(429, "Retry-After", "soon") }).verdict, Verdict::Retry);
        p.hints[0].invalidMeansStop = true;
        QCOMPARE(ask(p, Ask { withHeader(429, "Retry-After", "soon") }).verdict, Verdict::Stop);
        // Jittered: the policy's full jitter scales the asked 2 s (draw pinned at 0.5 → 1 s).
        p = basePolicy();
        p.hints[0].jittered = true;
        const RetryDecision jittered = ask(p, Ask { withHeader(429, "Retry-After", "2") }, 0.5);
        QCOMPARE(jittered.delay, Millis(1000));
        QCOMPARE(jittered.delayLow, Millis(0));
        QCOMPARE(jittered.delayHigh, Millis(2000));
        // advancesBackoff false: the backoff state is left where it was (curl).
        p = basePolicy();
        p.hints[0].advancesBackoff = false;
        RequestFacts request;
        DecisionContext context { 1, Millis(0), kNow, {} };
        BackoffState state;
        FixedRandomSource random({ 1.0 });
        decide(p, request, withHeader(503, "Retry-After", "3"), context, state, random);
        QCOMPARE(state.retriesSinceReset, 0);
        p.hints[0].advancesBackoff = true;
        decide(p, request, withHeader(503, "Retry-After", "3"), context, state, random);
        QCOMPARE(state.retriesSinceReset, 1);
    }

    void zeroRetryAfterFallsBackWhenTheSdkSaysSo()
    {
        RetryPolicy p = basePolicy();
        QCOMPARE(ask(p, Ask { withHeader(503, "Retry-After", "0") }).delay, Millis(0));
        p.hints[0].zeroFallsBackToBackoff = true; // urllib3, curl
        const RetryDecision d = ask(p, Ask { withHeader(503, "Retry-After", "0") });
        QCOMPARE(d.source, DelaySource::Backoff);
        QCOMPARE(d.delay, Millis(200));
    }

    void hintCombinations_data()
    {
        QTest::addColumn<int>("combine");
        QTest::addColumn<qint64>("hintMs");
        QTest::addColumn<qint64>("delayMs");
        // Backoff with the draw pinned at 1.0 is 200 ms on the first retry.
        QTest::addRow("replace") << int(HintCombine::Replace) << qint64(50) << qint64(50);
        QTest::addRow("at least backoff, hint smaller") << int(HintCombine::AtLeastBackoff) << qint64(50) << qint64(200);
        QTest::addRow("at least backoff, hint larger") << int(HintCombine::AtLeastBackoff) << qint64(900) << qint64(900);
        QTest::addRow("AWS 2026 clamp: max(t, min(h, t + 5 s)), h small") << int(HintCombine::ClampAroundBackoff) << qint64(100) << qint64(200);
        QTest::addRow("AWS 2026 clamp, h within window") << int(HintCombine::ClampAroundBackoff) << qint64(3000) << qint64(3000);
        QTest::addRow("AWS 2026 clamp, h beyond window") << int(HintCombine::ClampAroundBackoff) << qint64(60000) << qint64(5200);
    }

    void hintCombinations()
    {
        QFETCH(int, combine);
        QFETCH(qint64, hintMs);
        RetryPolicy p = basePolicy();
        DelayHint amz;
        amz.header = u"x-amz-retry-after"_s;
        amz.format = HintFormat::Milliseconds;
        amz.combine = HintCombine(combine);
        p.hints = { amz };
        const QByteArray value = QByteArray::number(hintMs);
        const RetryDecision d = ask(p, Ask { withHeader(503, "x-amz-retry-after", value.constData()) });
        QCOMPARE(d.verdict, Verdict::Retry);
        QTEST(qint64(d.delay.count()), "delayMs");
    }

    void grpcPushbackNegativeStopsAndPositiveResetsExponent()
    {
        RetryPolicy p = basePolicy();
        DelayHint pushback;
        pushback.header = u"grpc-retry-pushback-ms"_s;
        pushback.format = HintFormat::Milliseconds;
        pushback.negativeMeansStop = true;
        pushback.resetsExponent = true;
        p.hints = { pushback };
        QCOMPARE(ask(p, Ask { withHeader(503, "grpc-retry-pushback-ms", "-1") }).verdict, Verdict::Stop);

        RequestFacts request;
        DecisionContext context { 2, Millis(0), kNow, {} };
        BackoffState state;
        state.retriesSinceReset = 1;
        FixedRandomSource random({ 1.0 });
        const RetryDecision d = decide(p, request, withHeader(503, "grpc-retry-pushback-ms", "300"), context, state, random);
        QCOMPARE(d.delay, Millis(300));
        QCOMPARE(d.source, DelaySource::ServerHint);
        QCOMPARE(d.hintHeader, u"grpc-retry-pushback-ms"_s);
        QCOMPARE(state.retriesSinceReset, 0); // the next backoff starts from the base again
    }

    void ruleActions()
    {
        RetryPolicy p = basePolicy();
        RuleCondition lostDelete = statuses({ { 404, 404 } });
        lostDelete.methods = { u"DELETE"_s };
        lostDelete.afterLostAnswer = true;
        p.rules.prepend(rule(u"deleted-after-lost-answer"_s, lostDelete, RuleAction::Success));
        RuleCondition post = statuses({ { 500, 599 } });
        post.methods = { u"POST"_s };
        post.idempotencyKey = false;
        p.rules.prepend(rule(u"post-without-key"_s, post, RuleAction::Stop));

        RequestFacts del { u"DELETE"_s, false, true, true };
        DecisionContext context { 2, Millis(0), kNow, {} };
        BackoffState state;
        FixedRandomSource random({ 0.5 });
        QCOMPARE(decide(p, del, AttemptOutcome::answered(404), context, state, random).verdict, Verdict::Success);
        del.answerLostEarlier = false;
        QCOMPARE(decide(p, del, AttemptOutcome::answered(404), context, state, random).verdict, Verdict::Stop);

        QCOMPARE(ask(p, Ask { AttemptOutcome::answered(502), 1, u"POST"_s }).verdict, Verdict::Stop);
        RequestFacts keyed { u"POST"_s, true, true, false };
        QCOMPARE(decide(p, keyed, AttemptOutcome::answered(502), context, state, random).verdict, Verdict::Retry);
    }

    void bodyNotRewindableIsNeverSentTwice()
    {
        Ask a { AttemptOutcome::answered(503) };
        a.rewindable = false;
        const RetryDecision d = ask(basePolicy(), a);
        QCOMPARE(d.verdict, Verdict::Stop);
        QCOMPARE(d.finalKind, FinalKind::BodyNotRewindable);
    }

    void deadline_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<qint64>("elapsedMs");
        QTest::addColumn<QString>("verdict");
        // Deadline 1 s; the wait (draw 1.0) is 200 ms.
        QTest::addRow("stop-before-wait: wait fits") << int(DeadlineMode::StopBeforeWait) << qint64(700) << u"retry"_s;
        QTest::addRow("stop-before-wait: wait would cross") << int(DeadlineMode::StopBeforeWait) << qint64(900) << u"stop"_s;
        QTest::addRow("stop-after-wait: overshoot allowed") << int(DeadlineMode::StopAfterWait) << qint64(900) << u"retry"_s;
        QTest::addRow("stop-after-wait: already past") << int(DeadlineMode::StopAfterWait) << qint64(1000) << u"stop"_s;
    }

    void deadline()
    {
        QFETCH(int, mode);
        QFETCH(qint64, elapsedMs);
        RetryPolicy p = basePolicy();
        p.limits.deadline = Millis(1000);
        p.limits.deadlineMode = DeadlineMode(mode);
        Ask a { AttemptOutcome::answered(503) };
        a.elapsed = Millis(elapsedMs);
        const RetryDecision d = ask(p, a);
        QTEST(verdictName(d.verdict), "verdict");
        if (d.verdict == Verdict::Stop)
            QCOMPARE(d.finalKind, FinalKind::Deadline);
    }

    void budgets()
    {
        RetryPolicy p = basePolicy();
        p.quota.enabled = true;
        RetryBudget budget(p.quota, p.throttling);
        Ask a { AttemptOutcome::answered(503) };
        a.budget = budget.view();
        RetryDecision d = ask(p, a);
        QCOMPARE(d.verdict, Verdict::Retry);
        QCOMPARE(d.quotaCost, 5);
        a.outcome = AttemptOutcome::failed(ErrorClass::ResponseTimeout);
        QCOMPARE(ask(p, a).quotaCost, 10); // AWS standard: a timeout retry costs 10
        a.budget.quotaTokens = 4;
        a.outcome = AttemptOutcome::answered(503);
        d = ask(p, a);
        QCOMPARE(d.verdict, Verdict::Stop);
        QCOMPARE(d.finalKind, FinalKind::BudgetExhausted);

        RetryPolicy g = basePolicy();
        g.throttling.enabled = true; // gRPC: retries only while tokens > maxTokens / 2
        Ask b { AttemptOutcome::answered(503) };
        // The view is the budget before this outcome: the retryable 503 takes its token first (gRFC A6).
        b.budget.throttlingTokens = 6.0;
        QCOMPARE(ask(g, b).finalKind, FinalKind::BudgetExhausted);
        b.budget.throttlingTokens = 6.1;
        QCOMPARE(ask(g, b).verdict, Verdict::Retry);
    }

    void hostThrottle()
    {
        RetryPolicy p = basePolicy();
        p.hostThrottle.enabled = true;
        p.hostThrottle.maxWait = Millis(10000);
        Ask a { AttemptOutcome::answered(503) };
        a.budget.hostResetIn = Millis(4000);
        RetryDecision d = ask(p, a);
        QCOMPARE(d.source, DelaySource::Throttle);
        QCOMPARE(d.delay, Millis(4000));
        a.budget.hostResetIn = Millis(20000);
        d = ask(p, a);
        QCOMPARE(d.verdict, Verdict::Stop);
        QCOMPARE(d.finalKind, FinalKind::RateLimited);
    }

    // Issue 11 §1: the verdicts the engine used to take itself after decide() — the deadline that ended the
    // attempt, redirects, the retry quota and throttling — are decide()'s, with their effects.
    void engineVerdicts_data()
    {
        QTest::addColumn<AttemptOutcome>("outcome");
        QTest::addColumn<int>("attempt");
        QTest::addColumn<bool>("follow");
        QTest::addColumn<int>("redirects");
        QTest::addColumn<int>("quotaTokens"); // -1: no quota
        QTest::addColumn<double>("throttlingTokens"); // -1: no throttling
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("finalKind");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("quotaTaken");
        QTest::addColumn<bool>("throttlingFailure");
        QTest::addColumn<QString>("redirectTo");

        AttemptOutcome deadline = AttemptOutcome::failed(ErrorClass::ResponseTimeout);
        deadline.deadlinePassed = true;
        QTest::addRow("the deadline ended the attempt: stop, whatever the rule says")
            << deadline << 2 << false << 0 << -1 << -1.0 << u"stop"_s << u"deadline"_s
            << u"the 1000 ms deadline passed during attempt 2"_s << 0 << false << QString();
        QTest::addRow("the deadline ended the attempt: its throttling token is still taken")
            << deadline << 1 << false << 0 << -1 << 10.0 << u"stop"_s << u"deadline"_s
            << u"the 1000 ms deadline passed during attempt 1"_s << 0 << true << QString();

        AttemptOutcome found = AttemptOutcome::answered(302, { { "Location", "/b" } });
        found.redirectTarget = QUrl(u"http://h/b"_s);
        QTest::addRow("a 302 followed: retry at once, no quota")
            << found << 1 << true << 0 << 500 << -1.0 << u"retry"_s << QString() << u"302 redirect followed to http://h/b"_s
            << 0 << false << u"http://h/b"_s;
        QTest::addRow("a 302 when redirects are not followed: the answer stands")
            << found << 1 << false << 0 << -1 << -1.0 << u"success"_s << u"success"_s << u"302 on GET is a success"_s << 0
            << false << QString();
        QTest::addRow("the 11th redirect is not followed")
            << found << 1 << true << 10 << -1 << -1.0 << u"success"_s << u"success"_s << u"302 on GET is a success"_s << 0
            << false << QString();
        QTest::addRow("a 3xx without Location is not followed")
            << AttemptOutcome::answered(302) << 1 << true << 0 << -1 << -1.0 << u"success"_s << u"success"_s
            << u"302 on GET is a success"_s << 0 << false << QString();

        QTest::addRow("AWS quota: a 503 retry takes its 5 tokens")
            << AttemptOutcome::answered(503) << 1 << false << 0 << 500 << -1.0 << u"retry"_s << QString()
            << u"503 on GET is retried (rule transient-5xx); waiting 200 ms (backoff ceiling 200 ms, full jitter)"_s << 5
            << false << QString();
        QTest::addRow("AWS quota: a timeout retry takes 10")
            << AttemptOutcome::failed(ErrorClass::ResponseTimeout) << 1 << false << 0 << 500 << -1.0 << u"retry"_s
            << QString() << u"response-timeout on GET is retried (rule network); waiting 200 ms (backoff ceiling 200 ms, full jitter)"_s
            << 10 << false << QString();
        QTest::addRow("AWS quota: 4 tokens left, a retry costs 5: stop")
            << AttemptOutcome::answered(503) << 1 << false << 0 << 4 << -1.0 << u"stop"_s << u"budget-exhausted"_s
            << u"503 on GET would be retried, but the retry quota has 4 tokens and a retry costs 5"_s << 0 << false << QString();
        QTest::addRow("AWS quota: a success takes nothing")
            << AttemptOutcome::answered(200) << 2 << false << 0 << 500 << -1.0 << u"success"_s << u"success"_s
            << u"200 on GET is a success"_s << 0 << false << QString();

        QTest::addRow("gRFC A6: a retryable 503 takes a token and is judged without it")
            << AttemptOutcome::answered(503) << 1 << false << 0 << -1 << 6.0 << u"stop"_s << u"budget-exhausted"_s
            << u"503 on GET would be retried, but retry throttling has 5 tokens left and retries need more than 5"_s << 0
            << true << QString();
        QTest::addRow("gRFC A6: 6.1 tokens, 5.1 after this failure: retried")
            << AttemptOutcome::answered(503) << 1 << false << 0 << -1 << 6.1 << u"retry"_s << QString()
            << u"503 on GET is retried (rule transient-5xx); waiting 200 ms (backoff ceiling 200 ms, full jitter)"_s << 0
            << true << QString();
        QTest::addRow("gRFC A6: a 404 no rule retries takes no token")
            << AttemptOutcome::answered(404) << 1 << false << 0 << -1 << 6.0 << u"stop"_s << u"client-error"_s
            << u"404 on GET is not retried: no rule of test retries it"_s << 0 << false << QString();
    }

    void engineVerdicts()
    {
        QFETCH(AttemptOutcome, outcome);
        QFETCH(int, attempt);
        QFETCH(bool, follow);
        QFETCH(int, redirects);
        QFETCH(int, quotaTokens);
        QFETCH(double, throttlingTokens);
        RetryPolicy p = basePolicy();
        p.limits.deadline = Millis(1000);
        p.quota.enabled = quotaTokens >= 0;
        p.throttling.enabled = throttlingTokens >= 0;
        RequestFacts request;
        DecisionContext context { attempt, Millis(0), kNow, {} };
        if (quotaTokens >= 0)
            context.budget.quotaTokens = quotaTokens;
        if (throttlingTokens >= 0)
            context.budget.throttlingTokens = throttlingTokens;
        context.followRedirects = follow;
        context.redirectsFollowed = redirects;
        BackoffState state;
        state.retriesSinceReset = attempt - 1;
        FixedRandomSource random({ 1.0 });
        const RetryDecision d = decide(p, request, outcome, context, state, random);
        QTEST(verdictName(d.verdict), "verdict");
        QTEST(d.verdict == Verdict::Retry ? QString() : finalKindName(d.finalKind), "finalKind");
        QTEST(d.reason, "reason");
        QTEST(d.effects.quotaTaken, "quotaTaken");
        QTEST(d.effects.throttlingFailure, "throttlingFailure");
        QTEST(d.redirectTo ? d.redirectTo->toString() : QString(), "redirectTo");
        QCOMPARE(d.effects.success, d.verdict == Verdict::Success);
    }

    void overflowSafeAtAttemptTenThousand()
    {
        RetryPolicy p = basePolicy();
        p.limits.maxAttempts = 1'000'000;
        p.backoff.cap.reset();
        for (int attempt : { 64, 1024, 10'000, 999'999 }) {
            const RetryDecision d = ask(p, Ask { AttemptOutcome::answered(503), attempt });
            QCOMPARE(d.verdict, Verdict::Retry);
            QVERIFY(d.delay.count() >= 0);
            QVERIFY(d.delay <= kMaxBackoffDelay);
        }
    }

    void sameRandomSameDecision()
    {
        const RetryPolicy p = basePolicy();
        for (int attempt = 1; attempt <= 2; ++attempt) {
            SeededRandomSource a(42);
            SeededRandomSource b(42);
            BackoffState sa;
            BackoffState sb;
            const DecisionContext context { attempt, Millis(0), kNow, {} };
            const RequestFacts request;
            const RetryDecision da = decide(p, request, AttemptOutcome::answered(503), context, sa, a);
            const RetryDecision db = decide(p, request, AttemptOutcome::answered(503), context, sb, b);
            QCOMPARE(da.delay, db.delay);
            QCOMPARE(da.reason, db.reason);
        }
    }
};

QTEST_GUILESS_MAIN(TestDecide)
#include "tst_decide.moc"
