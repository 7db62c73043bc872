// SPDX-License-Identifier: GPL-3.0-or-later
//
// The presets drawn from ../shared/reference/retry-systems.md, system by system:
//  - decisions: each system's status / error-class / method table, its server hints and budgets, as named
//    decide() rows (the jitter pinned at 0 and at 1 gives the exact delay range);
//  - delays: the exact first retries with every draw pinned at 0 and at 1, matching the delay cheat-sheet
//    (and the formulas of the systems the cheat-sheet leaves out);
//  - sequences: several attempts of one request sharing the backoff state (exponent resets, Retry-After
//    interplay).
// Rows marked as known gaps are expected failures: the reference says one thing, the model cannot say it.

#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "policy/rulematcher.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include "presetrows.h"

using namespace Qt::StringLiterals;
using namespace presettest;
using SystemCase = PresetCase;



class TestSystemPresets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decisions_data();
    void decisions();
    void delays_data();
    void delays();
    void sequences_data();
    void sequences();
};

void TestSystemPresets::decisions_data()
{
    QTest::addColumn<SystemCase>("c");
    const auto row = [](const char* name, const SystemCase& c) { QTest::newRow(name) << c; };
    const auto ra = [](SystemCase c, const char* value) { return c.header("Retry-After", value); };
    const QList<QString> classes { u"dns"_s, u"refused"_s, u"tls"_s, u"connect-timeout"_s, u"response-timeout"_s,
        u"connection-lost"_s, u"protocol"_s };

    // ---- §1a Polly.Core defaults ----------------------------------------------------------------------
    const QString polly = u"polly"_s;
    row("polly: HttpRequestException (dns) handled, Constant 2 s", on(polly).failed(u"dns"_s).retry(2000, 2000));
    row("polly: HttpRequestException (refused) handled for POST too", on(polly).on(u"POST"_s).failed(u"refused"_s).retry(2000, 2000));
    row("polly: HttpRequestException (tls) handled", on(polly).failed(u"tls"_s).retry(2000, 2000));
    row("polly: HttpRequestException (connection-lost) handled", on(polly).failed(u"connection-lost"_s).retry(2000, 2000));
    row("polly: HttpRequestException (protocol) handled", on(polly).failed(u"protocol"_s).retry(2000, 2000));
    row("polly: timeouts are OperationCanceledException, not handled", on(polly).failed(u"response-timeout"_s).stop(u"network"_s));
    row("polly: connect timeout is a cancellation, not handled", on(polly).failed(u"connect-timeout"_s).stop(u"network"_s));
    row("polly: a 503 result is not handled", on(polly).answered(503).stop(u"server-error"_s));
    row("polly: a 200 result is a success", on(polly).answered(200).success());
    row("polly: MaxRetryAttempts 3 (attempt 3 retried)", on(polly).failed(u"dns"_s).at(3).retry(2000, 2000));
    row("polly: MaxRetryAttempts 3 (attempt 4 is the last)", on(polly).failed(u"dns"_s).at(4).stop(u"network"_s));

    // ---- §1b Microsoft.Extensions.Http.Resilience -------------------------------------------------------
    const QString mehr = u"ms-http-resilience"_s;
    row("ms-http-resilience: 500 is transient (decorrelated-V2 from 2 s)", on(mehr).answered(500).retry(0, 2754));
    row("ms-http-resilience: 501 is transient (status >= 500)", on(mehr).answered(501).retry(0, 2754));
    row("ms-http-resilience: 503 is transient", on(mehr).answered(503).retry(0, 2754));
    row("ms-http-resilience: 408 is transient", on(mehr).answered(408).retry(0, 2754));
    row("ms-http-resilience: 429 is transient", on(mehr).answered(429).retry(0, 2754));
    row("ms-http-resilience: 404 is not", on(mehr).answered(404).stop(u"client-error"_s));
    row("ms-http-resilience: 400 is not", on(mehr).answered(400).stop(u"client-error"_s));
    row("ms-http-resilience: every method is retried (POST 503)", on(mehr).on(u"POST"_s).answered(503).retry(0, 2754));
    for (const QString& error : classes) {
        const QByteArray name = "ms-http-resilience: transport error " + error.toLatin1() + " is transient";
        QTest::newRow(name.constData()) << on(mehr).on(u"POST"_s).failed(error).retry(0, 2754);
    }
    row("ms-http-resilience: Retry-After honoured, not capped by MaxDelay (25 s)",
        ra(on(mehr).answered(503), "25").retry(25000, 25000, u"retry-after"_s));
    row("ms-http-resilience: the only ceiling on Retry-After is the 30 s total timeout (40 s)",
        ra(on(mehr).answered(503), "40").stop(u"deadline"_s));
    row("ms-http-resilience: Retry-After on a 500 too (any retried response)", ra(on(mehr).answered(500), "2").retry(2000, 2000, u"retry-after"_s));
    row("ms-http-resilience: Retry-After date in the past is 0",
        ra(on(mehr).answered(429), "Fri, 06 Nov 2026 11:59:00 GMT").retry(0, 0, u"retry-after"_s));
    row("ms-http-resilience: 30 s total timeout: a wait past it stops",
        ra(on(mehr).answered(503), "5").elapsed(26000).stop(u"deadline"_s));
    row("ms-http-resilience: 3 retries (attempt 4 is the last)", on(mehr).answered(503).at(4).stop(u"server-error"_s));
    row("ms-http-resilience: retry-after-ms is not read",
        on(mehr).answered(503).header("retry-after-ms", "700").retry(0, 2754, u"backoff"_s));

    // ---- §2b AWS standard, §2d adaptive ------------------------------------------------------------------
    const QString aws = u"aws-standard"_s;
    for (int s : { 500, 502, 503, 504 }) {
        const QByteArray name = "aws-standard: HTTP " + QByteArray::number(s) + " is transient";
        QTest::newRow(name.constData()) << on(aws).answered(s).quota(500).retry(0, 1000);
    }
    row("aws-standard: 501 is not in the status list", on(aws).answered(501).stop(u"server-error"_s));
    row("aws-standard: a bare 429 is not retried", on(aws).answered(429).stop(u"rate-limited"_s));
    row("aws-standard: 400 ThrottlingException (__type) is a throttling retry",
        on(aws).answered(400).json(R"({"__type":"ThrottlingException","message":"Rate exceeded"})").retry(0, 1000));
    row("aws-standard: 429 TooManyRequestsException is retried",
        on(aws).answered(429).json(R"({"__type":"TooManyRequestsException"})").retry(0, 1000));
    row("aws-standard: 400 ProvisionedThroughputExceededException is retried",
        on(aws).on(u"POST"_s).answered(400).json(R"({"__type":"ProvisionedThroughputExceededException"})").retry(0, 1000));
    row("aws-standard: SlowDown in X-Amzn-ErrorType is retried",
        on(aws).answered(503).header("X-Amzn-ErrorType", "SlowDown").retry(0, 1000));
    row("aws-standard: RequestTimeoutException is transient",
        on(aws).answered(400).json(R"({"__type":"RequestTimeoutException"})").retry(0, 1000));
    row("aws-standard: another 400 code is not retried",
        on(aws).answered(400).json(R"({"__type":"ValidationException"})").stop(u"client-error"_s));
    for (const QString& error : classes) {
        const QByteArray name = "aws-standard: connection error " + error.toLatin1() + " is retried";
        QTest::newRow(name.constData()) << on(aws).on(u"POST"_s).failed(error).retry(0, 1000);
    }
    row("aws-standard: no method gating (POST 503)", on(aws).on(u"POST"_s).answered(503).retry(0, 1000));
    row("aws-standard: 3 attempts (attempt 2 retried)", on(aws).answered(503).at(2).retry(0, 2000));
    row("aws-standard: 3 attempts (attempt 3 is the last)", on(aws).answered(503).at(3).stop(u"server-error"_s));
    row("aws-standard: a retry costs 5 quota tokens (5 left: retried)", on(aws).answered(503).quota(5).retry(0, 1000));
    row("aws-standard: an empty quota refuses the retry (4 left)", on(aws).answered(503).quota(4).stop(u"budget-exhausted"_s));
    row("aws-standard: a timeout retry costs 10 (10 left: retried)", on(aws).failed(u"response-timeout"_s).quota(10).retry(0, 1000));
    row("aws-standard: a timeout retry costs 10 (9 left: refused)", on(aws).failed(u"connect-timeout"_s).quota(9).stop(u"budget-exhausted"_s));
    row("aws-standard: quota 500 tokens, +1 per first-try success, refund on success",
        on(aws).setting(u"quota"_s, QJsonObject { { u"enabled"_s, true }, { u"capacity"_s, 500 }, { u"retry_cost"_s, 5 },
            { u"timeout_retry_cost"_s, 10 }, { u"throttling_retry_cost"_s, QJsonValue(QJsonValue::Null) },
            { u"success_reward"_s, 1 }, { u"refund_on_success"_s, true }, { u"scope"_s, u"client"_s } }));
    row("aws-standard: Retry-After is not used", ra(on(aws).answered(503), "9").retry(0, 1000, u"backoff"_s));
    row("aws-standard: a namespaced __type is a throttling code too",
        on(aws).answered(400).json(R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"})").retry(0, 1000)
            .knownGap(u"BodyMatch compares whole values: AWS JSON __type may carry a namespace before '#'"_s));
    const QString adaptive = u"aws-adaptive"_s;
    row("aws-adaptive: standard's statuses (503)", on(adaptive).answered(503).quota(500).retry(0, 1000));
    row("aws-adaptive: standard's throttling codes", on(adaptive).answered(400).json(R"({"__type":"Throttling"})").retry(0, 1000));
    row("aws-adaptive: standard's quota is there (4 tokens refuse a retry)", on(adaptive).answered(503).quota(4).stop(u"budget-exhausted"_s));

    // ---- §3 gRPC -------------------------------------------------------------------------------------
    const QString grpc = u"grpc"_s;
    row("grpc: UNAVAILABLE (14) is retried, ×U(0.8, 1.2)", on(grpc).on(u"POST"_s).answered(200).header("grpc-status", "14").retry(80, 120));
    row("grpc: OK (0) is a success", on(grpc).on(u"POST"_s).answered(200).header("grpc-status", "0").success());
    row("grpc: DEADLINE_EXCEEDED (4) is not retryable", on(grpc).on(u"POST"_s).answered(200).header("grpc-status", "4").stop());
    row("grpc: INTERNAL (13) is not retryable", on(grpc).on(u"POST"_s).answered(200).header("grpc-status", "13").stop());
    row("grpc: HTTP 503 without grpc-status maps to UNAVAILABLE", on(grpc).on(u"POST"_s).answered(503).retry(80, 120));
    row("grpc: HTTP 429 without grpc-status maps to UNAVAILABLE", on(grpc).on(u"POST"_s).answered(429).retry(80, 120));
    row("grpc: HTTP 500 without grpc-status is UNKNOWN", on(grpc).on(u"POST"_s).answered(500).stop(u"server-error"_s));
    row("grpc: HTTP 503 with grpc-status 2 is UNKNOWN", on(grpc).on(u"POST"_s).answered(503).header("grpc-status", "2").stop());
    row("grpc: a refused connection is UNAVAILABLE", on(grpc).on(u"POST"_s).failed(u"refused"_s).retry(80, 120));
    row("grpc: a lost connection is UNAVAILABLE", on(grpc).on(u"POST"_s).failed(u"connection-lost"_s).retry(80, 120));
    row("grpc: a response timeout is DEADLINE_EXCEEDED", on(grpc).on(u"POST"_s).failed(u"response-timeout"_s).stop(u"network"_s));
    row("grpc: a malformed answer is INTERNAL", on(grpc).on(u"POST"_s).failed(u"protocol"_s).stop(u"network"_s));
    row("grpc: pushback 250 ms is waited exactly",
        on(grpc).answered(200).header("grpc-status", "14").header("grpc-retry-pushback-ms", "250").retry(250, 250, u"hint"_s));
    row("grpc: a negative pushback means don't retry",
        on(grpc).answered(200).header("grpc-status", "14").header("grpc-retry-pushback-ms", "-1").stop());
    row("grpc: an unparseable pushback means don't retry",
        on(grpc).answered(200).header("grpc-status", "14").header("grpc-retry-pushback-ms", "soon").stop());
    row("grpc: several pushback values mean don't retry",
        on(grpc).answered(200).header("grpc-status", "14").header("grpc-retry-pushback-ms", "100").header("grpc-retry-pushback-ms", "200").stop());
    // Tokens as the budget holds them before this failure, which takes one first (gRFC A6).
    row("grpc: retry throttling refuses at maxTokens/2 (6 of 10, 5 after this failure)",
        on(grpc).answered(200).header("grpc-status", "14").throttlingAt(6.0).stop(u"budget-exhausted"_s));
    row("grpc: retry throttling allows above maxTokens/2 (6.1 of 10, 5.1 after this failure)",
        on(grpc).answered(200).header("grpc-status", "14").throttlingAt(6.1).retry(80, 120));
    row("grpc: maxAttempts 4 (attempt 4 is the last)", on(grpc).answered(503).at(4).stop(u"server-error"_s));

    // ---- §4a urllib3 ---------------------------------------------------------------------------------
    const QString u3 = u"urllib3"_s;
    row("urllib3: connect error (dns) retried for POST, first retry waits 0", on(u3).on(u"POST"_s).failed(u"dns"_s).retry(0, 0));
    row("urllib3: connect error (refused) retried for POST", on(u3).on(u"POST"_s).failed(u"refused"_s).retry(0, 0));
    row("urllib3: connect timeout retried for PATCH", on(u3).on(u"PATCH"_s).failed(u"connect-timeout"_s).retry(0, 0));
    row("urllib3: SSLError is \"other\": retried, not method-gated", on(u3).on(u"POST"_s).failed(u"tls"_s).retry(0, 0));
    row("urllib3: read timeout retried for GET", on(u3).failed(u"response-timeout"_s).retry(0, 0));
    row("urllib3: read error (reset) retried for PUT", on(u3).on(u"PUT"_s).failed(u"connection-lost"_s).retry(0, 0));
    row("urllib3: ProtocolError retried for DELETE", on(u3).on(u"DELETE"_s).failed(u"protocol"_s).retry(0, 0));
    row("urllib3: read timeout not retried for POST", on(u3).on(u"POST"_s).failed(u"response-timeout"_s).stop(u"network"_s));
    row("urllib3: read error not retried for PATCH", on(u3).on(u"PATCH"_s).failed(u"connection-lost"_s).stop(u"network"_s));
    row("urllib3: 503 without Retry-After is not retried (empty status_forcelist)", on(u3).answered(503).stop(u"server-error"_s));
    row("urllib3: 503 with Retry-After is retried and waits it", ra(on(u3).answered(503), "2").retry(2000, 2000, u"retry-after"_s));
    row("urllib3: 429 with Retry-After is retried", ra(on(u3).answered(429), "1").retry(1000, 1000, u"retry-after"_s));
    row("urllib3: 413 with Retry-After is retried", ra(on(u3).on(u"PUT"_s).answered(413), "3").retry(3000, 3000, u"retry-after"_s));
    row("urllib3: 500 with Retry-After is not (not in RETRY_AFTER_STATUS_CODES)", ra(on(u3).answered(500), "1").stop(u"server-error"_s));
    row("urllib3: POST 503 with Retry-After is not (method-gated)", ra(on(u3).on(u"POST"_s).answered(503), "1").stop(u"server-error"_s));
    row("urllib3: Retry-After 0 falls back to the backoff", ra(on(u3).answered(503), "0").at(2).retry(1000, 1000, u"backoff"_s));
    row("urllib3: Retry-After is capped at retry_after_max (6 h)",
        ra(on(u3).answered(503), "100000").retry(21600000, 21600000, u"retry-after"_s));
    row("urllib3: backoff 0, then factor·2^(k−1): 1 s", on(u3).failed(u"dns"_s).at(2).retry(1000, 1000));
    row("urllib3: total=3 (attempt 4 is the last)", on(u3).failed(u"dns"_s).at(4).stop(u"network"_s));

    // ---- §4b tenacity -----------------------------------------------------------------------------------
    const QString ten = u"tenacity-random-exponential"_s;
    row("tenacity: any exception is retried (400 raised)", on(ten).on(u"POST"_s).answered(400).retry(0, 1000));
    row("tenacity: any exception is retried (dns)", on(ten).failed(u"dns"_s).retry(0, 1000));
    row("tenacity: a returned result is a success", on(ten).answered(200).success());
    row("tenacity: U(0, min(2^(n−1), 60) s): retry 5 under 16 s", on(ten).answered(503).at(5).retry(0, 16000));
    row("tenacity: stop_after_attempt(6)", on(ten).answered(503).at(6).stop(u"server-error"_s));

    // ---- §5 curl -------------------------------------------------------------------------------------
    const QString curl = u"curl"_s;
    for (int s : { 408, 429, 500, 502, 503, 504, 522, 524 }) {
        const QByteArray name = "curl: HTTP " + QByteArray::number(s) + " is transient";
        QTest::newRow(name.constData()) << on(curl).answered(s).retry(1000, 1000);
    }
    row("curl: 501 is not transient", on(curl).answered(501).stop(u"server-error"_s));
    row("curl: 404 is not transient", on(curl).answered(404).stop(u"client-error"_s));
    row("curl: no method gating (POST 503)", on(curl).on(u"POST"_s).answered(503).retry(1000, 1000));
    row("curl: DNS failure is transient", on(curl).failed(u"dns"_s).retry(1000, 1000));
    row("curl: CURLE_OPERATION_TIMEDOUT is transient", on(curl).failed(u"response-timeout"_s).retry(1000, 1000));
    row("curl: a connect timeout is CURLE_OPERATION_TIMEDOUT", on(curl).failed(u"connect-timeout"_s).retry(1000, 1000));
    row("curl: ECONNREFUSED needs --retry-connrefused", on(curl).failed(u"refused"_s).stop(u"network"_s));
    row("curl: TLS needs --retry-all-errors", on(curl).failed(u"tls"_s).stop(u"network"_s));
    row("curl: an empty reply needs --retry-all-errors", on(curl).failed(u"connection-lost"_s).stop(u"network"_s));
    row("curl: Retry-After is honoured", ra(on(curl).answered(503), "5").retry(5000, 5000, u"retry-after"_s));
    row("curl: Retry-After 0 falls back to the backoff", ra(on(curl).answered(429), "0").retry(1000, 1000, u"backoff"_s));
    row("curl: Retry-After is capped at 6 h", ra(on(curl).answered(429), "30000").retry(21600000, 21600000, u"retry-after"_s));
    row("curl: doubling: retry 4 waits 8 s", on(curl).answered(503).at(4).retry(8000, 8000));
    row("curl: --retry 7 (attempt 8 is the last)", on(curl).answered(503).at(8).stop(u"server-error"_s));

    // ---- §6 Envoy ------------------------------------------------------------------------------------
    const QString envoy = u"envoy"_s;
    row("envoy: 5xx: 503 is retried, U[0, 25 ms)", on(envoy).answered(503).retry(0, 25));
    row("envoy: 5xx: 500 is retried", on(envoy).on(u"POST"_s).answered(500).retry(0, 25));
    row("envoy: 5xx: 501 is retried", on(envoy).answered(501).retry(0, 25));
    row("envoy: 429 is not (retriable-status-codes off)", on(envoy).answered(429).stop(u"rate-limited"_s));
    row("envoy: 409 is not (retriable-4xx off)", on(envoy).answered(409).stop(u"client-error"_s));
    row("envoy: 5xx includes connect-failure (refused)", on(envoy).failed(u"refused"_s).retry(0, 25));
    row("envoy: 5xx includes a reset", on(envoy).on(u"POST"_s).failed(u"connection-lost"_s).retry(0, 25));
    row("envoy: no per_try_timeout: a timed-out request is not retried", on(envoy).failed(u"response-timeout"_s).stop(u"network"_s));
    row("envoy: num_retries 1 (attempt 2 is the last)", on(envoy).answered(503).at(2).stop(u"server-error"_s));
    row("envoy: the 15 s route timeout includes retries", on(envoy).answered(503).elapsed(15001).stop(u"deadline"_s));
    row("envoy: Retry-After is ignored without reset_headers", ra(on(envoy).answered(503), "2").retry(0, 25, u"backoff"_s));

    // ---- §7a go-retryablehttp ------------------------------------------------------------------------------
    const QString rhttp = u"go-retryablehttp"_s;
    row("go-retryablehttp: 429 is retried, 1 s", on(rhttp).answered(429).retry(1000, 1000));
    row("go-retryablehttp: 500 is retried", on(rhttp).on(u"POST"_s).answered(500).retry(1000, 1000));
    row("go-retryablehttp: 501 is not", on(rhttp).answered(501).stop(u"server-error"_s));
    row("go-retryablehttp: 502 is retried", on(rhttp).answered(502).retry(1000, 1000));
    row("go-retryablehttp: 599 is retried", on(rhttp).answered(599).retry(1000, 1000));
    row("go-retryablehttp: 404 is not", on(rhttp).answered(404).stop(u"client-error"_s));
    row("go-retryablehttp: a transport error is retried (dns)", on(rhttp).on(u"POST"_s).failed(u"dns"_s).retry(1000, 1000));
    row("go-retryablehttp: a transport error is retried (reset)", on(rhttp).failed(u"connection-lost"_s).retry(1000, 1000));
    row("go-retryablehttp: a TLS certificate error is not", on(rhttp).failed(u"tls"_s).stop(u"network"_s));
    row("go-retryablehttp: Retry-After on 429 is not capped by RetryWaitMax",
        ra(on(rhttp).answered(429), "3600").retry(3600000, 3600000, u"retry-after"_s));
    row("go-retryablehttp: Retry-After on 503 is honoured", ra(on(rhttp).answered(503), "3").retry(3000, 3000, u"retry-after"_s));
    row("go-retryablehttp: Retry-After on 500 is ignored", ra(on(rhttp).answered(500), "3").retry(1000, 1000, u"backoff"_s));
    row("go-retryablehttp: RetryMax 4 (attempt 5 is the last)", on(rhttp).answered(503).at(5).stop(u"server-error"_s));

    // ---- §7b cenkalti/backoff ------------------------------------------------------------------------------
    const QString cb = u"cenkalti-backoff"_s;
    row("cenkalti-backoff: an operation error is retried, 0.25–0.75 s", on(cb).answered(503).retry(250, 750));
    row("cenkalti-backoff: any error, a 400 too", on(cb).on(u"POST"_s).answered(400).retry(250, 750));
    row("cenkalti-backoff: a transport error", on(cb).failed(u"dns"_s).retry(250, 750));
    row("cenkalti-backoff: success ends it", on(cb).answered(200).success());
    row("cenkalti-backoff: MaxElapsedTime 15 min stops before a wait that would pass it",
        on(cb).answered(503).elapsed(900000).stop(u"deadline"_s));
    row("cenkalti-backoff: RetryAfter(seconds) sets the next delay", ra(on(cb).answered(429), "30").retry(30000, 30000, u"retry-after"_s));
    row("cenkalti-backoff: RetryAfter past MaxElapsedTime gives up instead of waiting",
        ra(on(cb).answered(429), "600").elapsed(850000).stop(u"deadline"_s));
    row("cenkalti-backoff: the cap applies before randomization (up to 1.5 × 60 s)",
        on(cb).answered(503).at(13).retry(30000, 90000));

    // ---- §8 resilience4j --------------------------------------------------------------------------------
    const QString r4j = u"resilience4j"_s;
    row("resilience4j: every exception is retried, fixed 500 ms", on(r4j).failed(u"connection-lost"_s).retry(500, 500));
    row("resilience4j: a thrown 4xx is retried", on(r4j).on(u"POST"_s).answered(400).retry(500, 500));
    row("resilience4j: a result is not retried", on(r4j).answered(200).success());
    row("resilience4j: maxAttempts 3 (attempt 2 retried)", on(r4j).answered(503).at(2).retry(500, 500));
    row("resilience4j: maxAttempts 3 (attempt 3 is the last)", on(r4j).answered(503).at(3).stop(u"server-error"_s));

    // ---- §9 Stripe ---------------------------------------------------------------------------------------
    const QString stripe = u"stripe"_s;
    row("stripe: ≥ 500 is retried, max(0.5 s, 0.5 s·U(0.5, 1))", on(stripe).on(u"POST"_s).withAutoKey().answered(500).retry(500, 500));
    row("stripe: 409 is retried", on(stripe).on(u"POST"_s).withAutoKey().answered(409).retry(500, 500));
    row("stripe: 429 without Stripe-Should-Retry stops", on(stripe).answered(429).stop(u"rate-limited"_s));
    row("stripe: Stripe-Should-Retry: true retries a 429",
        on(stripe).answered(429).header("Stripe-Should-Retry", "true").retry(500, 500));
    row("stripe: Stripe-Should-Retry: true retries a 400", on(stripe).answered(400).header("Stripe-Should-Retry", "true").retry(500, 500));
    row("stripe: Stripe-Should-Retry: false stops a 503",
        on(stripe).answered(503).header("Stripe-Should-Retry", "false").stop(u"server-error"_s));
    row("stripe: Stripe-Should-Retry: false on a 200 is still a success",
        on(stripe).answered(200).header("Stripe-Should-Retry", "false").success());
    row("stripe: a connection error is retried", on(stripe).on(u"POST"_s).failed(u"connection-lost"_s).retry(500, 500));
    row("stripe: a timeout is retried", on(stripe).failed(u"response-timeout"_s).retry(500, 500));
    row("stripe: an SSL error is not (stripe-python)", on(stripe).failed(u"tls"_s).stop(u"network"_s));
    row("stripe: 404 stops", on(stripe).answered(404).stop(u"client-error"_s));
    row("stripe: second retry U(0.5, 1) s", on(stripe).answered(503).at(2).retry(500, 1000));
    row("stripe: max_network_retries 2 (attempt 3 is the last)", on(stripe).answered(503).at(3).stop(u"server-error"_s));
    row("stripe: a key on every POST, bare", on(stripe).setting(u"idempotency"_s, QJsonObject { { u"auto"_s, true },
        { u"methods"_s, QJsonArray { u"POST"_s } }, { u"header"_s, u"Idempotency-Key"_s }, { u"format"_s, u"bare"_s }, { u"prefix"_s, u""_s } }));
    row("stripe: Retry-After is not read", ra(on(stripe).answered(503), "9").retry(500, 500, u"backoff"_s));
}

