// SPDX-License-Identifier: GPL-3.0-or-later
//
// Presets exact to a version (issue 13 §4): where releases of one client part, each preset pins the
// release it was read from. Every row names the library file and version its rule comes from:
//  - curl: src/tool_operate.c and lib/http.c at 7.88.1 (Debian 12) against 8.17.0 and later;
//  - stripe-python: stripe/http_client.py 5.0.0 (Debian 12), stripe/_http_client.py 15.3.0 and 15.3.1;
//    stripe-node: cjs/RequestSender.js 23.1.0;
//  - AWS SDK for JavaScript v3: @smithy/core 3.41.1 dist-es/submodules/retry (StandardRetryStrategy.js,
//    DefaultRetryBackoffStrategy.js, retries-2026-config.js, parseRetryAfterHeader.js,
//    service-error-classification.js);
//  - the Stainless TypeScript SDKs: client.js of openai 7.59.0 and 6.49.0 and @anthropic-ai/sdk 1.15.0.
// Decisions pin every jitter draw at 0 and at 1 (the ends of the delay range); delays are a backoff's first
// retries; sequences are several attempts of one request sharing the backoff state.
// Rows marked as known gaps are expected failures: the library does one thing, the model cannot say it.

#include <QTest>

#include "presetrows.h"

using namespace Qt::StringLiterals;
using namespace presettest;

class TestVersionPresets : public QObject
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

