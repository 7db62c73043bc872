// SPDX-License-Identifier: GPL-3.0-or-later
// The importers (issue 30 §4): Envoy retry_policy YAML, gRPC service config JSON and resilience4j Spring Boot
// YAML into a policy; every setting they cannot hold listed lost with the input's own path; bad input answered
// with problems; and round trips: import(export(P)) decides like P.
#include "codegen/codeexport.h"
#include "codegen/decisionequivalence.h"
#include "codegen/targets/proxyoutcomes.h"
#include "codegen/targets/proxytargets.h"
#include "codegen/targets/resilience4jimport.h"
#include "policy/decisiontable.h"
#include "policy/presetcatalog.h"

#include <QTest>

using namespace Qt::StringLiterals;

using Importer = CodeImport (*)(const QByteArray&);
Q_DECLARE_METATYPE(Importer)

class TestCodeImport : public QObject
{
    Q_OBJECT

private slots:
    void envoyReadsEveryField();
    void envoyDefaults();
    void envoyHedge();
    void grpcRetryPolicy();
    void grpcHedging();
    void resilience4j();
    void lost_data();
    void lost();
    void badInput_data();
    void badInput();
    void roundTrip_data();
    void roundTrip();
};

static QStringList paths(const CodeImport& in)
{
    QStringList out;
    for (const LostBehaviour& l : in.lost)
        out << l.path;
    return out;
}

void TestCodeImport::envoyReadsEveryField()
{
    const CodeImport in = importEnvoy(R"(route:
  timeout: 10s
  retry_policy:
    retry_on: "gateway-error,retriable-4xx,retriable-status-codes,connect-failure,unavailable"
    num_retries: 3
    per_try_timeout: 2s
    retry_back_off: {base_interval: 0.1s, max_interval: 1s}
    rate_limited_retry_back_off:
      reset_headers:
      - name: Retry-After
        format: SECONDS
      max_interval: 60s
    retriable_status_codes: [429]
    retriable_request_headers:
    - name: ":method"
      string_match: {exact: GET}
    - name: ":method"
      exact_match: put
connect_timeout: 0.5s
)");
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    QVERIFY(in.policy);
    const RetryPolicy& p = *in.policy;
    QCOMPARE(p.limits.maxAttempts, 4);
    QCOMPARE(p.limits.deadline, Millis(10000));
    QCOMPARE(p.limits.attemptTimeout, Millis(2000));
    QCOMPARE(p.limits.connectTimeout, Millis(500));
    QCOMPARE(p.backoff.base, Millis(100));
    QCOMPARE(p.backoff.cap, Millis(1000));
    QCOMPARE(p.jitter.kind, JitterKind::Full);
    QCOMPARE(p.hints.size(), 1);
    QCOMPARE(p.hints.first().header, u"retry-after"_s);
    QCOMPARE(p.hints.first().format, HintFormat::Seconds);
    QCOMPARE(p.hints.first().max, Millis(60000));
    QCOMPARE(p.hints.first().overMax, HintOverMax::Ignore);
    const RetriedOutcomes get = ProxyOutcomes::retried(p, u"GET"_s);
    QCOMPARE(get.statuses, (QList<int> { 409, 429, 502, 503, 504 }));
    QCOMPARE(ProxyOutcomes::retried(p, u"PUT"_s), get);
    QVERIFY(ProxyOutcomes::retried(p, u"POST"_s).isEmpty());
    QVERIFY(get.contains(ErrorClass::ResponseTimeout)); // per_try_timeout with gateway-error
    QCOMPARE(paths(in), QStringList { u"route.retry_policy.rate_limited_retry_back_off"_s });
    // unavailable: a grpc-status 14 answer is retried
    ExplainQuery q;
    q.outcome = AttemptOutcome::answered(200, { { "grpc-status", "14" } });
    QCOMPARE(explain(p, q).verdict, Verdict::Retry);
}

