// SPDX-License-Identifier: GPL-3.0-or-later
// The policy file format: lossless round trip, and every problem reported at once with its field path.
#include "policy/policyjson.h"

#include <QJsonDocument>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

// A policy that sets every field away from its default, so a lost field shows up as a difference.
RetryPolicy everyFieldSet()
{
    RetryPolicy p;
    p.name = u"everything"_s;
    p.description = u"Every field set. Second sentence."_s;
    p.source = u"tst_policyjson"_s;
    p.limits.maxAttempts = 5;
    p.limits.countedAs = AttemptCounting::Retries;
    p.limits.deadline = Millis(30000);
    p.limits.deadlineMode = DeadlineMode::StopAfterWait;
    p.limits.attemptTimeout = Millis(10000);
    p.limits.connectTimeout = Millis(2000);
    p.backoff = Backoff { BackoffKind::Linear, Millis(250), 1.5, Millis(125), Millis(9000), ExponentOrigin::FirstRetryIsZero, 1, Millis(1000) };
    p.jitter = Jitter { JitterKind::Multiplicative, 0.3, 0.8, 1.2, Millis(40), CapOrder::BeforeJitter, Millis(3) };
    DelayHint hint;
    hint.header = u"x-amz-retry-after"_s;
    hint.format = HintFormat::Milliseconds;
    hint.statuses = { StatusRange { 429, 429 }, StatusRange { 500, 599 } };
    hint.combine = HintCombine::ClampAroundBackoff;
    hint.window = Millis(5000);
    hint.max = Millis(60000);
    hint.overMax = HintOverMax::Clamp;
    hint.zeroFallsBackToBackoff = true;
    hint.resetsExponent = true;
    hint.negativeMeansStop = true;
    hint.cappedByBackoffCap = true;
    p.hints << hint;
    RetryRule rule;
    rule.name = u"lost-delete"_s;
    rule.when.outcome = OutcomeKind::Status;
    rule.when.methods = { u"DELETE"_s };
    rule.when.idempotencyKey = false;
    rule.when.statuses = { StatusRange { 404, 404 } };
    rule.when.serverCouldHaveActed = true;
    rule.when.body = BodyMatch { u"errors[0].code"_s, { u"customer_not_found"_s } };
    rule.when.headers = { HeaderMatch { u"Stripe-Should-Retry"_s, { u"true"_s }, false } };
    rule.when.afterLostAnswer = true;
    rule.action = RuleAction::Success;
    rule.throttling = true;
    rule.note = u"seed 001"_s;
    p.rules << rule;
    RetryRule errors;
    errors.name = u"net"_s;
    errors.when.outcome = OutcomeKind::Error;
    errors.when.errors = { ErrorClass::Dns, ErrorClass::ConnectionLost };
    p.rules << errors;
    p.idempotency = IdempotencyPolicy { true, { u"POST"_s, u"PATCH"_s }, u"X-Idem"_s, KeyFormat::Bare, u"stripe-node-retry-"_s };
    p.quota = RetryQuota { true, 400, 14, 10, 5, 2, false, BudgetScope::Host };
    p.throttling = RetryThrottling { true, 20.0, 0.25, BudgetScope::Client };
    p.hostThrottle = HostThrottle { true, Millis(45000) };
    return p;
}

QByteArray withField(const QByteArray& json)
{
    return R"({"format":"retrylab-policy","version":1,)" + json + "}";
}

} // namespace

class TestPolicyJson : public QObject
{
    Q_OBJECT
private slots:
    void roundTripKeepsEveryField()
    {
        const RetryPolicy original = everyFieldSet();
        QVERIFY2(validate(original).isEmpty(), qPrintable(validate(original).value(0).message));
        const PolicyParseResult back = policyFromJsonBytes(policyToJsonBytes(original));
        QVERIFY2(back.ok(), qPrintable(back.problems.value(0).path + u": "_s + back.problems.value(0).message));
        QCOMPARE(*back.policy, original);
        // And the second write is byte-identical to the first.
        QCOMPARE(policyToJsonBytes(*back.policy), policyToJsonBytes(original));
    }

