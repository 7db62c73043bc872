// SPDX-License-Identifier: GPL-3.0-or-later
// RetryInference: which exchanges are one logical request, by which rule (core/observe/retryinference.h).
#include "observe/retryinference.h"

#include "exchangebuilder.h"

#include <QTest>

using namespace Qt::StringLiterals;
using B = ExchangeBuilder;

Q_DECLARE_METATYPE(QList<LabExchange>)

namespace {

// "1,3|2,4": the request ids of each run, runs in the order they began.
QString groupsOf(const QList<ObservedRun>& runs)
{
    QStringList groups;
    for (const ObservedRun& run : runs) {
        QStringList ids;
        for (const ObservedAttempt& a : run.attempts)
            ids << QString::number(a.exchange.requestId);
        groups << ids.join(u',');
    }
    return groups.join(u'|');
}

QString rulesOf(const QList<ObservedRun>& runs)
{
    QStringList rules;
    for (const ObservedRun& run : runs)
        rules << run.grouping.rule + (run.grouping.heuristic ? u"?"_s : QString());
    return rules.join(u'|');
}

} // namespace

class TestRetryInference : public QObject
{
    Q_OBJECT
private slots:
    void groups_data()
    {
        QTest::addColumn<QList<LabExchange>>("exchanges");
        QTest::addColumn<QString>("groups");
        QTest::addColumn<QString>("rules"); // "?" marks a heuristic grouping

        // (1) attempt headers of known clients
        QTest::addRow("X-Retrylab-Attempt RUN;attempt=N, two runs interleaved (core/engine/requestheaders.cpp)")
            << QList<LabExchange> { B(1, 0).header("X-Retrylab-Attempt", "aaaa;attempt=1").status(503),
                   B(2, 5).header("X-Retrylab-Attempt", "bbbb;attempt=1").status(503),
                   B(3, 300).header("X-Retrylab-Attempt", "aaaa;attempt=2"),
                   B(4, 310).header("X-Retrylab-Attempt", "bbbb;attempt=2") }
            << u"1,3|2,4"_s << u"attempt-header|attempt-header"_s;
        QTest::addRow("amz-sdk-invocation-id + amz-sdk-request attempt=N; max=3, interleaved (@smithy/core retry)")
            << QList<LabExchange> { B(1, 0).header("amz-sdk-invocation-id", "u-1").header("amz-sdk-request", "attempt=1; max=3").status(500),
                   B(2, 1).header("amz-sdk-invocation-id", "u-2").header("amz-sdk-request", "attempt=1; max=3").status(500),
                   B(3, 90).header("amz-sdk-invocation-id", "u-2").header("amz-sdk-request", "attempt=2; max=3"),
                   B(4, 95).header("amz-sdk-invocation-id", "u-1").header("amz-sdk-request", "attempt=2; max=3").status(500),
                   B(5, 400).header("amz-sdk-invocation-id", "u-1").header("amz-sdk-request", "attempt=3; max=3") }
            << u"1,4,5|2,3"_s << u"attempt-header|attempt-header"_s;
        QTest::addRow("x-stainless-retry-count 0,1 chained per body, two clients interleaved (openai-node src/client.ts)")
            << QList<LabExchange> { B(1, 0).method("POST").body("{\"a\":1}").header("X-Stainless-Retry-Count", "0").status(429),
                   B(2, 2).method("POST").body("{\"b\":2}").header("X-Stainless-Retry-Count", "0").status(429),
                   B(3, 400).method("POST").body("{\"b\":2}").header("X-Stainless-Retry-Count", "1"),
                   B(4, 450).method("POST").body("{\"a\":1}").header("X-Stainless-Retry-Count", "1") }
            << u"1,4|2,3"_s << u"attempt-header|attempt-header"_s;
        QTest::addRow("x-stainless-retry-count 0 again is a new request, even after a failure")
            << QList<LabExchange> { B(1, 0).header("x-stainless-retry-count", "0").status(503),
                   B(2, 500).header("x-stainless-retry-count", "0") }
            << u"1|2"_s << u"attempt-header|attempt-header"_s;
        QTest::addRow("grpc-previous-rpc-attempts, absent on the first attempt (gRFC A6)")
            << QList<LabExchange> { B(1, 0).method("POST").target("/svc.Echo/Say").status(503),
                   B(2, 200).method("POST").target("/svc.Echo/Say").header("grpc-previous-rpc-attempts", "1").status(503),
                   B(3, 600).method("POST").target("/svc.Echo/Say").header("grpc-previous-rpc-attempts", "2") }
            << u"1,2,3"_s << u"attempt-header"_s;
        QTest::addRow("Retry-Attempt on retries only (Microsoft Graph RetryHandler.ts)")
            << QList<LabExchange> { B(1, 0).status(429).answer("Retry-After", "1"), B(2, 1100).header("Retry-Attempt", "1") }
            << u"1,2"_s << u"attempt-header"_s;
        QTest::addRow("x-envoy-attempt-count 1, 2 (Envoy include_request_attempt_count)")
            << QList<LabExchange> { B(1, 0).header("x-envoy-attempt-count", "1").status(503),
                   B(2, 30).header("x-envoy-attempt-count", "2") }
            << u"1,2"_s << u"attempt-header"_s;
        QTest::addRow("x-ms-client-request-id kept across the Retry phase (@azure/core-rest-pipeline)")
            << QList<LabExchange> { B(1, 0).header("x-ms-client-request-id", "c-9").status(503),
                   B(2, 10).header("x-ms-client-request-id", "c-8"), B(3, 800).header("x-ms-client-request-id", "c-9") }
            << u"1,3|2"_s << u"attempt-header|attempt-header"_s;
        QTest::addRow("x-goog-api-client gccl-invocation-id/UUID (@google-cloud/storage)")
            << QList<LabExchange> { B(1, 0).header("x-goog-api-client", "gl-node/20.1.0 gccl/7.22.0-CJS gccl-invocation-id/inv-1").status(503),
                   B(2, 1000).header("x-goog-api-client", "gl-node/20.1.0 gccl/7.22.0-CJS gccl-invocation-id/inv-1") }
            << u"1,2"_s << u"attempt-header"_s;
        QTest::addRow("an attempt header outranks an Idempotency-Key")
            << QList<LabExchange> { B(1, 0).method("POST").header("Idempotency-Key", "k").header("X-Retrylab-Attempt", "r1;attempt=1"),
                   B(2, 10).method("POST").header("Idempotency-Key", "k").header("X-Retrylab-Attempt", "r2;attempt=1") }
            << u"1|2"_s << u"attempt-header|attempt-header"_s;

        // (2) the same Idempotency-Key
        QTest::addRow("Idempotency-Key: the same key at any distance in time, interleaved (Stripe)")
            << QList<LabExchange> { B(1, 0).method("POST").header("Idempotency-Key", "k1").status(500),
                   B(2, 5).method("POST").header("Idempotency-Key", "k2"),
                   B(3, 700000).method("POST").header("Idempotency-Key", "k1") }
            << u"1,3|2"_s << u"idempotency-key|idempotency-key"_s;
        QTest::addRow("Idempotency-Key as an sf-string is the same key as bare (draft-ietf-httpapi-idempotency-key-header)")
            << QList<LabExchange> { B(1, 0).method("POST").header("Idempotency-Key", "\"k1\"").reset(),
                   B(2, 50).method("POST").header("Idempotency-Key", "k1") }
            << u"1,2"_s << u"idempotency-key"_s;
        QTest::addRow("Idempotency-Key repeated after a success is still the same request (a duplicate)")
            << QList<LabExchange> { B(1, 0).method("POST").header("Idempotency-Key", "k1"), B(2, 50).method("POST").header("Idempotency-Key", "k1") }
            << u"1,2"_s << u"idempotency-key"_s;

        // (3) the fingerprint, after a failed answer, within the window
        QTest::addRow("fingerprint: repeated after a 503")
            << QList<LabExchange> { B(1, 0).status(503), B(2, 1020).status(503), B(3, 3050) } << u"1,2,3"_s << u"fingerprint?"_s;
        QTest::addRow("fingerprint: repeated after a 200 is a new request")
            << QList<LabExchange> { B(1, 0), B(2, 1000) } << u"1|2"_s << u"fingerprint?|fingerprint?"_s;
        QTest::addRow("fingerprint: repeated after a 404 is a new request")
            << QList<LabExchange> { B(1, 0).status(404), B(2, 1000) } << u"1|2"_s << u"fingerprint?|fingerprint?"_s;
        QTest::addRow("fingerprint: after a reset")
            << QList<LabExchange> { B(1, 0).reset(), B(2, 100) } << u"1,2"_s << u"fingerprint?"_s;
        QTest::addRow("fingerprint: after the client hung up on a hang")
            << QList<LabExchange> { B(1, 0).clientGoneAt(5000), B(2, 5200) } << u"1,2"_s << u"fingerprint?"_s;
        QTest::addRow("fingerprint: beyond the 5 min window is a new request")
            << QList<LabExchange> { B(1, 0).status(503), B(2, 20 + 300001) } << u"1|2"_s << u"fingerprint?|fingerprint?"_s;
        QTest::addRow("fingerprint: another client address is another client")
            << QList<LabExchange> { B(1, 0).status(503), B(2, 100).client(u"10.0.0.2"_s) } << u"1|2"_s << u"fingerprint?|fingerprint?"_s;
        QTest::addRow("fingerprint: another body is another request")
            << QList<LabExchange> { B(1, 0).method("POST").body("a").status(503), B(2, 100).method("POST").body("b") }
            << u"1|2"_s << u"fingerprint?|fingerprint?"_s;
        QTest::addRow("fingerprint: two clients on distinct targets, interleaved")
            << QList<LabExchange> { B(1, 0).target("/a").status(503), B(2, 1).target("/b").status(429), B(3, 40).target("/b"),
                   B(4, 50).target("/a").status(503), B(5, 90).target("/a") }
            << u"1,4,5|2,3"_s << u"fingerprint?|fingerprint?"_s;
        QTest::addRow("fingerprint: an older engine's bare attempt id is no evidence")
            << QList<LabExchange> { B(1, 0).header("X-Retrylab-Attempt", "5f0c").status(503), B(2, 100).header("X-Retrylab-Attempt", "77aa") }
            << u"1,2"_s << u"fingerprint?"_s;
        QTest::addRow("an unmarked repeat does not join a run its client numbered")
            << QList<LabExchange> { B(1, 0).header("x-stainless-retry-count", "0").status(503), B(2, 100) }
            << u"1|2"_s << u"attempt-header|fingerprint?"_s;
    }
    void groups()
    {
        QFETCH(QList<LabExchange>, exchanges);
        QFETCH(QString, groups);
        QFETCH(QString, rules);
        const QList<ObservedRun> runs = RetryInference::infer(exchanges);
        QCOMPARE(groupsOf(runs), groups);
        QCOMPARE(rulesOf(runs), rules);
        for (const ObservedRun& run : runs) {
            for (qsizetype i = 0; i < run.attempts.size(); ++i)
                QCOMPARE(run.attempts.at(i).index, int(i) + 1);
        }
        // The same exchanges in the order they ended (as the lab reports them live) group the same way.
        QList<LabExchange> byEnd = exchanges;
        std::stable_sort(byEnd.begin(), byEnd.end(),
            [](const LabExchange& a, const LabExchange& b) { return exchangeEndMs(a) < exchangeEndMs(b); });
        RetryInference live;
        for (const LabExchange& e : std::as_const(byEnd))
            live.add(e);
        QCOMPARE(groupsOf(live.runs()), groups);
        QCOMPARE(live.attemptCount(), exchanges.size());
    }