void TestCodeImport::envoyDefaults()
{
    const CodeImport in = importEnvoy("retry_on: 5xx\n");
    QVERIFY(in.policy);
    QCOMPARE(in.policy->limits.maxAttempts, 2);
    QCOMPARE(in.policy->backoff.base, Millis(25));
    QCOMPARE(in.policy->backoff.cap, Millis(250));
    QCOMPARE(in.policy->limits.deadline, Millis(15000));
    QVERIFY(!in.policy->limits.attemptTimeout);
    QVERIFY(!ProxyOutcomes::retried(*in.policy, u"GET"_s).contains(ErrorClass::ResponseTimeout));
    QVERIFY(in.lost.isEmpty());
    const CodeImport noDeadline = importEnvoy("route:\n  timeout: 0s\n  retry_policy: {retry_on: reset, retry_back_off: {base_interval: 0.2s}}\n");
    QVERIFY(noDeadline.policy);
    QVERIFY(!noDeadline.policy->limits.deadline);
    QCOMPARE(noDeadline.policy->backoff.cap, Millis(2000)); // 10 × base
}

void TestCodeImport::envoyHedge()
{
    const CodeImport in = importEnvoy("route:\n  retry_policy:\n    retry_on: 5xx\n    per_try_timeout: 0.5s\n  hedge_policy:\n"
                                      "    hedge_on_per_try_timeout: true\n    initial_requests: 2\n");
    QVERIFY(in.policy);
    QCOMPARE(in.policy->limits.maxAttempts, 1);
    QCOMPARE(in.policy->pipeline.size(), 2);
    QCOMPARE(in.policy->pipeline.at(0).timeout, Millis(15000));
    QCOMPARE(in.policy->pipeline.at(1).hedging.delay, Millis(500));
    QCOMPARE(in.policy->pipeline.at(1).hedging.maxHedges, 1);
    QCOMPARE(paths(in), QStringList { u"route.hedge_policy.initial_requests"_s });
}

void TestCodeImport::grpcRetryPolicy()
{
    const CodeImport in = importGrpc(R"({"methodConfig": [{"name": [{}], "timeout": "5s", "retryPolicy": {
        "maxAttempts": 3, "initialBackoff": "0.2s", "maxBackoff": "2s", "backoffMultiplier": 1.5,
        "retryableStatusCodes": ["UNAVAILABLE", 8]}}], "retryThrottling": {"maxTokens": 100, "tokenRatio": 0.5}})");
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    const RetryPolicy& p = *in.policy;
    QCOMPARE(p.limits.maxAttempts, 3);
    QCOMPARE(p.limits.deadline, Millis(5000));
    QCOMPARE(p.backoff.base, Millis(200));
    QCOMPARE(p.backoff.cap, Millis(2000));
    QCOMPARE(p.backoff.multiplier, 1.5);
    QCOMPARE(p.jitter.kind, JitterKind::Multiplicative);
    QVERIFY(p.throttling.enabled);
    QCOMPARE(p.throttling.maxTokens, 100.0);
    QCOMPARE(p.throttling.tokenRatio, 0.5);
    QCOMPARE(ProxyOutcomes::retried(p, u"POST"_s).statuses, (QList<int> { 429, 502, 503, 504 }));
    ExplainQuery q;
    q.method = u"POST"_s;
    q.outcome = AttemptOutcome::answered(200, { { "grpc-status", "8" } });
    QCOMPARE(explain(p, q).verdict, Verdict::Retry);
    q.outcome = AttemptOutcome::answered(200, { { "grpc-status", "13" } });
    QCOMPARE(explain(p, q).verdict, Verdict::Stop);
    q.outcome = AttemptOutcome::answered(200, { { "grpc-status", "0" } });
    QCOMPARE(explain(p, q).verdict, Verdict::Success);
    QVERIFY(in.lost.isEmpty());
}

void TestCodeImport::grpcHedging()
{
    const CodeImport in = importGrpc(R"({"methodConfig": [{"name": [{"service": "a.B"}], "hedgingPolicy": {
        "maxAttempts": 7, "hedgingDelay": "0.5s", "nonFatalStatusCodes": ["UNAVAILABLE"]}}]})");
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    QCOMPARE(in.policy->pipeline.size(), 1);
    QCOMPARE(in.policy->pipeline.first().hedging.maxHedges, 4);
    QCOMPARE(in.policy->pipeline.first().hedging.delay, Millis(500));
    QCOMPARE(paths(in), (QStringList { u"methodConfig[0].hedgingPolicy.maxAttempts"_s, u"methodConfig[0].name"_s }));
}