void TestSystemPresets::decisions()
{
    QFETCH(SystemCase, c);
    const std::optional<RetryPolicy> loaded = loadWith(c.preset, c.overrides);
    QVERIFY2(loaded, qPrintable(c.preset));
    const RetryPolicy& policy = *loaded;
    if (!c.settingPath.isEmpty()) {
        QCOMPARE(valueAt(policyToJson(policy), c.settingPath), c.settingValue);
        return;
    }
    const RetryDecision d0 = decideAt(policy, c, 0.0);
    const RetryDecision d1 = decideAt(policy, c, 1.0);
    QVERIFY(!d0.reason.isEmpty());
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actualSummary(c, d0, d1), expectedSummary(c));
}

void TestSystemPresets::delays_data()
{
    QTest::addColumn<DelayCase>("c");
    const auto row = [](const char* name, const QString& preset, QList<qint64> low, QList<qint64> high,
                         QList<QPair<QString, QJsonValue>> overrides = {}, bool throttling = false, const QString& gap = {}) {
        QTest::newRow(name) << DelayCase { preset, overrides, throttling, low, high, gap };
    };
    // The cheat-sheet of retry-systems.md, row by row (draws pinned at 0 → low, at 1 → high).
    row("cheat-sheet: Polly Exponential, no jitter, D = 2 s", u"polly"_s, { 2000, 4000, 8000, 16000 }, { 2000, 4000, 8000, 16000 },
        { { u"backoff.kind"_s, u"exponential"_s } });
    row("cheat-sheet: Polly Exponential + jitter (decorrelated-V2)", u"polly"_s, { 0, 2754, 2920, 5731 }, { 2754, 2920, 5731, 11435 },
        { { u"backoff.kind"_s, u"decorrelated-v2"_s } });
    row("cheat-sheet: MEHR Exponential + jitter (decorrelated-V2)", u"ms-http-resilience"_s, { 0, 2754, 2920, 5731 },
        { 2754, 2920, 5731, 11435 });
    row("cheat-sheet: AWS standard (botocore) U(0,1), U(0,2), U(0,4), U(0,8)", u"aws-standard"_s, { 0, 0, 0, 0 }, { 1000, 2000, 4000, 8000 });
    row("cheat-sheet: AWS adaptive backs off as standard", u"aws-adaptive"_s, { 0, 0, 0, 0 }, { 1000, 2000, 4000, 8000 });
    row("cheat-sheet: AWS legacy U(0,1)·2^(n−1), no cap", u"aws-standard"_s, { 0, 0, 0, 0, 0, 0 }, { 1000, 2000, 4000, 8000, 16000, 32000 },
        { { u"backoff.cap_ms"_s, QJsonValue(QJsonValue::Null) } });
    row("cheat-sheet: AWS standard caps at 20 s (retries 5 and 6)", u"aws-standard"_s, { 0, 0, 0, 0, 0, 0 },
        { 1000, 2000, 4000, 8000, 16000, 20000 });
    row("cheat-sheet: AWS standard (Go v2 classic) U(0,2), U(0,4), U(0,8), U(0,16)", u"aws-standard"_s, { 0, 0, 0, 0 },
        { 2000, 4000, 8000, 16000 }, { { u"backoff.exponent_offset"_s, 1 } });
    row("cheat-sheet: AWS standard (Go v2 classic) 20 s fixed, no jitter, from retry 5", u"aws-standard"_s, { 0, 0, 0, 0, 20000 },
        { 2000, 4000, 8000, 16000, 20000 }, { { u"backoff.exponent_offset"_s, 1 } }, false,
        u"Go v2 returns exactly maxBackoff without jitter once attempt > log2(20); the model jitters the capped ceiling"_s);
    row("cheat-sheet: AWS 2026, non-throttle U(0,.05), U(0,.1), U(0,.2), U(0,.4)", u"aws-standard"_s, { 0, 0, 0, 0 }, { 50, 100, 200, 400 },
        { { u"backoff.base_ms"_s, 50 }, { u"backoff.throttling_base_ms"_s, 1000 } });
    row("AWS 2026, throttling errors start at 1 s", u"aws-standard"_s, { 0, 0, 0, 0 }, { 1000, 2000, 4000, 8000 },
        { { u"backoff.base_ms"_s, 50 }, { u"backoff.throttling_base_ms"_s, 1000 } }, true);
    row("cheat-sheet: gRPC 0.1 s / ×2 / 1 s max", u"grpc"_s, { 80, 160, 320, 640, 800 }, { 120, 240, 480, 960, 1200 });
    row("cheat-sheet: urllib3 factor 0.5: 0, 1, 2, 4 s", u"urllib3"_s, { 0, 1000, 2000, 4000 }, { 0, 1000, 2000, 4000 });
    row("tenacity wait_random_exponential(1, 60): U(0,1), U(0,2), U(0,4), U(0,8)", u"tenacity-random-exponential"_s, { 0, 0, 0, 0 },
        { 1000, 2000, 4000, 8000 });
    row("cheat-sheet: curl 1, 2, 4, 8 s", u"curl"_s, { 1000, 2000, 4000, 8000 }, { 1000, 2000, 4000, 8000 });
    row("cheat-sheet: Envoy (code) U[0,25), U[0,50), U[0,100), U[0,200), then 250 ms max", u"envoy"_s, { 0, 0, 0, 0, 0 },
        { 25, 50, 100, 200, 250 });
    row("Envoy draws whole ms below the interval (random % interval)", u"envoy"_s, { 0, 0, 0, 0 }, { 24, 49, 99, 199 }, {}, false,
        u"the model's full jitter reaches the ceiling; Envoy's random % interval tops out one millisecond below"_s);
    row("cheat-sheet: go-retryablehttp 1, 2, 4, 8 s, capped at 30 s", u"go-retryablehttp"_s, { 1000, 2000, 4000, 8000, 16000, 30000 },
        { 1000, 2000, 4000, 8000, 16000, 30000 });
    row("cheat-sheet: cenkalti 0.25–0.75, 0.375–1.125, 0.56–1.69, 0.84–2.53", u"cenkalti-backoff"_s, { 250, 375, 562, 843 },
        { 750, 1125, 1687, 2531 });
    row("cheat-sheet: resilience4j default 500 ms", u"resilience4j"_s, { 500, 500, 500, 500 }, { 500, 500, 500, 500 });
    row("resilience4j ofExponentialRandomBackoff(500, 1.5, 0.5): +1 ms at the top, truncation per step", u"resilience4j"_s,
        { 250, 375, 562, 843 }, { 751, 1126, 1688, 2531 },
        { { u"backoff.kind"_s, u"exponential"_s }, { u"backoff.multiplier"_s, 1.5 }, { u"jitter.kind"_s, u"proportional"_s },
            { u"jitter.factor"_s, 0.5 }, { u"jitter.floor_ms"_s, 1 } },
        false, u"randomize() draws over 2·rf·I + 1 (one ms wider) and ofExponentialBackoff truncates I at every step"_s);
    row("cheat-sheet: Stripe python 0.5, U(.5,1), U(1,2), U(2,4)", u"stripe"_s, { 500, 500, 1000, 2000 }, { 500, 1000, 2000, 4000 });
    row("cheat-sheet: Stripe node 0.5, 0.5, U(.5,1), U(1,2)", u"stripe"_s, { 500, 500, 500, 1000 }, { 500, 500, 1000, 2000 },
        { { u"backoff.exponent_offset"_s, -1 } });
    row("Stripe caps at U(2.5, 5) s", u"stripe"_s, { 500, 500, 1000, 2000, 2500, 2500 }, { 500, 1000, 2000, 4000, 5000, 5000 });
}