namespace {

void curlRows()
{
    const auto row = [](const char* name, const PresetCase& c) { QTest::newRow(name) << c; };
    const auto ra = [](PresetCase c, const char* value) { return c.header("Retry-After", value); };
    const QString c7 = u"curl-7.88"_s;
    for (int s : { 408, 429, 500, 502, 503, 504 }) {
        const QByteArray name = "curl-7.88 (tool_operate.c 7.88.1): HTTP " + QByteArray::number(s) + " is transient";
        QTest::newRow(name.constData()) << on(c7).answered(s).retry(1000, 1000);
    }
    row("curl-7.88 (tool_operate.c 7.88.1): 522 is not transient yet", on(c7).answered(522).stop(u"server-error"_s));
    row("curl-7.88 (tool_operate.c 7.88.1): 524 is not transient yet", on(c7).answered(524).stop(u"server-error"_s));
    row("curl (tool_operate.c 8.17.0+): 522 is transient", on(u"curl"_s).answered(522).retry(1000, 1000));
    row("curl-7.88 (tool_operate.c 7.88.1): no method gating (POST 503)", on(c7).on(u"POST"_s).answered(503).retry(1000, 1000));
    row("curl-7.88 (tool_operate.c 7.88.1): a DNS failure is RETRY_TIMEOUT", on(c7).failed(u"dns"_s).retry(1000, 1000));
    row("curl-7.88 (tool_operate.c 7.88.1): ECONNREFUSED needs --retry-connrefused", on(c7).failed(u"refused"_s).stop(u"network"_s));
    row("curl-7.88 (tool_operate.c 7.88.1): Retry-After replaces the sleep", ra(on(c7).answered(503), "5").retry(5000, 5000, u"retry-after"_s));
    row("curl-7.88 (http.c 7.88.1): Retry-After has no 6 h limit", ra(on(c7).answered(429), "30000").retry(30000000, 30000000, u"retry-after"_s));
    row("curl (http.c 8.12.0+): Retry-After is clamped to 6 h", ra(on(u"curl"_s).answered(429), "30000").retry(21600000, 21600000, u"retry-after"_s));
    row("curl-7.88 (tool_operate.c 7.88.1): Retry-After 0 sleeps the backoff", ra(on(c7).answered(503), "0").retry(1000, 1000, u"backoff"_s));
    row("curl-7.88 (http.c 7.88.1): a Retry-After date 7 s ahead", ra(on(c7).answered(503), "Fri, 06 Nov 2026 12:00:07 GMT").retry(7000, 7000, u"retry-after"_s));
    // curl 7.88.1 itself sleeps forever here (tool_go_sleep polls with a negative timeout); the preset's
    // description names the gap, and the model waits the backoff.
    row("curl-7.88 (http.c 7.88.1): a past Retry-After date is read as 0: the model sleeps the backoff",
        ra(on(c7).answered(503), "Fri, 06 Nov 2026 11:59:00 GMT").retry(1000, 1000, u"backoff"_s));
    row("curl-7.88 (tool_operate.c 7.88.1): doubling, retry 4 waits 8 s", on(c7).answered(503).at(4).retry(8000, 8000));
    row("curl-7.88 (tool_main.h 7.88.1): RETRY_SLEEP_MAX 600 s", on(c7).setting(u"backoff.cap_ms"_s, 600000));
    row("curl-7.88 (tool_operate.c 7.88.1): --retry 7 (attempt 8 is the last)", on(c7).answered(503).at(8).stop(u"server-error"_s));
}

void stripeRows()
{
    const auto row = [](const char* name, const PresetCase& c) { QTest::newRow(name) << c; };
    const auto ra = [](PresetCase c, const char* value) { return c.header("Retry-After", value); };
    const QString s5 = u"stripe-python-5.0"_s, s153 = u"stripe-python-15.3"_s, node = u"stripe-node"_s;
    row("stripe-python-5.0 (http_client.py 5.0.0): Retry-After 3 is waited at least", ra(on(s5).answered(503), "3").retry(3000, 3000, u"retry-after"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): MAX_RETRY_AFTER 60 is honoured", ra(on(s5).answered(503), "60").retry(60000, 60000, u"retry-after"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): Retry-After 61 is ignored", ra(on(s5).answered(503), "61").retry(500, 500, u"backoff"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): int() refuses a date", ra(on(s5).answered(503), "Fri, 06 Nov 2026 12:00:07 GMT").retry(500, 500, u"backoff"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): Retry-After 0 leaves the backoff", ra(on(s5).answered(409), "0").retry(500, 500, u"backoff"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): max(Retry-After 1, U(1, 2) s) on retry 3",
        ra(on(s5).with(u"limits.max_retries"_s, 5).answered(503), "1").at(3).retry(1000, 2000, u"retry-after"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): int() refuses a fraction", ra(on(s5).answered(503), "1.5").retry(500, 500, u"backoff"_s)
        .knownGap(u"int(\"1.5\") raises ValueError, so the SDK ignores it; the model's seconds format reads fractions"_s));
    row("stripe-python-5.0 (http_client.py 5.0.0): an SSL error is not retried", on(s5).failed(u"tls"_s).stop(u"network"_s));
    row("stripe-python-5.0 (__init__.py 5.0.0 default 0; README: 2)", on(s5).answered(503).at(3).stop(u"server-error"_s));
    row("stripe-python-15.3 (_http_client.py 15.3.0): Retry-After 3 is waited at least", ra(on(s153).answered(500), "3").retry(3000, 3000, u"retry-after"_s));
    row("stripe-python-15.3 (_http_client.py 15.3.0): Retry-After 61 is ignored", ra(on(s153).answered(500), "61").retry(500, 500, u"backoff"_s));
    row("stripe (_http_client.py 15.3.1): Retry-After 3 is not waited", ra(on(u"stripe"_s).answered(500), "3").retry(500, 500, u"backoff"_s));
    row("stripe-node (RequestSender.js 23.1.0): a TLS error is retried", on(node).failed(u"tls"_s).retry(500, 500));
    row("stripe-node (RequestSender.js 23.1.0): second retry still 0.5 s", on(node).answered(503).at(2).retry(500, 500));
    row("stripe-node (RequestSender.js 23.1.0): Retry-After is not read", ra(on(node).answered(503), "9").retry(500, 500, u"backoff"_s));
    row("stripe-node (RequestSender.js 23.1.0): 429 without Stripe-Should-Retry stops", on(node).answered(429).stop(u"rate-limited"_s));
    row("stripe-node (RequestSender.js 23.1.0): Stripe-Should-Retry: true retries a 400",
        on(node).answered(400).header("Stripe-Should-Retry", "true").retry(500, 500));
    row("stripe-node (RequestSender.js 23.1.0): the key is stripe-node-retry-<uuid> on POST",
        on(node).setting(u"idempotency"_s, QJsonObject { { u"auto"_s, true }, { u"methods"_s, QJsonArray { u"POST"_s } },
            { u"header"_s, u"Idempotency-Key"_s }, { u"format"_s, u"bare"_s }, { u"prefix"_s, u"stripe-node-retry-"_s } }));
}

void awsRows()
{
    const auto row = [](const char* name, const PresetCase& c) { QTest::newRow(name) << c; };
    const auto ra = [](PresetCase c, const char* value) { return c.header("Retry-After", value); };
    const QString js = u"aws-js-v3"_s;
    row("aws-js-v3 (StandardRetryStrategy.js): 503 is TRANSIENT, U(0, 50 ms)", on(js).answered(503).quota(500).retry(0, 50));
    row("aws-js-v3 (service-error-classification.js): a bare 429 is THROTTLING, U(0, 1 s)", on(js).answered(429).quota(500).retry(0, 1000));
    row("aws-standard (botocore): a bare 429 is not retried", on(u"aws-standard"_s).answered(429).stop(u"rate-limited"_s));
    row("aws-js-v3 (constants.js): ThrottlingException is THROTTLING",
        on(js).answered(400).json(R"({"__type":"ThrottlingException"})").retry(0, 1000));
    row("aws-js-v3 (constants.js): SlowDown in X-Amzn-ErrorType is THROTTLING", on(js).answered(503).header("X-Amzn-ErrorType", "SlowDown").retry(0, 1000));
    row("aws-js-v3 (constants.js): RequestTimeoutException is TRANSIENT", on(js).answered(400).json(R"({"__type":"RequestTimeoutException"})").retry(0, 50));
    row("aws-js-v3 (service-error-classification.js): 501 is SERVER_ERROR, not retried", on(js).answered(501).stop(u"server-error"_s));
    row("aws-js-v3 (StandardRetryStrategy.js): a ValidationException is CLIENT_ERROR", on(js).answered(400).json(R"({"__type":"ValidationException"})").stop(u"client-error"_s));
    for (const char* error : { "dns", "refused", "connect-timeout", "response-timeout", "connection-lost" }) {
        const QByteArray name = QByteArray("aws-js-v3 (constants.js NODEJS_*_ERROR_CODES): ") + error + " is retried";
        QTest::newRow(name.constData()) << on(js).on(u"POST"_s).failed(QString::fromLatin1(error)).retry(0, 50);
    }
    row("aws-js-v3 (constants.js): a TLS failure is not", on(js).failed(u"tls"_s).stop(u"network"_s));
    row("aws-js-v3 (config.js): DEFAULT_MAX_ATTEMPTS 3 (attempt 2 retried)", on(js).answered(503).at(2).retry(0, 100));
    row("aws-js-v3 (config.js): DEFAULT_MAX_ATTEMPTS 3 (attempt 3 is the last)", on(js).answered(503).at(3).stop(u"server-error"_s));
    row("aws-js-v3 (retries-2026-config.js): a retry costs 14 (14 left: retried)", on(js).answered(503).quota(14).retry(0, 50));
    row("aws-js-v3 (retries-2026-config.js): a retry costs 14 (13 left: refused)", on(js).answered(503).quota(13).stop(u"budget-exhausted"_s));
    row("aws-js-v3 (StandardRetryStrategy.js): a timeout costs 14 too", on(js).failed(u"response-timeout"_s).quota(13).stop(u"budget-exhausted"_s));
    row("aws-js-v3 (retries-2026-config.js): a throttling retry costs 5", on(js).answered(429).quota(5).retry(0, 1000));
    row("aws-js-v3 (StandardRetryStrategy.js): Retry-After 2 within t + 5 s is waited", ra(on(js).answered(503), "2").retry(2000, 2000, u"retry-after"_s));
    row("aws-js-v3 (StandardRetryStrategy.js): Retry-After 10 is held to t + 5 s", ra(on(js).answered(503), "10").retry(5000, 5050, u"retry-after"_s));
    row("aws-js-v3 (StandardRetryStrategy.js): after a throttle t is U(0, 1 s), so up to 6 s",
        ra(on(js).answered(429), "10").retry(5000, 6000, u"retry-after"_s));
    row("aws-js-v3 (parseRetryAfterHeader.js): a fraction of a second", ra(on(js).answered(503), "1.5").retry(1500, 1500, u"retry-after"_s));
    row("aws-js-v3 (parseRetryAfterHeader.js): a date 7 s ahead is held to t + 5 s",
        ra(on(js).answered(503), "Fri, 06 Nov 2026 12:00:07 GMT").retry(5000, 5050, u"retry-after"_s));
    row("aws-js-v3 (parseRetryAfterHeader.js): x-amz-retry-after is milliseconds", on(js).answered(503).header("x-amz-retry-after", "1500").retry(1500, 1500, u"hint"_s));
    row("aws-js-v3 (StandardRetryStrategy.js): a hint below the backoff leaves the backoff",
        on(js).answered(429).header("x-amz-retry-after", "100").retry(100, 1000, u"hint"_s));
    const QString adaptive = u"aws-js-v3-adaptive"_s;
    row("aws-js-v3-adaptive (AdaptiveRetryStrategy.js): the standard delays (503)", on(adaptive).answered(503).quota(500).retry(0, 50));
    row("aws-js-v3-adaptive (AdaptiveRetryStrategy.js): the standard quota (13 tokens refuse)", on(adaptive).answered(503).quota(13).stop(u"budget-exhausted"_s));
    row("aws-js-v3-adaptive (DefaultRateLimiter.js): a fresh client's first throttle holds the retry 2 s",
        on(adaptive).answered(429).quota(500).retry(2000, 2000)
            .knownGap(u"the CUBIC rate limiter switches on and its empty bucket fills at 0.5 tokens/s; the model has no client-side rate limiter"_s));
}

void stainlessRows()
{
    const auto row = [](const char* name, const PresetCase& c) { QTest::newRow(name) << c; };
    const auto ra = [](PresetCase c, const char* value) { return c.header("Retry-After", value); };
    const auto ms = [](PresetCase c, const char* value) { return c.header("retry-after-ms", value); };
    const QString o7 = u"openai-node"_s, o6 = u"openai-node-6.49"_s, an = u"anthropic-ts"_s;
    for (int s : { 408, 409, 429, 500, 503, 599 }) {
        const QByteArray name = "openai-node (client.js 7.59.0 shouldRetry): " + QByteArray::number(s) + " is retried, 0.5 s·U(0.75, 1)";
        QTest::newRow(name.constData()) << on(o7).on(u"POST"_s).answered(s).retry(375, 500);
    }
    row("openai-node (client.js 7.59.0): 400 is not retried", on(o7).answered(400).stop(u"client-error"_s));
    row("openai-node (client.js 7.59.0): x-should-retry: true retries a 400", on(o7).answered(400).header("x-should-retry", "true").retry(375, 500));
    row("openai-node (client.js 7.59.0): x-should-retry: false stops a 503", on(o7).answered(503).header("x-should-retry", "false").stop(u"server-error"_s));
    row("openai-node (client.js 7.59.0): x-should-retry is not read on a 2xx", on(o7).answered(200).header("x-should-retry", "true").success());
    row("openai-node (client.js 7.59.0): a refused connection is retried", on(o7).on(u"POST"_s).failed(u"refused"_s).retry(375, 500));
    row("openai-node (client.js 7.59.0): its own timeout is retried", on(o7).failed(u"response-timeout"_s).retry(375, 500));
    row("openai-node (client.js 7.59.0): retry-after-ms is waited", ms(on(o7).answered(429), "1500").retry(1500, 1500, u"retry-after-ms"_s));
    row("openai-node (client.js 7.59.0): retry-after-ms wins over Retry-After",
        ra(ms(on(o7).answered(429), "250"), "9").retry(250, 250, u"retry-after-ms"_s));
    row("openai-node (client.js 7.59.0): Retry-After 1.5 is parseFloat seconds", ra(on(o7).answered(429), "1.5").retry(1500, 1500, u"retry-after"_s));
    row("openai-node (client.js 7.59.0): Retry-After 60 is waited", ra(on(o7).answered(429), "60").retry(60000, 60000, u"retry-after"_s));
    row("openai-node (client.js 7.59.0): Retry-After 61 uses the backoff", ra(on(o7).answered(429), "61").retry(375, 500, u"backoff"_s));
    row("openai-node (client.js 7.59.0): Retry-After 0 is waited as 0", ra(on(o7).answered(429), "0").retry(0, 0, u"retry-after"_s));
    row("openai-node (client.js 7.59.0): a date 30 s ahead", ra(on(o7).answered(503), "Fri, 06 Nov 2026 12:00:30 GMT").retry(30000, 30000, u"retry-after"_s));
    row("openai-node (client.js 7.59.0): an unreadable Retry-After uses the backoff", ra(on(o7).answered(503), "soon").retry(375, 500, u"backoff"_s));
    row("openai-node (client.js 7.59.0): a past date uses the backoff", ra(on(o7).answered(503), "Fri, 06 Nov 2026 11:59:00 GMT").retry(375, 500, u"backoff"_s)
        .knownGap(u"Date.parse − now is negative, so the SDK backs off; the model reads a past date as 0 and waits 0"_s));
    row("openai-node (client.js 7.59.0): retry 2 is 1 s·U(0.75, 1)", on(o7).answered(503).at(2).retry(750, 1000));
    row("openai-node (client.js 7.59.0): maxRetries 2 (attempt 3 is the last)", on(o7).answered(503).at(3).stop(u"server-error"_s));
    row("openai-node (client.js 7.59.0): DEFAULT_TIMEOUT 10 minutes per attempt", on(o7).setting(u"limits.attempt_timeout_ms"_s, 600000));
    row("openai-node-6.49 (client.js 6.49.0): Retry-After 61 is waited", ra(on(o6).answered(429), "61").retry(61000, 61000, u"retry-after"_s));
    row("openai-node-6.49 (client.js 6.49.0): Retry-After 3600 is waited", ra(on(o6).answered(503), "3600").retry(3600000, 3600000, u"retry-after"_s));
    row("openai-node-6.49 (client.js 6.49.0): retry-after-ms 90000 is waited", ms(on(o6).answered(429), "90000").retry(90000, 90000, u"retry-after-ms"_s));
    row("openai-node-6.49 (client.js 6.49.0): a past date waits 0", ra(on(o6).answered(503), "Fri, 06 Nov 2026 11:59:00 GMT").retry(0, 0, u"retry-after"_s));
    row("openai-node-6.49 (client.js 6.49.0): an unreadable Retry-After retries at once", ra(on(o6).answered(503), "soon").retry(1, 1, u"retry-after"_s)
        .knownGap(u"Date.parse(\"soon\") is NaN and sleep(NaN) fires after 1 ms; the model ignores the value and backs off"_s));
    row("anthropic-ts (client.js 1.15.0): Retry-After 61 is waited", ra(on(an).answered(429), "61").retry(61000, 61000, u"retry-after"_s));
    row("anthropic-ts (client.js 1.15.0): Retry-After 0 uses the backoff", ra(on(an).answered(429), "0").retry(375, 500, u"backoff"_s));
    row("anthropic-ts (client.js 1.15.0): a past date uses the backoff", ra(on(an).answered(503), "Fri, 06 Nov 2026 11:59:00 GMT").retry(375, 500, u"backoff"_s));
    row("anthropic-ts (client.js 1.15.0): 2^31−1 ms is the most one timer waits",
        ms(on(an).answered(503), "2147483647").retry(2147483647, 2147483647, u"retry-after-ms"_s));
    row("anthropic-ts (client.js 1.15.0): more than one timer can hold uses the backoff", ms(on(an).answered(503), "2147483648").retry(375, 500, u"backoff"_s));
    row("anthropic-ts (client.js 1.15.0): retry-after-ms 0 falls through to Retry-After", ra(ms(on(an).answered(429), "0"), "3").retry(3000, 3000, u"retry-after"_s)
        .knownGap(u"!timeoutMillis treats 0 as absent and reads Retry-After; the model stops at the first hint that says 0"_s));
    row("anthropic-ts (client.js 1.15.0): x-should-retry: false stops a 429", on(an).answered(429).header("x-should-retry", "false").stop(u"rate-limited"_s));
}

} // namespace