void TestCodeImport::resilience4j()
{
    const CodeImport in = importResilience4jYaml(R"(resilience4j:
  retry:
    configs:
      default:
        max-attempts: 5
        waitDuration: 200ms
    instances:
      backendA:
        baseConfig: default
        enableExponentialBackoff: true
        exponentialBackoffMultiplier: 2
        exponentialMaxWaitDuration: PT2S
        enableRandomizedWait: true
        randomizedWaitFactor: 0.25
        retryExceptions:
        - java.io.IOException
)");
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    const RetryPolicy& p = *in.policy;
    QCOMPARE(p.name, u"backendA"_s);
    QCOMPARE(p.limits.maxAttempts, 5);
    QCOMPARE(p.backoff.kind, BackoffKind::Exponential);
    QCOMPARE(p.backoff.base, Millis(200));
    QCOMPARE(p.backoff.multiplier, 2.0);
    QCOMPARE(p.backoff.cap, Millis(2000));
    QCOMPARE(p.jitter.kind, JitterKind::Proportional);
    QCOMPARE(p.jitter.factor, 0.25);
    QCOMPARE(p.jitter.capOrder, CapOrder::AfterJitter);
    QCOMPARE(paths(in), QStringList { u"resilience4j.retry.instances.backendA.retryExceptions"_s });
}

void TestCodeImport::lost_data()
{
    QTest::addColumn<Importer>("importer");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("lost");
    const Importer envoy = importEnvoy;
    const Importer grpc = importGrpc;
    const Importer r4j = importResilience4jYaml;
    QTest::newRow("envoy host predicate") << envoy << QByteArray("retry_policy:\n  retry_on: 5xx\n  retry_host_predicate:\n  - name: envoy.retry_host_predicates.previous_hosts\n  host_selection_retry_max_attempts: 3\n")
                                          << QStringList { u"retry_policy.host_selection_retry_max_attempts"_s, u"retry_policy.retry_host_predicate"_s };
    QTest::newRow("envoy refused-stream") << envoy << QByteArray("retry_on: refused-stream,5xx\n") << QStringList { u"retry_on"_s };
    QTest::newRow("envoy unix timestamp") << envoy << QByteArray("retry_on: 5xx\nrate_limited_retry_back_off:\n  reset_headers: [{name: X-RateLimit-Reset, format: UNIX_TIMESTAMP}]\n")
                                          << QStringList { u"rate_limited_retry_back_off.reset_headers[0]"_s, u"rate_limited_retry_back_off"_s };
    QTest::newRow("envoy codes without condition") << envoy << QByteArray("retry_on: reset\nretriable_status_codes: [503]\n")
                                                   << QStringList { u"retriable_status_codes"_s };
    QTest::newRow("envoy request header") << envoy << QByteArray("retry_on: reset\nretriable_request_headers: [{name: x-retry, present_match: true}]\n")
                                          << QStringList { u"retriable_request_headers[0]"_s };
    QTest::newRow("envoy budget and route fields") << envoy << QByteArray("route:\n  cluster: backend\n  retry_policy: {retry_on: 5xx}\ncircuit_breakers:\n  thresholds: [{retry_budget: {budget_percent: {value: 20}}}]\n")
                                                   << QStringList { u"route.cluster"_s, u"circuit_breakers"_s };
    QTest::newRow("envoy unknown field") << envoy << QByteArray("retry_on: 5xx\nretry_everything: true\n") << QStringList { u"retry_everything"_s };
    QTest::newRow("envoy hedge without per-try") << envoy << QByteArray("route:\n  retry_policy: {retry_on: 5xx}\n  hedge_policy: {hedge_on_per_try_timeout: true}\n")
                                                 << QStringList { u"route.hedge_policy.hedge_on_per_try_timeout"_s };
    QTest::newRow("grpc second method and others") << grpc << QByteArray(R"({"loadBalancingPolicy": "round_robin", "methodConfig": [
        {"name": [{}], "waitForReady": true, "retryPolicy": {"maxAttempts": 2, "initialBackoff": "1s", "maxBackoff": "1s",
         "backoffMultiplier": 1, "retryableStatusCodes": ["UNKNOWN"], "perAttemptRecvTimeout": "1s"}},
        {"name": [{"service": "x"}], "retryPolicy": {}}]})")
                                                   << QStringList { u"methodConfig[1]"_s, u"loadBalancingPolicy"_s,
                                                          u"methodConfig[0].retryPolicy.perAttemptRecvTimeout"_s, u"methodConfig[0].waitForReady"_s, u"UNKNOWN"_s };
    QTest::newRow("r4j predicates") << r4j << QByteArray("resilience4j:\n  retry:\n    instances:\n      a:\n        resultPredicate: x.Y\n        failAfterMaxAttempts: true\n        eventConsumerBufferSize: 10\n      b:\n        maxAttempts: 2\n")
                                    << QStringList { u"resilience4j.retry.instances.b"_s, u"resilience4j.retry.instances.a.eventConsumerBufferSize"_s,
                                           u"resilience4j.retry.instances.a.failAfterMaxAttempts"_s, u"resilience4j.retry.instances.a.resultPredicate"_s };
    QTest::newRow("r4j dotted section key") << r4j << QByteArray("resilience4j.retry:\n  x: 1\n") << QStringList {};
}