void TestSystemPresets::delays()
{
    QFETCH(DelayCase, c);
    const std::optional<RetryPolicy> loaded = loadWith(c.preset, c.overrides);
    QVERIFY2(loaded, qPrintable(c.preset));
    const QString actual = actualDelays(*loaded, c);
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actual, expectedDelays(c));
}

void TestSystemPresets::sequences_data()
{
    QTest::addColumn<SequenceCase>("c");
    const Step unavailable = status(200, "grpc-status", "14");
    Step pushback = unavailable;
    pushback.headers.append({ QByteArray("grpc-retry-pushback-ms"), QByteArray("500") });

    QTest::newRow("grpc: a pushback resets the exponent") << SequenceCase { u"grpc"_s, u"POST"_s, 1.0,
        { unavailable, unavailable, pushback }, { u"retry 120 via backoff"_s, u"retry 240 via backoff"_s, u"retry 500 via hint"_s }, {} };
    QTest::newRow("grpc: after a pushback the backoff starts again at initialBackoff") << SequenceCase { u"grpc"_s, u"POST"_s, 1.0,
        { unavailable, pushback, unavailable }, { u"retry 120 via backoff"_s, u"retry 500 via hint"_s, u"retry 120 via backoff"_s }, {} };
    QTest::newRow("cenkalti-backoff: RetryAfter resets the backoff (v5)") << SequenceCase { u"cenkalti-backoff"_s, u"GET"_s, 1.0,
        { status(503), status(503), status(429, "Retry-After", "2"), status(503) },
        { u"retry 750 via backoff"_s, u"retry 1125 via backoff"_s, u"retry 2000 via retry-after"_s, u"retry 750 via backoff"_s }, {} };
    QTest::newRow("urllib3: Retry-After 0 falls back to 0, then factor·2") << SequenceCase { u"urllib3"_s, u"GET"_s, 1.0,
        { status(503, "Retry-After", "0"), status(503, "Retry-After", "0"), status(503, "Retry-After", "0"), status(503, "Retry-After", "0") },
        { u"retry 0 via backoff"_s, u"retry 1000 via backoff"_s, u"retry 2000 via backoff"_s, u"stop"_s }, {} };
    QTest::newRow("curl: a Retry-After sleep does not advance the doubling") << SequenceCase { u"curl"_s, u"GET"_s, 1.0,
        { status(503, "Retry-After", "3"), status(503), status(503) },
        { u"retry 3000 via retry-after"_s, u"retry 1000 via backoff"_s, u"retry 2000 via backoff"_s }, {} };
    QTest::newRow("polly: decorrelated-V2 keeps prev for the whole execution") << SequenceCase { u"ms-http-resilience"_s, u"GET"_s, 1.0,
        { status(503), status(503), status(503), status(503) },
        { u"retry 2754 via backoff"_s, u"retry 2920 via backoff"_s, u"retry 5731 via backoff"_s, u"stop"_s }, {} };
}

void TestSystemPresets::sequences()
{
    QFETCH(SequenceCase, c);
    const std::optional<RetryPolicy> loaded = loadWith(c.preset, {});
    QVERIFY2(loaded, qPrintable(c.preset));
    const QStringList actual = actualSequence(*loaded, c);
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actual, c.expected);
}

QTEST_GUILESS_MAIN(TestSystemPresets)
#include "tst_systempresets.moc"