void TestVersionPresets::decisions_data()
{
    QTest::addColumn<PresetCase>("c");
    curlRows();
    stripeRows();
    awsRows();
    stainlessRows();
}

void TestVersionPresets::decisions()
{
    QFETCH(PresetCase, c);
    const std::optional<RetryPolicy> loaded = loadWith(c.preset, c.overrides);
    QVERIFY2(loaded, qPrintable(c.preset));
    if (!c.settingPath.isEmpty()) {
        QCOMPARE(valueAt(policyToJson(*loaded), c.settingPath), c.settingValue);
        return;
    }
    const RetryDecision d0 = decideAt(*loaded, c, 0.0);
    const RetryDecision d1 = decideAt(*loaded, c, 1.0);
    QVERIFY(!d0.reason.isEmpty());
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actualSummary(c, d0, d1), expectedSummary(c));
}

void TestVersionPresets::delays_data()
{
    QTest::addColumn<DelayCase>("c");
    const auto row = [](const char* name, const QString& preset, QList<qint64> low, QList<qint64> high, bool throttling = false,
                         const QString& gap = {}) { QTest::newRow(name) << DelayCase { preset, {}, throttling, low, high, gap }; };
    row("curl-7.88 (tool_operate.c 7.88.1): 1, 2, 4, 8 s, then 600 s at most", u"curl-7.88"_s,
        { 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 600000 },
        { 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 600000 });
    row("stripe-python-5.0 (http_client.py 5.0.0): MAX_DELAY 2 s: 0.5, U(.5,1), U(1,2), U(1,2)", u"stripe-python-5.0"_s,
        { 500, 500, 1000, 1000, 1000 }, { 500, 1000, 2000, 2000, 2000 });
    row("stripe-python-15.3 (_http_client.py 15.3.0): MAX_DELAY 5 s", u"stripe-python-15.3"_s, { 500, 500, 1000, 2000, 2500 },
        { 500, 1000, 2000, 4000, 5000 });
    row("stripe-node (RequestSender.js 23.1.0): 0.5, 0.5, U(.5,1), U(1,2), U(2,4), U(2.5,5)", u"stripe-node"_s,
        { 500, 500, 500, 1000, 2000, 2500 }, { 500, 500, 1000, 2000, 4000, 5000 });
    row("aws-js-v3 (DefaultRetryBackoffStrategy.js): U(0, 50·2^i ms)", u"aws-js-v3"_s, { 0, 0, 0, 0 }, { 50, 100, 200, 400 });
    row("aws-js-v3 (retries-2026-config.js): throttling from 1 s to MAXIMUM_RETRY_DELAY 20 s", u"aws-js-v3"_s,
        { 0, 0, 0, 0, 0, 0 }, { 1000, 2000, 4000, 8000, 16000, 20000 }, true);
    row("aws-js-v3 (DefaultRetryBackoffStrategy.js): Math.floor(random()·x) stays below x", u"aws-js-v3"_s, { 0, 0, 0, 0 },
        { 49, 99, 199, 399 }, false, u"Math.random() < 1, so the floor tops out 1 ms below the ceiling; the model's full jitter reaches it"_s);
    row("openai-node (client.js 7.59.0): min(0.5·2^n, 8) s · (1 − 0.25·random())", u"openai-node"_s,
        { 375, 750, 1500, 3000, 6000, 6000 }, { 500, 1000, 2000, 4000, 8000, 8000 });
    row("anthropic-ts (client.js 1.15.0): the same backoff", u"anthropic-ts"_s, { 375, 750, 1500, 3000 }, { 500, 1000, 2000, 4000 });
}