void TestCodeImport::lost()
{
    QFETCH(Importer, importer);
    QFETCH(QByteArray, text);
    QFETCH(QStringList, lost);
    const CodeImport in = importer(text);
    if (lost.isEmpty()) {
        QVERIFY(!in.problems.isEmpty()); // resilience4j.retry as one dotted key is not the nested form
        return;
    }
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    QVERIFY(in.policy);
    QCOMPARE(paths(in), lost);
    for (const LostBehaviour& l : in.lost)
        QVERIFY(!l.what.isEmpty());
}

void TestCodeImport::badInput_data()
{
    QTest::addColumn<Importer>("importer");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("problem");
    const Importer envoy = importEnvoy;
    const Importer grpc = importGrpc;
    const Importer r4j = importResilience4jYaml;
    QTest::newRow("envoy not yaml") << envoy << QByteArray("retry_on: [5xx\n") << u"not YAML"_s;
    QTest::newRow("envoy anchors") << envoy << QByteArray("retry_on: &a 5xx\n") << u"anchors"_s;
    QTest::newRow("envoy a list") << envoy << QByteArray("- retry_on: 5xx\n") << u"not a mapping"_s;
    QTest::newRow("envoy no retry policy") << envoy << QByteArray("route:\n  cluster: x\n") << u"no retry_policy"_s;
    QTest::newRow("envoy negative retries") << envoy << QByteArray("retry_on: 5xx\nnum_retries: -1\n") << u"num_retries"_s;
    QTest::newRow("envoy text retries") << envoy << QByteArray("retry_on: 5xx\nnum_retries: three\n") << u"num_retries"_s;
    QTest::newRow("envoy bad duration") << envoy << QByteArray("retry_on: 5xx\nper_try_timeout: 2 minutes\n") << u"per_try_timeout: not a duration"_s;
    QTest::newRow("envoy negative duration") << envoy << QByteArray("retry_on: 5xx\nper_try_timeout: -1s\n") << u"not a duration"_s;
    QTest::newRow("envoy unknown condition") << envoy << QByteArray("retry_on: 5xx,sometimes\n") << u"unknown retry condition \"sometimes\""_s;
    QTest::newRow("envoy max below base") << envoy << QByteArray("retry_on: 5xx\nretry_back_off: {base_interval: 1s, max_interval: 0.5s}\n") << u"below base_interval"_s;
    QTest::newRow("envoy base missing") << envoy << QByteArray("retry_on: 5xx\nretry_back_off: {max_interval: 1s}\n") << u"base_interval: required"_s;
    QTest::newRow("envoy bad status") << envoy << QByteArray("retry_on: retriable-status-codes\nretriable_status_codes: [700]\n") << u"not an HTTP status"_s;
    QTest::newRow("grpc not json") << grpc << QByteArray("{\"methodConfig\": [") << u"not JSON"_s;
    QTest::newRow("grpc array") << grpc << QByteArray("[]") << u"expected a JSON object"_s;
    QTest::newRow("grpc one attempt") << grpc << QByteArray(R"({"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":1,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]})") << u"at least 2"_s;
    QTest::newRow("grpc missing field") << grpc << QByteArray(R"({"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":2}}]})") << u"initialBackoff: required"_s;
    QTest::newRow("grpc empty codes") << grpc << QByteArray(R"({"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":2,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":[]}}]})") << u"non-empty"_s;
    QTest::newRow("grpc bad code") << grpc << QByteArray(R"({"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":2,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["SOMETIMES"]}}]})") << u"not a gRPC status code"_s;
    QTest::newRow("grpc zero backoff") << grpc << QByteArray(R"({"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":2,"initialBackoff":"0s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":[14]}}]})") << u"above 0"_s;
    QTest::newRow("grpc both") << grpc << QByteArray(R"({"methodConfig":[{"name":[{}],"hedgingPolicy":{"maxAttempts":2},"retryPolicy":{"maxAttempts":2,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":[14]}}]})") << u"both"_s;
    QTest::newRow("grpc throttling") << grpc << QByteArray(R"({"retryThrottling":{"maxTokens":5000,"tokenRatio":0.1}})") << u"maxTokens"_s;
    QTest::newRow("r4j no section") << r4j << QByteArray("spring:\n  application: x\n") << u"no resilience4j.retry"_s;
    QTest::newRow("r4j bad duration") << r4j << QByteArray("resilience4j:\n  retry:\n    instances:\n      a:\n        waitDuration: soon\n") << u"waitDuration: not a duration"_s;
    QTest::newRow("r4j zero attempts") << r4j << QByteArray("resilience4j:\n  retry:\n    instances:\n      a:\n        maxAttempts: 0\n") << u"maxAttempts"_s;
    QTest::newRow("r4j unknown base") << r4j << QByteArray("resilience4j:\n  retry:\n    instances:\n      a:\n        baseConfig: nope\n") << u"no config named \"nope\""_s;
    QTest::newRow("r4j factor") << r4j << QByteArray("resilience4j:\n  retry:\n    instances:\n      a:\n        randomizedWaitFactor: 1.5\n") << u"randomizedWaitFactor"_s;
    QTest::newRow("r4j tag") << r4j << QByteArray("resilience4j: !!map\n") << u"tags"_s;
}

