// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/faultserver.h"
#include "lab/ratelimiter.h"

#include "labtestsupport.h"

#include <QTest>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

class TestRateLimiter : public QObject
{
    Q_OBJECT
private slots:
    void fixedWindow();
    void tokenBucketRefills();
    void dialectsOnTheWire_data();
    void dialectsOnTheWire();
    void spentAnswers429WithRetryAfter();
};

void TestRateLimiter::fixedWindow()
{
    RateLimitSpec spec;
    spec.algorithm = RateLimitSpec::Algorithm::FixedWindow;
    spec.limit = 2;
    spec.window = milliseconds(1000);
    RateLimiter limiter(spec);
    QVERIFY(limiter.consume(0).allowed);
    const RateLimitVerdict second = limiter.consume(100);
    QVERIFY(second.allowed);
    QCOMPARE(second.remaining, 0);
    const RateLimitVerdict third = limiter.consume(400);
    QVERIFY(!third.allowed);
    QCOMPARE(third.retryAfter, milliseconds(600));
    QVERIFY(limiter.consume(1000).allowed); // next window
}

void TestRateLimiter::tokenBucketRefills()
{
    RateLimitSpec spec;
    spec.algorithm = RateLimitSpec::Algorithm::TokenBucket;
    spec.limit = 2;
    spec.window = milliseconds(1000); // 2 tokens per second
    RateLimiter limiter(spec);
    QVERIFY(limiter.consume(0).allowed);
    QVERIFY(limiter.consume(0).allowed);
    const RateLimitVerdict spent = limiter.consume(0);
    QVERIFY(!spent.allowed);
    QCOMPARE(spent.retryAfter, milliseconds(500));
    QVERIFY(!limiter.consume(400).allowed);
    QVERIFY(limiter.consume(500).allowed);
}

void TestRateLimiter::dialectsOnTheWire_data()
{
    QTest::addColumn<QByteArray>("dialect");
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QByteArray>("value");
    QTest::addRow("ietf-11 RateLimit") << "ietf-11"_ba << "RateLimit"_ba << R"("default";r=2;t=60)"_ba;
    QTest::addRow("ietf-11 policy") << "ietf-11"_ba << "RateLimit-Policy"_ba << R"("default";q=3;w=60)"_ba;
    QTest::addRow("ietf-07 dictionary") << "ietf-07"_ba << "RateLimit"_ba << "limit=3, remaining=2, reset=60"_ba;
    QTest::addRow("legacy remaining") << "legacy"_ba << "RateLimit-Remaining"_ba << "2"_ba;
    QTest::addRow("legacy reset (delta)") << "legacy"_ba << "RateLimit-Reset"_ba << "60"_ba;
    QTest::addRow("x-ratelimit limit") << "x-ratelimit"_ba << "X-RateLimit-Limit"_ba << "3"_ba;
    QTest::addRow("github used") << "github"_ba << "x-ratelimit-used"_ba << "1"_ba;
    QTest::addRow("github resource") << "github"_ba << "x-ratelimit-resource"_ba << "core"_ba;
}

void TestRateLimiter::dialectsOnTheWire()
{
    QFETCH(QByteArray, dialect);
    QFETCH(QByteArray, field);
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond"}])",
        R"("rate_limit":{"algorithm":"fixed-window","limit":3,"window_ms":60000,"dialect":")" + dialect + R"("},)"));
    const RawExchange r = rawExchange(server.port(), simpleRequest("GET", "/x"));
    QCOMPARE(r.status(), 200);
    QTEST(r.header(field), "value");
}

void TestRateLimiter::spentAnswers429WithRetryAfter()
{
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(oneRoute(R"([{"kind":"respond"}])",
        R"("rate_limit":{"algorithm":"fixed-window","limit":1,"window_ms":3000,"dialect":"ietf-11","retry_after":"seconds"},)"));
    QCOMPARE(rawExchange(server.port(), simpleRequest("GET", "/x")).status(), 200);
    const RawExchange spent = rawExchange(server.port(), simpleRequest("GET", "/x"));
    QCOMPARE(spent.status(), 429);
    const int retryAfter = spent.header("Retry-After").toInt();
    QVERIFY(retryAfter >= 1 && retryAfter <= 3);
    QVERIFY(spent.header("RateLimit").contains(";r=0;"));
    QCOMPARE(server.ledger().operationsApplied(), 1); // the refused request applied nothing
}

QTEST_GUILESS_MAIN(TestRateLimiter)
#include "tst_ratelimiter.moc"
