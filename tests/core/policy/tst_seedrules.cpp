// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every sentence of the seed documents (../shared/reference/seeds/000–004) that states a retry rule, as a
// named row run through decide() on its preset. A row gives the request (method, key, rewindable body,
// lost earlier answer), the attempt's outcome (status, headers, body, or an error class), the attempt
// number and the elapsed time; it expects a verdict and, where the sentence says so, the delay range (the
// jitter pinned at 0 and at 1, with every earlier draw pinned alike), the delay's source, the final kind and
// what the server asked for. Rows about a preset's settings compare the preset's JSON at a path.

#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "policy/rulematcher.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include "presetcase.h"

using namespace Qt::StringLiterals;
using namespace presettest;
using SeedCase = PresetCase;

class TestSeedRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rules_data();
    void rules();
};

void TestSeedRules::rules_data()
{
    QTest::addColumn<SeedCase>("c");
    const auto row = [](const char* name, const SeedCase& c) { QTest::newRow(name) << c; };
    const auto ra = [](SeedCase c, const char* value) { return c.header("Retry-After", value); };

    // ---- seed 000: PayMongo PHP package ----------------------------------------------------------------
    const QString pm = u"paymongo"_s;
    row("seed-000: any request is retried after a 429 (POST without key)", on(pm).on(u"POST"_s).answered(429).retry(0, 200));
    row("seed-000: any request is retried after a 429 (PATCH)", on(pm).on(u"PATCH"_s).answered(429).retry(0, 200));
    row("seed-000: POST retried when the host was not resolved", on(pm).on(u"POST"_s).failed(u"dns"_s).retry(0, 200));
    row("seed-000: PATCH retried when the connection was refused", on(pm).on(u"PATCH"_s).failed(u"refused"_s).retry(0, 200));
    row("seed-000: PUT retried when the TLS handshake failed", on(pm).on(u"PUT"_s).failed(u"tls"_s).retry(0, 200));
    row("seed-000: POST retried after a connect timeout (the connection never opened)",
        on(pm).on(u"POST"_s).failed(u"connect-timeout"_s).retry(0, 200));
    row("seed-000: GET retried after a 5xx", on(pm).answered(500).retry(0, 200));
    row("seed-000: DELETE retried after a 503", on(pm).on(u"DELETE"_s).answered(503).retry(0, 200));
    row("seed-000: POST with Idempotency-Key retried after a 502", on(pm).on(u"POST"_s).withKey().answered(502).retry(0, 200));
    row("seed-000: GET retried after a timeout", on(pm).failed(u"response-timeout"_s).retry(0, 200));
    row("seed-000: DELETE retried after a timeout", on(pm).on(u"DELETE"_s).failed(u"response-timeout"_s).retry(0, 200));
    row("seed-000: POST with Idempotency-Key retried after a timeout",
        on(pm).on(u"POST"_s).withKey().failed(u"response-timeout"_s).retry(0, 200));
    row("seed-000: the automatic key makes a POST retryable after a 5xx (PAYMONGO_AUTO_IDEMPOTENCY)",
        on(pm).on(u"POST"_s).withAutoKey().answered(503).retry(0, 200));
    row("seed-000: the package adds the key automatically while PAYMONGO_AUTO_IDEMPOTENCY is on",
        on(pm).setting(u"idempotency.auto"_s, true));
    row("seed-000: PUT not retried after 503", on(pm).on(u"PUT"_s).answered(503).stop(u"server-error"_s));
    row("seed-000: PATCH not retried after 500", on(pm).on(u"PATCH"_s).answered(500).stop(u"server-error"_s));
    row("seed-000: POST without a key not retried after 502", on(pm).on(u"POST"_s).answered(502).stop(u"server-error"_s));
    row("seed-000: PUT not retried after a timeout", on(pm).on(u"PUT"_s).failed(u"response-timeout"_s).stop(u"network"_s));
    row("seed-000: POST without a key not retried after a timeout",
        on(pm).on(u"POST"_s).failed(u"response-timeout"_s).stop(u"network"_s));
    row("seed-000: retried up to 2 times after the first attempt (attempt 2 retried)",
        on(pm).answered(503).at(2).retry(0, 400));
    row("seed-000: retried up to 2 times after the first attempt (attempt 3 is the last)",
        on(pm).answered(503).at(3).stop(u"server-error"_s));
    row("seed-000: the first wait is up to 200 ms, jittered", on(pm).failed(u"dns"_s).retry(0, 200));
    row("seed-000: the wait doubles on every retry", on(pm).failed(u"dns"_s).at(2).retry(0, 400));
    row("seed-000: never longer than 5000 ms (attempt 7, PAYMONGO_RETRIES=10)",
        on(pm).with(u"limits.max_retries"_s, 10).failed(u"dns"_s).at(7).retry(0, 5000));
    row("seed-000: a 429 with Retry-After waits that many seconds instead",
        ra(on(pm).answered(429), "2").retry(2000, 2000, u"retry-after"_s));
    row("seed-000: a 5xx with Retry-After waits that many seconds instead",
        ra(on(pm).answered(503), "3").retry(3000, 3000, u"retry-after"_s));
    row("seed-000: a Retry-After equal to the maximum wait is waited for",
        ra(on(pm).answered(429), "5").retry(5000, 5000, u"retry-after"_s));
    row("seed-000: a Retry-After longer than the maximum wait is not waited for",
        ra(on(pm).answered(429), "6").stop(u"retry-after-too-long"_s).serverAsked(6000));
    row("seed-000: a Retry-After on a PUT 503 does not make it retried",
        ra(on(pm).on(u"PUT"_s).answered(503), "1").stop(u"server-error"_s));
    row("seed-000: a DELETE retried after a timeout that then gets a 404 counts as deleted",
        on(pm).on(u"DELETE"_s).afterLostAnswer().answered(404).at(2).success());
    row("seed-000: a DELETE 404 with no lost answer before it is not a deletion",
        on(pm).on(u"DELETE"_s).answered(404).stop(u"client-error"_s));
    row("seed-000: once attempts run out the last 429 surfaces with retryAfter",
        ra(on(pm).on(u"POST"_s).answered(429), "2").at(3).stop(u"rate-limited"_s).serverAsked(2000));
    row("seed-000 test: a rate-limited GET waits Retry-After 2 s once",
        ra(on(pm).answered(429).json(R"({"errors":[{"code":"rate_limited","detail":"Too many requests."}]})"), "2")
            .retry(2000, 2000, u"retry-after"_s));
    row("seed-000: only Retry-After is read (a lone retry-after-ms is not)",
        on(pm).answered(429).header("retry-after-ms", "1500").retry(0, 200, u"backoff"_s));

    // ---- seed 001: Slen SDK --------------------------------------------------------------------------
    const QString slen = u"slen"_s;
    const char* busy = R"({"error":{"code":"service_unavailable"}})";
    row("seed-001: no answer (TimeoutException) is sent again after 200 ms ±25 %",
        on(slen).on(u"POST"_s).failed(u"response-timeout"_s).retry(150, 250));
    row("seed-001: no answer (ConnectionException, connection lost) is sent again",
        on(slen).on(u"POST"_s).failed(u"connection-lost"_s).retry(150, 250));
    row("seed-001: no answer (ConnectionException, refused) is sent again", on(slen).failed(u"refused"_s).retry(150, 250));
    row("seed-001: no answer (connect timeout) is sent again", on(slen).failed(u"connect-timeout"_s).retry(150, 250));
    row("seed-001: twice as long before each next repeat", on(slen).failed(u"response-timeout"_s).at(2).retry(300, 500));
    row("seed-001: at most five seconds, then shifted ±25 % (attempt 7, retries=10)",
        on(slen).with(u"limits.max_retries"_s, 10).failed(u"response-timeout"_s).at(7).retry(3750, 6250));
    row("seed-001: every pause is shifted by up to a quarter either way",
        on(slen).failed(u"dns"_s).retry(150, 250));
    row("seed-001: 429 waits what Retry-After asks, shifted ±25 % like every pause", ra(on(slen).answered(429), "12").retry(9000, 15000, u"retry-after"_s));
    row("seed-001: 429 Retry-After up to 30 seconds is waited (±25 %)", ra(on(slen).answered(429), "30").retry(22500, 37500, u"retry-after"_s));
    row("seed-001: 429 without Retry-After waits as after no answer", on(slen).answered(429).retry(150, 250));
    row("seed-001: 503 service_unavailable is sent again", on(slen).answered(503).json(busy).retry(150, 250));
    row("seed-001: 503 ledger_unavailable is sent again",
        on(slen).answered(503).json(R"({"error":{"code":"ledger_unavailable"}})").retry(150, 250));
    row("seed-001: 503 pool_exhausted is sent again", on(slen).answered(503).json(R"({"error":{"code":"pool_exhausted"}})").retry(150, 250));
    row("seed-001: 503 waits as after a 429 (Retry-After honoured)",
        ra(on(slen).answered(503).json(busy), "4").retry(3000, 5000, u"retry-after"_s));
    row("seed-001: 503 with another code is not sent again",
        on(slen).answered(503).json(R"({"error":{"code":"maintenance"}})").stop(u"server-error"_s));
    row("seed-001: 503 without a code is not sent again", on(slen).answered(503).stop(u"server-error"_s));
    row("seed-001: sent again as many times as retries says: twice (attempt 2 retried)",
        on(slen).failed(u"response-timeout"_s).at(2).retry(300, 500));
    row("seed-001: sent again as many times as retries says: twice (attempt 3 is the last)",
        on(slen).failed(u"response-timeout"_s).at(3).stop(u"network"_s));
    row("seed-001: retries 0 turns the repeats off",
        on(slen).with(u"limits.max_retries"_s, 0).failed(u"response-timeout"_s).stop(u"network"_s));
    row("seed-001: an answer asking to wait longer than 30 s is not waited for; retryAfterSeconds reports it",
        ra(on(slen).answered(429), "31").stop(u"retry-after-too-long"_s).serverAsked(31000));
    row("seed-001: a 503 asking to wait 2 minutes raises at once",
        ra(on(slen).answered(503).json(busy), "120").stop(u"retry-after-too-long"_s).serverAsked(120000));
    row("seed-001: when the repeats are used up the call raises the last error (429)",
        on(slen).answered(429).at(3).stop(u"rate-limited"_s));
    row("seed-001: every call may be sent again: a read", on(slen).failed(u"connection-lost"_s).retry(150, 250));
    row("seed-001: every call may be sent again: a change of a customer",
        on(slen).on(u"PATCH"_s).failed(u"connection-lost"_s).retry(150, 250));
    row("seed-001: a run carries an idempotency key and is sent again",
        on(slen).on(u"POST"_s).withAutoKey().failed(u"response-timeout"_s).retry(150, 250));
    row("seed-001: the SDK keys runs and movements of credits itself", on(slen).setting(u"idempotency.auto"_s, true));
    row("seed-001: a deletion answered 404 customer_not_found after no answer counts as done",
        on(slen).on(u"DELETE"_s).afterLostAnswer().answered(404).json(R"({"error":{"code":"customer_not_found"}})").at(2).success());
    row("seed-001: a 404 customer_not_found with no lost answer is raised",
        on(slen).on(u"DELETE"_s).answered(404).json(R"({"error":{"code":"customer_not_found"}})").stop(u"client-error"_s));
    row("seed-001: a 404 with another code after no answer is raised",
        on(slen).on(u"DELETE"_s).afterLostAnswer().answered(404).json(R"({"error":{"code":"not_found"}})").at(2).stop(u"client-error"_s));
    row("seed-001: 500 never sent again", on(slen).answered(500).stop(u"server-error"_s));
    row("seed-001: 502 never sent again", on(slen).answered(502).stop(u"server-error"_s));
    row("seed-001: 504 never sent again", on(slen).answered(504).stop(u"server-error"_s));
    row("seed-001: 500 never sent again, even with a retryable code",
        on(slen).on(u"POST"_s).answered(500).json(busy).stop(u"server-error"_s));
    row("seed-001: any other answer is raised at once: a refusal (403)", on(slen).answered(403).stop(u"client-error"_s));
    row("seed-001: any other answer is raised at once: a check of the request (422)", on(slen).answered(422).stop(u"client-error"_s));
    row("seed-001: any other answer is raised at once: a conflict (409)", on(slen).answered(409).stop(u"client-error"_s));
    row("seed-001: a Retry-After pause is shifted ±25 % too (every pause is shifted)",
        ra(on(slen).answered(429), "4").retry(3000, 5000, u"retry-after"_s));
    row("seed-001: executions.wait() sends each read once (retries 0 for that call)",
        on(slen).with(u"limits.max_retries"_s, 0).answered(503).json(busy).stop(u"server-error"_s));
    row("seed-001: timeout bounds one attempt: 65 s", on(slen).setting(u"limits.attempt_timeout_ms"_s, 65000));
    row("seed-001: connectTimeout: 5 s", on(slen).setting(u"limits.connect_timeout_ms"_s, 5000));
    row("seed-001: a timeout bounds one attempt, not the request with its repeats",
        on(slen).setting(u"limits.deadline_ms"_s, QJsonValue(QJsonValue::Null)));
    row("seed-001: a timeout that is not above zero is refused", on(slen).refused(u"limits.attempt_timeout_ms"_s, 0));
    row("seed-001: a negative number of repeats is refused", on(slen).refused(u"limits.max_retries"_s, -1));

    // ---- seed 002: RetryPolicy::standard() -----------------------------------------------------------
    const QString std9110 = u"rfc9110-standard"_s;
    row("seed-002: a GET that hits a 502 is tried again", on(std9110).answered(502).retry(0, 500));
    row("seed-002: a POST that hits a 502 isn't", on(std9110).on(u"POST"_s).answered(502).stop(u"server-error"_s));
    row("seed-002: answers are gated by method: a POST without a key is not retried after a 429",
        on(std9110).on(u"POST"_s).answered(429).stop(u"rate-limited"_s));
    row("seed-002: PATCH may have taken effect: not repeated after a 503",
        on(std9110).on(u"PATCH"_s).answered(503).stop(u"server-error"_s));
    row("seed-002: POST not repeated after its answer was lost",
        on(std9110).on(u"POST"_s).failed(u"connection-lost"_s).stop(u"network"_s));
    row("seed-002: RFC 9110 idempotent HEAD retried", on(std9110).on(u"HEAD"_s).answered(503).retry(0, 500));
    row("seed-002: RFC 9110 idempotent OPTIONS retried", on(std9110).on(u"OPTIONS"_s).answered(504).retry(0, 500));
    row("seed-002: RFC 9110 idempotent TRACE retried", on(std9110).on(u"TRACE"_s).answered(500).retry(0, 500));
    row("seed-002: RFC 9110 idempotent PUT retried", on(std9110).on(u"PUT"_s).failed(u"response-timeout"_s).retry(0, 500));
    row("seed-002: RFC 9110 idempotent DELETE retried", on(std9110).on(u"DELETE"_s).failed(u"connection-lost"_s).retry(0, 500));
    row("seed-002: a POST that never reached the server cannot have taken effect",
        on(std9110).on(u"POST"_s).failed(u"refused"_s).retry(0, 500));
    row("seed-002: a POST with an Idempotency-Key is safe to retry",
        on(std9110).on(u"POST"_s).withKey().answered(502).retry(0, 500));
    row("seed-002: a keyed POST is retried after its answer was lost",
        on(std9110).on(u"POST"_s).withKey().failed(u"response-timeout"_s).retry(0, 500));
    row("seed-002: Retry-After as seconds is honoured", ra(on(std9110).answered(503), "7").retry(7000, 7000, u"retry-after"_s));
    row("seed-002: Retry-After as an IMF-fixdate is honoured",
        ra(on(std9110).answered(503), "Fri, 06 Nov 2026 12:00:10 GMT").retry(10000, 10000, u"retry-after"_s));
    row("seed-002: Retry-After as an RFC 850 date is honoured",
        ra(on(std9110).answered(429), "Friday, 06-Nov-26 12:00:20 GMT").retry(20000, 20000, u"retry-after"_s));
    row("seed-002: Retry-After as an asctime date is honoured",
        ra(on(std9110).answered(503), "Fri Nov  6 12:00:30 2026").retry(30000, 30000, u"retry-after"_s));
    row("seed-002: retry-after-ms is read when Retry-After is absent",
        on(std9110).answered(503).header("retry-after-ms", "250").retry(250, 250, u"retry-after-ms"_s));
    row("seed-002: retry-after-ms is not read when Retry-After is present",
        ra(on(std9110).answered(503).header("retry-after-ms", "250"), "1").retry(1000, 1000, u"retry-after"_s));
    row("seed-002: without a hint the wait is random up to 0.5 s", on(std9110).answered(503).retry(0, 500));
    row("seed-002: the ceiling doubles: 1 s", on(std9110).answered(503).at(2).retry(0, 1000));
    row("seed-002: the ceiling doubles: 2 s (withMaxAttempts(5))",
        on(std9110).with(u"limits.max_attempts"_s, 5).answered(503).at(3).retry(0, 2000));
    row("seed-002: the ceiling stops at 8 seconds (withMaxAttempts(10), retry 6)",
        on(std9110).with(u"limits.max_attempts"_s, 10).answered(503).at(6).retry(0, 8000));
    row("seed-002: a Retry-After of 60 s (maxRetryAfter) is waited", ra(on(std9110).answered(429), "60").retry(60000, 60000, u"retry-after"_s));
    row("seed-002: a Retry-After longer than maxRetryAfter gives up, reporting how long",
        ra(on(std9110).answered(429), "61").stop(u"retry-after-too-long"_s).serverAsked(61000));
    row("seed-002: Retry-After over 60 s gives up, reporting how long",
        ra(on(std9110).answered(503), "Fri, 06 Nov 2026 12:05:00 GMT").stop(u"retry-after-too-long"_s).serverAsked(300000));
    row("seed-002: a deadline caps the whole sequence, waits included (withDeadline(30.0), wait crosses it)",
        ra(on(std9110).with(u"limits.deadline_ms"_s, 30000).answered(503), "5").elapsed(26000).stop(u"deadline"_s));
    row("seed-002: a deadline caps the whole sequence, waits included (wait fits)",
        ra(on(std9110).with(u"limits.deadline_ms"_s, 30000).answered(503), "3").elapsed(26000).retry(3000, 3000, u"retry-after"_s));
    row("seed-002: standard() has no deadline", on(std9110).setting(u"limits.deadline_ms"_s, QJsonValue(QJsonValue::Null)));
    row("seed-002: a body that can't be rewound is never sent twice",
        on(std9110).on(u"PUT"_s).bodyNotRewindable().answered(503).stop(u"body-not-rewindable"_s));
    row("seed-002: standard() makes 3 attempts in all (attempt 2 retried)", on(std9110).answered(503).at(2).retry(0, 1000));
    row("seed-002: standard() makes 3 attempts in all (attempt 3 is the last)", on(std9110).answered(503).at(3).stop(u"server-error"_s));
    row("seed-002: a small, deliberate attempt limit", on(std9110).setting(u"limits.max_attempts"_s, 3));
    row("seed-002: standard() retries a 429 whatever its body (AcmeRetries adds the plan-limit stop)",
        on(std9110).answered(429).json(R"({"error":"plan limit reached"})").retry(0, 500));
    row("seed-002: the default key format is the draft's quoted string", on(std9110).setting(u"idempotency.format"_s, u"quoted"_s));
    row("seed-002: the key travels in Idempotency-Key", on(std9110).setting(u"idempotency.header"_s, u"Idempotency-Key"_s));
    row("seed-002: the throttle waits until the reported reset (Throttle(maxWait: 30.0))",
        on(std9110).with(u"host_throttle.enabled"_s, true).answered(503).hostResetIn(10000).retry(10000, 10000, u"throttle"_s));
    row("seed-002: a reset further off than maxWait fails without sending",
        on(std9110).with(u"host_throttle.enabled"_s, true).answered(503).hostResetIn(45000).stop(u"rate-limited"_s));

    // ---- seed 003: checkout send() (final) and the .NET gateway ---------------------------------------
    const QString go = u"checkout-go"_s;
    row("seed-003: a network error is retried, waiting 0.2 s + jitter",
        on(go).on(u"POST"_s).failed(u"connection-lost"_s).retry(200, 300));
    row("seed-003: wait 0.4 s (+ jitter) before the third try", on(go).on(u"POST"_s).failed(u"refused"_s).at(2).retry(400, 500));
    row("seed-003: wait 0.8 s (+ jitter) before the fourth try", on(go).on(u"POST"_s).failed(u"dns"_s).at(3).retry(800, 900));
    row("seed-003: wait 1.6 s (+ jitter) before the fifth try",
        on(go).on(u"POST"_s).failed(u"response-timeout"_s).at(4).retry(1600, 1700));
    row("seed-003: five tries, then the last error", on(go).on(u"POST"_s).failed(u"connection-lost"_s).at(5).stop(u"network"_s));
    row("seed-003: a decline is final (402)", on(go).on(u"POST"_s).answered(402).stop(u"client-error"_s));
    row("seed-003: any HTTP answer is final, a 503 too", on(go).on(u"POST"_s).answered(503).stop(u"server-error"_s));
    row("seed-003: an accepted order is a success", on(go).on(u"POST"_s).answered(200).success());
    row("seed-003: a non-network error is final (TLS)", on(go).on(u"POST"_s).failed(u"tls"_s).stop(u"network"_s));
    row("seed-003: the final sleep after the fifth try is not wasted",
        on(go).on(u"POST"_s).failed(u"connection-lost"_s).at(5).retry(3200, 3300)
            .knownGap(u"send() sleeps backoff(5)+jitter() after the last try before returning; decide() stops at once"_s));
    const QString gw = u"polly-gateway"_s;
    row("seed-003 gateway: a transport failure (HttpRequestException) is retried, decorrelated jitter from 2 s",
        on(gw).on(u"POST"_s).failed(u"connection-lost"_s).retry(0, 2754));
    row("seed-003 gateway: DNS failure is an HttpRequestException, retried", on(gw).on(u"POST"_s).failed(u"dns"_s).retry(0, 2754));
    row("seed-003 gateway: four retries (attempt 4 retried)", on(gw).on(u"POST"_s).failed(u"refused"_s).at(4).retry(5731, 11435));
    row("seed-003 gateway: four retries (attempt 5 is the last)",
        on(gw).on(u"POST"_s).failed(u"refused"_s).at(5).stop(u"network"_s));
    row("seed-003 gateway: a 503 from PostAsJsonAsync is a result, not retried",
        on(gw).on(u"POST"_s).answered(503).stop(u"server-error"_s));
    row("seed-003 gateway: a 429 from PostAsJsonAsync is a result, not retried",
        on(gw).on(u"POST"_s).answered(429).stop(u"rate-limited"_s));
    row("seed-003 gateway: an HttpClient timeout is a cancellation, not handled",
        on(gw).on(u"POST"_s).failed(u"response-timeout"_s).stop(u"network"_s));

    // ---- seed 004: PIX retry card --------------------------------------------------------------------
    const QString pix = u"pix"_s;
    row("seed-004: one key before the loop, the same on every attempt", on(pix).setting(u"idempotency.auto"_s, true));
    row("seed-004: the key goes on the PIX POST", on(pix).setting(u"idempotency.methods"_s, QJsonArray { u"POST"_s }));
    row("seed-004: 5xx is transient (500)", on(pix).on(u"POST"_s).withAutoKey().answered(500).retry(0, 100));
    row("seed-004: 5xx is transient (503)", on(pix).on(u"POST"_s).withAutoKey().answered(503).retry(0, 100));
    row("seed-004: 429 is transient", on(pix).on(u"POST"_s).withAutoKey().answered(429).retry(0, 100));
    row("seed-004: 409 in progress is transient", on(pix).on(u"POST"_s).withAutoKey().answered(409).retry(0, 100));
    row("seed-004: TimeoutError is transient", on(pix).on(u"POST"_s).withAutoKey().failed(u"response-timeout"_s).retry(0, 100));
    row("seed-004: a connect timeout is transient", on(pix).on(u"POST"_s).failed(u"connect-timeout"_s).retry(0, 100));
    row("seed-004: a connection failure is transient (refused)", on(pix).on(u"POST"_s).failed(u"refused"_s).retry(0, 100));
    row("seed-004: a connection failure is transient (reset)", on(pix).on(u"POST"_s).failed(u"connection-lost"_s).retry(0, 100));
    row("seed-004: other 4xx are permanent (400)", on(pix).on(u"POST"_s).answered(400).stop(u"client-error"_s));
    row("seed-004: other 4xx are permanent (422 over the balance)", on(pix).on(u"POST"_s).answered(422).stop(u"client-error"_s));
    row("seed-004: an unknown error is permanent", on(pix).on(u"POST"_s).failed(u"protocol"_s).stop(u"network"_s));
    row("seed-004: delayBase × 2^(n−1): first wait under 100 ms", on(pix).on(u"POST"_s).answered(503).retry(0, 100));
    row("seed-004: delayBase × 2^(n−1): second wait under 200 ms", on(pix).on(u"POST"_s).answered(503).at(2).retry(0, 200));
    row("seed-004: delayBase × 2^(n−1): third wait under 400 ms", on(pix).on(u"POST"_s).answered(503).at(3).retry(0, 400));
    row("seed-004: capped at delayMax (attemptsMax 10, sixth wait)",
        on(pix).with(u"limits.max_attempts"_s, 10).on(u"POST"_s).answered(503).at(6).retry(0, 2000));
    row("seed-004: full jitter draws between zero and the capped exponential", on(pix).on(u"POST"_s).answered(429).at(2).retry(0, 200));
    row("seed-004: at most attemptsMax attempts, no wait after the last (503)",
        on(pix).on(u"POST"_s).answered(503).at(4).stop(u"server-error"_s));
    row("seed-004: the final error is the last attempt's (refused)",
        on(pix).on(u"POST"_s).failed(u"refused"_s).at(4).stop(u"network"_s));
    row("seed-004 scenario: the PSP answers the first attempt", on(pix).on(u"POST"_s).answered(200).success());
    row("seed-004 scenario: settled but answered too late is retried under the same key",
        on(pix).on(u"POST"_s).withAutoKey().failed(u"response-timeout"_s).retry(0, 100));
}

