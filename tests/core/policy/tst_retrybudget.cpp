// SPDX-License-Identifier: GPL-3.0-or-later
// Budgets shared across requests: the AWS retry quota and gRPC retry throttling (retry-systems.md §2b, §3).
#include "policy/retrybudget.h"

#include <QtTest>

class TestRetryBudget : public QObject
{
    Q_OBJECT
private slots:
    void awsQuota()
    {
        RetryQuota quota;
        quota.enabled = true; // retry-systems.md §2b: 500 tokens, 5 per retry, 10 per timeout retry, +1 on success
        RetryBudget budget(quota);
        QCOMPARE(budget.view().quotaTokens, 500);
        QVERIFY(budget.acquire(5));
        QVERIFY(budget.acquire(10));
        QCOMPARE(budget.quotaTokens(), 485);
        budget.recordSuccess(true, 15); // a success after retries refunds what it took
        QCOMPARE(budget.quotaTokens(), 500);
        QVERIFY(budget.acquire(5));
        budget.recordSuccess(false, 0); // a success without retries adds 1, never past capacity
        QCOMPARE(budget.quotaTokens(), 496);
        for (int i = 0; i < 99; ++i)
            QVERIFY(budget.acquire(5));
        QCOMPARE(budget.quotaTokens(), 1);
        QVERIFY(!budget.acquire(5)); // empty: the retry is refused and nothing is taken
        QCOMPARE(budget.quotaTokens(), 1);
    }

    void failuresRefundNothing()
    {
        RetryQuota quota;
        quota.enabled = true;
        RetryBudget budget(quota);
        QVERIFY(budget.acquire(5));
        budget.recordFailure();
        QCOMPARE(budget.quotaTokens(), 495);
    }

    void grpcThrottling()
    {
        RetryThrottling throttling;
        throttling.enabled = true;
        throttling.maxTokens = 10;
        throttling.tokenRatio = 0.1; // gRFC A6: −1 per failure, +ratio per success, retry while > max/2
        RetryBudget budget({}, throttling);
        for (int i = 0; i < 5; ++i)
            budget.recordFailure();
        QCOMPARE(budget.throttlingTokens(), 5.0);
        budget.recordSuccess(false, 0);
        QCOMPARE(budget.throttlingTokens(), 5.1);
        for (int i = 0; i < 100; ++i)
            budget.recordSuccess(false, 0);
        QCOMPARE(budget.throttlingTokens(), 10.0); // never above maxTokens
        for (int i = 0; i < 20; ++i)
            budget.recordFailure();
        QCOMPARE(budget.throttlingTokens(), 0.0); // never below 0
    }

    void disabledBudgetsAreInvisible()
    {
        RetryBudget budget;
        QVERIFY(!budget.view().quotaTokens);
        QVERIFY(!budget.view().throttlingTokens);
        QVERIFY(budget.acquire(1000));
    }
};

QTEST_GUILESS_MAIN(TestRetryBudget)
#include "tst_retrybudget.moc"
