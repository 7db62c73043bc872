// SPDX-License-Identifier: GPL-3.0-or-later
// readAttemptEvidence: the attempt headers real clients send, read as they write them.
#include "observe/attemptevidence.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestAttemptEvidence : public QObject
{
    Q_OBJECT
private slots:
    void reads_data()
    {
        QTest::addColumn<HttpHeaderList>("headers");
        QTest::addColumn<QByteArray>("header"); // empty: no evidence
        QTest::addColumn<QByteArray>("runId");
        QTest::addColumn<int>("attempt"); // 0: unknown
        QTest::addColumn<int>("max"); // 0: unknown

        QTest::addRow("Retrylab RUN;attempt=N (core/engine/requestheaders.cpp attemptIdFor)")
            << HttpHeaderList { { "X-Retrylab-Attempt", "3b1e-77;attempt=2" } } << QByteArray("x-retrylab-attempt") << QByteArray("3b1e-77") << 2 << 0;
        QTest::addRow("Retrylab bare UUID (engines before the run part): not evidence")
            << HttpHeaderList { { "X-Retrylab-Attempt", "3b1e-77" } } << QByteArray() << QByteArray() << 0 << 0;
        QTest::addRow("Retrylab attempt=0: not evidence")
            << HttpHeaderList { { "X-Retrylab-Attempt", "r;attempt=0" } } << QByteArray() << QByteArray() << 0 << 0;
        QTest::addRow("AWS: attempt=${attempts + 1}; max=${maxAttempts} (@smithy/core retry index.js)")
            << HttpHeaderList { { "amz-sdk-invocation-id", "9b5c" }, { "amz-sdk-request", "attempt=2; max=3" } }
            << QByteArray("amz-sdk-invocation-id") << QByteArray("9b5c") << 2 << 3;
        QTest::addRow("AWS: parameters in any order and spacing")
            << HttpHeaderList { { "AMZ-SDK-INVOCATION-ID", " 9b5c " }, { "amz-sdk-request", "max=5;attempt=4" } }
            << QByteArray("amz-sdk-invocation-id") << QByteArray("9b5c") << 4 << 5;
        QTest::addRow("AWS: the id alone still groups")
            << HttpHeaderList { { "amz-sdk-invocation-id", "9b5c" } } << QByteArray("amz-sdk-invocation-id") << QByteArray("9b5c") << 0 << 0;
        QTest::addRow("Stainless: retry count 0 is the first attempt (openai-node buildHeaders)")
            << HttpHeaderList { { "X-Stainless-Retry-Count", "0" } } << QByteArray("x-stainless-retry-count") << QByteArray() << 1 << 0;
        QTest::addRow("Stainless: retry count 2 is the third attempt")
            << HttpHeaderList { { "x-stainless-retry-count", "2" } } << QByteArray("x-stainless-retry-count") << QByteArray() << 3 << 0;
        QTest::addRow("Stainless: not a number")
            << HttpHeaderList { { "x-stainless-retry-count", "two" } } << QByteArray() << QByteArray() << 0 << 0;
        QTest::addRow("Stainless: negative")
            << HttpHeaderList { { "x-stainless-retry-count", "-1" } } << QByteArray() << QByteArray() << 0 << 0;
        QTest::addRow("gRPC: 1 previous attempt is the second (gRFC A6)")
            << HttpHeaderList { { "grpc-previous-rpc-attempts", "1" } } << QByteArray("grpc-previous-rpc-attempts") << QByteArray() << 2 << 0;
        QTest::addRow("Envoy: attempt count 1 is the first")
            << HttpHeaderList { { "x-envoy-attempt-count", "1" } } << QByteArray("x-envoy-attempt-count") << QByteArray() << 1 << 0;
        QTest::addRow("Envoy: attempt count 0 is not one of its values")
            << HttpHeaderList { { "x-envoy-attempt-count", "0" } } << QByteArray() << QByteArray() << 0 << 0;
        QTest::addRow("Microsoft Graph: Retry-Attempt 1 is the second attempt (RetryHandler.ts)")
            << HttpHeaderList { { "Retry-Attempt", "1" } } << QByteArray("retry-attempt") << QByteArray() << 2 << 0;
        QTest::addRow("Azure: x-ms-client-request-id")
            << HttpHeaderList { { "x-ms-client-request-id", "c0ffee" } } << QByteArray("x-ms-client-request-id") << QByteArray("c0ffee") << 0 << 0;
        QTest::addRow("Google: gccl-invocation-id/ among the x-goog-api-client tokens")
            << HttpHeaderList { { "x-goog-api-client", "gl-node/20.1.0 gccl/7.22.0-CJS gccl-invocation-id/abc-1 gccl-gcs-cmd/x" } }
            << QByteArray("x-goog-api-client") << QByteArray("abc-1") << 0 << 0;
        QTest::addRow("Google: no invocation id")
            << HttpHeaderList { { "x-goog-api-client", "gl-node/20.1.0 gccl/7.22.0-CJS" } } << QByteArray() << QByteArray() << 0 << 0;
        QTest::addRow("the strongest first: Retrylab over Stainless")
            << HttpHeaderList { { "x-stainless-retry-count", "1" }, { "X-Retrylab-Attempt", "r;attempt=2" } }
            << QByteArray("x-retrylab-attempt") << QByteArray("r") << 2 << 0;
        QTest::addRow("curl, urllib3: nothing") << HttpHeaderList { { "User-Agent", "curl/7.88.1" }, { "Accept", "*/*" } }
                                               << QByteArray() << QByteArray() << 0 << 0;
    }
    void reads()
    {
        QFETCH(HttpHeaderList, headers);
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, runId);
        QFETCH(int, attempt);
        QFETCH(int, max);
        const std::optional<AttemptEvidence> e = readAttemptEvidence(headers);
        QCOMPARE(e.has_value(), !header.isEmpty());
        if (!e)
            return;
        QCOMPARE(e->header, header);
        QCOMPARE(e->runId, runId);
        QCOMPARE(e->attempt.value_or(0), attempt);
        QCOMPARE(e->maxAttempts.value_or(0), max);
        QVERIFY(e->describe().startsWith(QString::fromLatin1(header)));
    }

    void idempotencyKey_data()
    {
        QTest::addColumn<HttpHeaderList>("headers");
        QTest::addColumn<QByteArray>("key");
        QTest::addRow("bare (Stripe)") << HttpHeaderList { { "Idempotency-Key", "KG5LxwFBepaKHyUD" } } << QByteArray("KG5LxwFBepaKHyUD");
        QTest::addRow("sf-string (the draft)") << HttpHeaderList { { "idempotency-key", "\"8e03978e\"" } } << QByteArray("8e03978e");
        QTest::addRow("absent") << HttpHeaderList {} << QByteArray();
        QTest::addRow("twice: invalid (the draft: MUST NOT)")
            << HttpHeaderList { { "Idempotency-Key", "a" }, { "Idempotency-Key", "b" } } << QByteArray();
    }
    void idempotencyKey()
    {
        QFETCH(HttpHeaderList, headers);
        QFETCH(QByteArray, key);
        QCOMPARE(idempotencyKeyOf(headers), key);
    }
};

QTEST_GUILESS_MAIN(TestAttemptEvidence)
#include "tst_attemptevidence.moc"