    void defaultsRoundTrip()
    {
        const RetryPolicy original;
        const PolicyParseResult back = policyFromJson(policyToJson(original));
        QVERIFY(back.ok());
        QCOMPARE(*back.policy, original);
    }

    void retriesAndAttemptsAreOneLimit()
    {
        const PolicyParseResult retries = policyFromJsonBytes(withField(R"("limits":{"max_retries":2})"));
        QVERIFY(retries.ok());
        QCOMPARE(retries.policy->limits.maxAttempts, 3);
        QCOMPARE(retries.policy->maxRetries(), 2);
        QCOMPARE(retries.policy->limits.countedAs, AttemptCounting::Retries);
        QVERIFY(policyToJson(*retries.policy)[u"limits"].toObject().contains(u"max_retries"));

        const PolicyParseResult contradicting = policyFromJsonBytes(withField(R"("limits":{"max_retries":2,"max_attempts":5})"));
        QVERIFY(!contradicting.ok());
        QCOMPARE(contradicting.problems.first().path, u"limits.max_retries"_s);
    }

    void problems_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("paths");
        QTest::addRow("negative retries (seed 001: refused, not clamped)") << withField(R"("limits":{"max_retries":-1})") << QStringList { u"limits.max_retries"_s };
        QTest::addRow("zero attempts") << withField(R"("limits":{"max_attempts":0})") << QStringList { u"limits.max_attempts"_s };
        QTest::addRow("timeout 0 (seed 001: not a number above zero)") << withField(R"("limits":{"attempt_timeout_ms":0})") << QStringList { u"limits.attempt_timeout_ms"_s };
        QTest::addRow("negative connect timeout") << withField(R"("limits":{"connect_timeout_ms":-5})") << QStringList { u"limits.connect_timeout_ms"_s };
        QTest::addRow("fractional milliseconds") << withField(R"("limits":{"deadline_ms":1.5})") << QStringList { u"limits.deadline_ms"_s };
        QTest::addRow("cap below base") << withField(R"("backoff":{"base_ms":500,"cap_ms":100})") << QStringList { u"backoff.cap_ms"_s };
        QTest::addRow("multiplier 0") << withField(R"("backoff":{"multiplier":0})") << QStringList { u"backoff.multiplier"_s };
        QTest::addRow("unknown backoff kind") << withField(R"("backoff":{"kind":"fibonacci"})") << QStringList { u"backoff.kind"_s };
        QTest::addRow("jitter factor above 1") << withField(R"("jitter":{"kind":"proportional","factor":1.5})") << QStringList { u"jitter.factor"_s };
        QTest::addRow("jitter high below low") << withField(R"("jitter":{"low":1.2,"high":0.8})") << QStringList { u"jitter.high"_s };
        QTest::addRow("typo in a field name") << withField(R"("limits":{"max_atempts":3})") << QStringList { u"limits.max_atempts"_s };
        QTest::addRow("status out of range") << withField(R"("rules":[{"action":"retry","when":{"statuses":["700"]}}])") << QStringList { u"rules[0].when.statuses[0]"_s };
        // Issue 14 (fuzzing): a number far outside int is refused before any cast (UBSan: float-cast-overflow).
        QTest::addRow("status 1e10 (no cast overflow)") << withField(R"("rules":[{"action":"retry","when":{"statuses":[1e10]}}])") << QStringList { u"rules[0].when.statuses[0]"_s };
        QTest::addRow("status -1e300 (no cast overflow)") << withField(R"("rules":[{"action":"retry","when":{"statuses":[-1e300]}}])") << QStringList { u"rules[0].when.statuses[0]"_s };
        QTest::addRow("status 2147483648 (int max + 1)") << withField(R"("rules":[{"action":"retry","when":{"statuses":[2147483648]}}])") << QStringList { u"rules[0].when.statuses[0]"_s };
        QTest::addRow("empty status range") << withField(R"("rules":[{"action":"retry","when":{"statuses":["599-500"]}}])") << QStringList { u"rules[0].when.statuses[0]"_s };
        QTest::addRow("unknown error class") << withField(R"("rules":[{"action":"retry","when":{"errors":["timeout"]}}])") << QStringList { u"rules[0].when.errors[0]"_s };
        QTest::addRow("rule without action") << withField(R"("rules":[{"when":{}}])") << QStringList { u"rules[0].action"_s };
        QTest::addRow("error rule with statuses") << withField(R"("rules":[{"action":"retry","when":{"outcome":"error","statuses":[503]}}])") << QStringList { u"rules[0].when.statuses"_s };
        QTest::addRow("bad header name in hint") << withField(R"("hints":[{"header":"Retry After"}])") << QStringList { u"hints[0].header"_s };
        QTest::addRow("grpc max tokens above 1000") << withField(R"("throttling":{"max_tokens":5000})") << QStringList { u"throttling.max_tokens"_s };
        QTest::addRow("wrong type") << withField(R"("limits":{"max_attempts":"three"})") << QStringList { u"limits.max_attempts"_s };
        QTest::addRow("several problems at once")
            << withField(R"("limits":{"max_attempts":0,"attempt_timeout_ms":-1},"backoff":{"base_ms":-3},"jitter":{"factor":2})")
            << QStringList { u"limits.max_attempts"_s, u"limits.attempt_timeout_ms"_s, u"backoff.base_ms"_s, u"jitter.factor"_s };
        QTest::addRow("future version") << QByteArray(R"({"format":"retrylab-policy","version":3})") << QStringList { u"version"_s };
        QTest::addRow("not a policy") << QByteArray(R"({"format":"har","version":1})") << QStringList { u"format"_s };
        QTest::addRow("array, not object") << QByteArray("[1,2]") << QStringList { QString() };
        // resources/schemas/policy.schema.json: "required": ["format", "version"] (issue 15: {} was valid).
        QTest::addRow("empty object") << QByteArray("{}") << QStringList { u"format"_s, u"version"_s };
        QTest::addRow("no version") << QByteArray(R"({"format":"retrylab-policy","name":"x"})") << QStringList { u"version"_s };
        QTest::addRow("no format") << QByteArray(R"({"version":1,"name":"x"})") << QStringList { u"format"_s };
    }

    void problems()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, paths);
        const PolicyParseResult result = policyFromJsonBytes(json);
        QVERIFY(!result.ok());
        QStringList found;
        for (const PolicyProblem& problem : result.problems) {
            found << problem.path;
            QVERIFY2(!problem.message.isEmpty(), "every problem says what is wrong");
        }
        for (const QString& path : paths)
            QVERIFY2(found.contains(path), qPrintable(u"missing problem at "_s + path + u"; found: "_s + found.join(u" | "_s)));
    }

    void syntaxErrorNamesLineAndColumn()
    {
        const PolicyParseResult result = policyFromJsonBytes("{\n  \"format\": \"retrylab-policy\",\n  \"version\": 1,,\n}");
        QVERIFY(!result.ok());
        QCOMPARE(result.problems.size(), 1);
        QVERIFY2(result.problems.first().message.contains(u"line 3"_s), qPrintable(result.problems.first().message));
    }

    void garbageNeverCrashes()
    {
        QRandomGenerator rng(7);
        const QByteArray valid = policyToJsonBytes(everyFieldSet());
        for (int i = 0; i < 3000; ++i) {
            QByteArray bytes = valid;
            const int edits = 1 + int(rng.bounded(6));
            for (int e = 0; e < edits; ++e)
                bytes[int(rng.bounded(bytes.size()))] = char(rng.bounded(256));
            const PolicyParseResult result = policyFromJsonBytes(bytes);
            QVERIFY(result.ok() || !result.problems.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestPolicyJson)
#include "tst_policyjson.moc"