    void windowIsConfigurable()
    {
        InferenceOptions options;
        options.window = Millis(1000);
        const QList<ObservedRun> runs = RetryInference::infer({ B(1, 0).status(503), B(2, 1021) }, options);
        QCOMPARE(groupsOf(runs), u"1|2"_s);
        QCOMPARE(groupsOf(RetryInference::infer({ B(1, 0).status(503), B(2, 1019) }, options)), u"1,2"_s);
    }

    void waitsAndAsks_data()
    {
        QTest::addColumn<QList<LabExchange>>("exchanges");
        QTest::addColumn<qint64>("waitMs"); // of the second attempt
        QTest::addColumn<QString>("askedBy");
        QTest::addColumn<qint64>("askedMs"); // -1: nothing asked
        QTest::addRow("from the end of the answer: 0.21 s where Retry-After said 2 s (RFC 9110 §10.2.3)")
            << QList<LabExchange> { B(1, 0, 100).status(503).answer("Retry-After", "2"), B(2, 310) } << qint64(210) << u"retry-after"_s << qint64(2000);
        QTest::addRow("Retry-After as an IMF-fixdate, against the answer's Date")
            << QList<LabExchange> { B(1, 0, 100).status(503).answer("Date", "Sun, 06 Nov 1994 08:49:37 GMT").answer("Retry-After", "Sun, 06 Nov 1994 08:49:42 GMT"), B(2, 5200) }
            << qint64(5100) << u"retry-after"_s << qint64(5000);
        QTest::addRow("retry-after-ms (openai-python's field)")
            << QList<LabExchange> { B(1, 0, 100).status(429).answer("retry-after-ms", "250"), B(2, 360) } << qint64(260) << u"retry-after-ms"_s << qint64(250);
        QTest::addRow("an exhausted IETF RateLimit quota's reset (draft-ietf-httpapi-ratelimit-headers)")
            << QList<LabExchange> { B(1, 0, 100).status(429).answer("RateLimit-Policy", "\"default\";q=10;w=60").answer("RateLimit", "\"default\";r=0;t=30"), B(2, 30100) }
            << qint64(30000) << u"ratelimit-reset"_s << qint64(30000);
        QTest::addRow("a quota with units left asks for nothing")
            << QList<LabExchange> { B(1, 0, 100).status(503).answer("RateLimit-Policy", "\"default\";q=10;w=60").answer("RateLimit", "\"default\";r=5;t=30"), B(2, 200) }
            << qint64(100) << QString() << qint64(-1);
        QTest::addRow("from the moment the client hung up on a hang")
            << QList<LabExchange> { B(1, 0).clientGoneAt(5000), B(2, 5250) } << qint64(250) << QString() << qint64(-1);
        QTest::addRow("from a reset: when the lab closed the connection")
            << QList<LabExchange> { B(1, 0).reset(50), B(2, 170) } << qint64(120) << QString() << qint64(-1);
        QTest::addRow("from a reset the lab did not time: the last moment it saw")
            << QList<LabExchange> { B(1, 0).reset(), B(2, 101) } << qint64(100) << QString() << qint64(-1);
    }
    void waitsAndAsks()
    {
        QFETCH(QList<LabExchange>, exchanges);
        QFETCH(qint64, waitMs);
        QFETCH(QString, askedBy);
        QFETCH(qint64, askedMs);
        const QList<ObservedRun> runs = RetryInference::infer(exchanges);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().attempts.size(), 2);
        QVERIFY(!runs.first().attempts.first().clientWait);
        const ObservedAttempt& second = runs.first().attempts.at(1);
        QVERIFY(second.clientWait);
        QCOMPARE(std::chrono::duration_cast<Millis>(*second.clientWait).count(), waitMs);
        if (askedMs < 0) {
            QVERIFY(!second.askedBefore);
        } else {
            QVERIFY(second.askedBefore);
            QCOMPARE(second.askedBefore->by, askedBy);
            QCOMPARE(second.askedBefore->delay.count(), askedMs);
        }
    }
};

QTEST_GUILESS_MAIN(TestRetryInference)
#include "tst_retryinference.moc"