void TestSeedRules::rules()
{
    QFETCH(SeedCase, c);

    QJsonObject json = presetJson(c.preset);
    QVERIFY2(!json.isEmpty(), qPrintable(u"preset %1 does not load"_s.arg(c.preset)));
    for (const auto& [path, value] : c.overrides)
        json = setPath(json, path.split(u'.'), value);
    const PolicyParseResult parsed = policyFromJson(json);

    if (!c.invalidPath.isEmpty()) {
        QVERIFY(!parsed.ok());
        QStringList paths;
        for (const PolicyProblem& problem : parsed.problems)
            paths << problem.path;
        QVERIFY2(paths.contains(c.invalidPath), qPrintable(paths.join(u", "_s)));
        return;
    }
    QVERIFY2(parsed.ok(), qPrintable(parsed.problems.value(0).path + u": "_s + parsed.problems.value(0).message));
    const RetryPolicy& policy = *parsed.policy;

    if (!c.settingPath.isEmpty()) {
        QCOMPARE(valueAt(policyToJson(policy), c.settingPath), c.settingValue);
        return;
    }

    const RetryDecision d0 = decideAt(policy, c, 0.0);
    const RetryDecision d1 = decideAt(policy, c, 1.0);
    QVERIFY(!d0.reason.isEmpty());
    if (d0.verdict == Verdict::Retry && d0.source == DelaySource::Backoff) {
        QVERIFY2(d0.delayLow <= d0.delay && d0.delay <= d0.delayHigh, qPrintable(d0.reason));
        QVERIFY2(d1.delayLow <= d1.delay && d1.delay <= d1.delayHigh, qPrintable(d1.reason));
    }
    if (!c.gap.isEmpty())
        QEXPECT_FAIL("", qPrintable(c.gap), Continue);
    QCOMPARE(actualSummary(c, d0, d1), expectedSummary(c));
}

QTEST_GUILESS_MAIN(TestSeedRules)
#include "tst_seedrules.moc"