void TestCodeImport::badInput()
{
    QFETCH(Importer, importer);
    QFETCH(QByteArray, text);
    QFETCH(QString, problem);
    const CodeImport in = importer(text);
    QVERIFY(!in.policy);
    QVERIFY2(!in.problems.isEmpty(), "no problem reported");
    QVERIFY2(in.problems.join(u'\n').contains(problem), qPrintable(in.problems.join(u'\n')));
}

void TestCodeImport::roundTrip_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QByteArray>("text"); // empty: export the preset to the target
    QTest::newRow("envoy") << u"envoy"_s << u"envoy"_s << QByteArray();
    QTest::newRow("envoy-hedge") << u"envoy-hedge"_s << u"envoy"_s << QByteArray();
    QTest::newRow("grpc") << u"grpc"_s << u"grpc"_s << QByteArray();
    QTest::newRow("grpc-hedging") << u"grpc-hedging"_s << u"grpc"_s << QByteArray();
    // The resilience4j preset as Spring Boot configures it (the resilience4j-yaml export target is another's).
    QTest::newRow("resilience4j") << u"resilience4j"_s << u"resilience4j-yaml"_s
                                  << QByteArray("resilience4j:\n  retry:\n    instances:\n      resilience4j:\n        maxAttempts: 3\n        waitDuration: 500ms\n");
    if (CodeTargets::find(u"resilience4j-yaml"_s) && CodeTargets::find(u"resilience4j-yaml"_s)->import)
        QTest::newRow("resilience4j exported") << u"resilience4j"_s << u"resilience4j-yaml"_s << QByteArray();
}