void TestVersionPresets::delays()
{
    QFETCH(DelayCase, c);
    const std::optional<RetryPolicy> loaded = loadWith(c.preset, c.overrides);
    QVERIFY2(loaded, qPrintable(c.preset));
    const QString actual = actualDelays(*loaded, c);
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actual, expectedDelays(c));
}

void TestVersionPresets::sequences_data()
{
    QTest::addColumn<SequenceCase>("c");
    const auto row = [](const char* name, const QString& preset, QList<Step> steps, QStringList expected) {
        QTest::newRow(name) << SequenceCase { preset, u"GET"_s, 1.0, steps, expected, {} };
    };
    // Measured with Debian's curl 7.88.1 against a server answering these (tst_curlretrywaits does it in CTest).
    row("curl-7.88 (tool_operate.c 7.88.1): the doubling goes on under a Retry-After sleep", u"curl-7.88"_s,
        { status(503, "Retry-After", "1"), status(503), status(503) },
        { u"retry 1000 via retry-after"_s, u"retry 2000 via backoff"_s, u"retry 4000 via backoff"_s });
    row("curl (tool_operate.c 8.17.0+): the doubling waits out a Retry-After sleep", u"curl"_s,
        { status(503, "Retry-After", "1"), status(503), status(503) },
        { u"retry 1000 via retry-after"_s, u"retry 1000 via backoff"_s, u"retry 2000 via backoff"_s });
    row("curl-7.88 (tool_operate.c 7.88.1): Retry-After 0, then 1, then none", u"curl-7.88"_s,
        { status(429, "Retry-After", "0"), status(503, "Retry-After", "1"), status(503) },
        { u"retry 1000 via backoff"_s, u"retry 1000 via retry-after"_s, u"retry 4000 via backoff"_s });
    row("curl-7.88 (tool_operate.c 7.88.1): Retry-After shorter than the backoff still replaces it", u"curl-7.88"_s,
        { status(503), status(503), status(503, "Retry-After", "1"), status(503) },
        { u"retry 1000 via backoff"_s, u"retry 2000 via backoff"_s, u"retry 1000 via retry-after"_s, u"retry 8000 via backoff"_s });
    row("stripe-python-5.0 (http_client.py 5.0.0): Retry-After lengthens one wait, the backoff goes on", u"stripe-python-5.0"_s,
        { status(503), status(503, "Retry-After", "5"), status(503) },
        { u"retry 500 via backoff"_s, u"retry 5000 via retry-after"_s, u"stop"_s });
    row("aws-js-v3 (StandardRetryStrategy.js): throttling and transient errors each set the base", u"aws-js-v3"_s,
        { status(503), status(429), status(503) }, { u"retry 50 via backoff"_s, u"retry 2000 via backoff"_s, u"stop"_s });
    row("openai-node (client.js 7.59.0): the retry count, not the hint, sets the next backoff", u"openai-node"_s,
        { status(429, "retry-after-ms", "100"), status(503), status(503) },
        { u"retry 100 via retry-after-ms"_s, u"retry 1000 via backoff"_s, u"stop"_s });
}

void TestVersionPresets::sequences()
{
    QFETCH(SequenceCase, c);
    const std::optional<RetryPolicy> loaded = loadWith(c.preset, {});
    QVERIFY2(loaded, qPrintable(c.preset));
    const QStringList actual = actualSequence(*loaded, c);
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actual, c.expected);
}

QTEST_GUILESS_MAIN(TestVersionPresets)
#include "tst_versionpresets.moc"