// Decides like: the same verdict and wait range for every method, outcome and attempt.
void TestCodeImport::roundTrip()
{
    QFETCH(QString, preset);
    QFETCH(QString, target);
    QFETCH(QByteArray, text);
    const RetryPolicy original = *PresetCatalog::load(preset).policy;
    CodeImport in;
    if (text.isEmpty()) {
        const CodeTarget* t = CodeTargets::find(target);
        QVERIFY(t);
        const CodeExport out = t->generate(original, t->versions.first());
        in = t->import(out.code.toUtf8());
    } else {
        in = importResilience4jYaml(text);
    }
    QVERIFY2(in.problems.isEmpty(), qPrintable(in.problems.join(u'\n')));
    QVERIFY(in.policy);
    const RetryPolicy& back = *in.policy;
    QCOMPARE(back.limits.maxAttempts, original.limits.maxAttempts);
    // Every method × status × Retry-After × error class × attempt, and the settings explain() does not show.
    // A hedge's failures come back as the conditions the form writes (gRPC codes, Envoy's retry_on), compared
    // by what they match below; the rest of the pipeline must be equal.
    RetryPolicy aligned = back;
    for (qsizetype i = 0; i < std::min(aligned.pipeline.size(), original.pipeline.size()); ++i)
        aligned.pipeline[i].failures = original.pipeline.at(i).failures;
    const QString difference = firstDecisionDifference(original, aligned);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // And gRPC's own answers, which only the gRPC forms read.
    QList<AttemptOutcome> outcomes;
    for (const QByteArray code : { "0", "4", "8", "10", "13", "14" })
        outcomes << AttemptOutcome::answered(200, { { "grpc-status", code } });
    int compared = 0;
    for (const QString& method : ProxyOutcomes::methods())
        for (const AttemptOutcome& o : std::as_const(outcomes))
            for (int attempt = 1; attempt <= std::max(1, original.limits.maxAttempts); ++attempt) {
                ExplainQuery q;
                q.method = method;
                q.outcome = o;
                q.attempt = attempt;
                q.now = QDateTime(QDate(2025, 1, 1), QTime(0, 0), Qt::UTC);
                const RetryDecision a = explain(original, q);
                const RetryDecision b = explain(back, q);
                const QByteArray where = method.toUtf8() + ' ' + QByteArray::number(o.status.value_or(-1)) + ' '
                    + (o.error ? errorClassName(*o.error).toUtf8() : QByteArray()) + (o.headers.isEmpty() ? QByteArray() : QByteArray(" grpc-status " + o.headers.first().second))
                    + " attempt " + QByteArray::number(attempt) + ": " + a.reason.toUtf8() + " / " + b.reason.toUtf8();
                QVERIFY2(a.verdict == b.verdict, where.constData());
                QVERIFY2(a.delayLow == b.delayLow && a.delayHigh == b.delayHigh, where.constData());
                ++compared;
            }
    QVERIFY(compared >= 6);
    // The pipeline: the same strategies, hedges sent on the same delay for the same failures.
    QCOMPARE(back.pipeline.size(), original.pipeline.size());
    for (qsizetype i = 0; i < original.pipeline.size(); ++i) {
        const ResilienceStrategy& a = original.pipeline.at(i);
        const ResilienceStrategy& b = back.pipeline.at(i);
        QCOMPARE(b.kind, a.kind);
        QCOMPARE(b.timeout, a.timeout);
        QCOMPARE(b.hedging, a.hedging);
        QCOMPARE(b.hedgeUnsafe, a.hedgeUnsafe);
        // gRPC's codes are coarser than the policy's outcomes (the export lists that as lost); Envoy's are not.
        if (a.kind == ResilienceStrategy::Kind::Hedging && target == u"envoy"_s)
            QCOMPARE(ProxyOutcomes::matchedBy(b.failures), ProxyOutcomes::matchedBy(a.failures));
    }
    QCOMPARE(back.limits.deadline, original.limits.deadline);
    QCOMPARE(back.throttling, original.throttling);
}

QTEST_GUILESS_MAIN(TestCodeImport)
#include "tst_codeimport.moc"
