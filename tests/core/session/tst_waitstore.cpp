// SPDX-License-Identifier: GPL-3.0-or-later
// The packed waits a live view holds (issue 11 §2: the live window's memory per attempt): every field of a
// wait and its decision reads back as it was appended (unset stays unset, a redirect keeps its URL), the
// accessors agree with at(), iteration yields every wait in order across chunks, and a wait costs well
// under the WaitInfo list it replaces.

#include "session/attemptwaits.h"
#include "session/store/waitstore.h"
#include "sessiontestdata.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class TestWaitStore : public QObject
{
    Q_OBJECT

private slots:
    void fieldsReadBack_data();
    void fieldsReadBack();
    void iterationAcrossChunks();
    void smallerThanTheList();
    void appendedAfterAnAttempt();
};

void TestWaitStore::fieldsReadBack_data()
{
    QTest::addColumn<WaitInfo>("wait");
    QTest::newRow("default") << WaitInfo();
    WaitInfo hinted;
    hinted.runId = 12;
    hinted.nextIndex = 3;
    hinted.scheduledAt = MonoTime(-1); // before the session's origin
    hinted.dueAt = MonoTime(9'223'372'036'854'775'807LL);
    RetryDecision& d = hinted.decision;
    d.verdict = Verdict::Retry;
    d.finalKind = FinalKind::None;
    d.delay = 2'000ms;
    d.ceiling = 400ms;
    d.delayLow = 0ms;
    d.delayHigh = 400ms;
    d.source = DelaySource::ServerHint;
    d.hintHeader = u"x-amz-retry-after"_s;
    d.serverAskedFor = 2'000ms;
    d.ruleName = u"throttled — «SlowDown»"_s;
    d.throttling = true;
    d.quotaCost = 5;
    d.reason = u"503 on PUT is retried; x-amz-retry-after 2 s honoured"_s;
    d.effects = { true, 5, false };
    QTest::newRow("a server hint, every field") << hinted;
    WaitInfo redirect;
    redirect.runId = 1;
    redirect.decision.verdict = Verdict::Retry;
    redirect.decision.redirectTo = QUrl(u"https://api.example.test/v2/orders?id=ä%20b#frag"_s);
    redirect.decision.serverAskedFor = 0ms; // asked for nothing is not "did not ask"
    redirect.decision.effects.success = true;
    QTest::newRow("a redirect") << redirect;
    WaitInfo emptyRedirect;
    emptyRedirect.decision.redirectTo = QUrl();
    QTest::newRow("an empty redirect target") << emptyRedirect;
}

void TestWaitStore::fieldsReadBack()
{
    QFETCH(WaitInfo, wait);
    WaitStore store;
    store.append(wait);
    QCOMPARE(store.size(), 1);
    const WaitInfo back = store.at(0);
    QCOMPARE(back.runId, wait.runId);
    QCOMPARE(back.nextIndex, wait.nextIndex);
    QCOMPARE(back.scheduledAt, wait.scheduledAt);
    QCOMPARE(back.dueAt, wait.dueAt);
    const RetryDecision& got = back.decision;
    const RetryDecision& want = wait.decision;
    QCOMPARE(got.verdict, want.verdict);
    QCOMPARE(got.finalKind, want.finalKind);
    QCOMPARE(got.delay, want.delay);
    QCOMPARE(got.ceiling, want.ceiling);
    QCOMPARE(got.delayLow, want.delayLow);
    QCOMPARE(got.delayHigh, want.delayHigh);
    QCOMPARE(got.source, want.source);
    QCOMPARE(got.hintHeader, want.hintHeader);
    QCOMPARE(got.serverAskedFor, want.serverAskedFor);
    QCOMPARE(got.ruleName, want.ruleName);
    QCOMPARE(got.throttling, want.throttling);
    QCOMPARE(got.quotaCost, want.quotaCost);
    QCOMPARE(got.reason, want.reason);
    QCOMPARE(got.redirectTo, want.redirectTo);
    QVERIFY(got.effects == want.effects);
    QCOMPARE(store.runId(0), wait.runId);
    QCOMPARE(store.nextIndex(0), wait.nextIndex);
    QCOMPARE(store.scheduledAt(0), wait.scheduledAt);
    QCOMPARE(store.dueAt(0), wait.dueAt);
    QCOMPARE(store.source(0), wait.decision.source);
}

void TestWaitStore::iterationAcrossChunks()
{
    WaitStore store;
    QVERIFY(store.begin() == store.end());
    const int n = 2500; // 1 024 a chunk
    for (int i = 0; i < n; ++i) {
        WaitInfo w;
        w.runId = i;
        w.nextIndex = 2 + i % 3;
        w.decision.delay = Millis(i);
        w.decision.reason = u"backoff %1"_s.arg(i % 7);
        store.append(w);
    }
    int seen = 0;
    for (const WaitInfo& w : store) {
        if (w.runId != seen || w.nextIndex != 2 + seen % 3 || w.decision.delay != Millis(seen)
            || w.decision.reason != u"backoff %1"_s.arg(seen % 7))
            QFAIL(qPrintable(u"wait %1 reads back as run %2"_s.arg(seen).arg(w.runId)));
        ++seen;
    }
    QCOMPARE(seen, n);
    store.clear();
    QVERIFY(store.isEmpty());
}

void TestWaitStore::smallerThanTheList()
{
    WaitStore store;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        WaitInfo w;
        w.runId = i;
        w.decision.verdict = Verdict::Retry;
        w.decision.source = DelaySource::Backoff;
        w.decision.delay = Millis(i % 1000);
        w.decision.reason = u"503 on GET is retried; backoff"_s;
        store.append(w);
    }
    const double perWait = double(store.memoryBytes()) / n;
    qInfo("%.1f bytes a wait (sizeof(WaitInfo) %zu)", perWait, sizeof(WaitInfo));
    QVERIFY2(perWait < 104, qPrintable(u"%1 bytes a wait"_s.arg(perWait)));
    QVERIFY(perWait < double(sizeof(WaitInfo)) / 1.5);
}

// The waits the views keep are read straight from the attempts' rows (appendFor): the same wait as the one
// append() keeps of the WaitInfo the rule builds (AttemptWaits::drawnWait), for a retry after an answer's
// Retry-After and after a backoff, and nothing for a cancelled attempt or a final one.
void TestWaitStore::appendedAfterAnAttempt()
{
    AttemptStore attempts;
    for (int i = 0; i < 12; ++i) {
        AttemptRecord a = SessionTestData::attempt(1 + i / 4, i % 4 + 1, i % 4 == 3, i);
        if (i == 5) {
            a.decision->hintHeader = u"retry-after-ms"_s;
            a.decision->throttling = true;
        }
        if (i == 9)
            a.decision.reset(); // cancelled
        attempts.append(a);
    }
    WaitStore fromRows;
    WaitStore fromInfo;
    for (qsizetype row = 0; row < attempts.size(); ++row) {
        const std::optional<WaitInfo> w = AttemptWaits::drawnWait(attempts, row);
        QCOMPARE(fromRows.appendFor(attempts, row), bool(w));
        const std::optional<RetryDecision> d = attempts.decision(row);
        QCOMPARE(bool(w), d && d->verdict == Verdict::Retry);
        if (!w)
            continue;
        const AttemptTimestamps at = attempts.timestamps(row);
        QCOMPARE(w->scheduledAt, *at.finished); // from the attempt's end
        QCOMPARE(w->dueAt, *at.finished + d->delay);
        QCOMPARE(w->nextIndex, attempts.hot(row).index + 1);
        fromInfo.append(*w);
    }
    QCOMPARE(fromRows.size(), 8); // three retries in each of runs 1 and 2, two in run 3 (its second cancelled)
    QCOMPARE(fromRows.size(), fromInfo.size());
    for (qsizetype i = 0; i < fromRows.size(); ++i) {
        const WaitInfo got = fromRows.at(i);
        const WaitInfo want = fromInfo.at(i);
        QCOMPARE(got.runId, want.runId);
        QCOMPARE(got.nextIndex, want.nextIndex);
        QCOMPARE(got.scheduledAt, want.scheduledAt);
        QCOMPARE(got.dueAt, want.dueAt);
        QCOMPARE(got.decision.verdict, want.decision.verdict);
        QCOMPARE(got.decision.finalKind, want.decision.finalKind);
        QCOMPARE(got.decision.delay, want.decision.delay);
        QCOMPARE(got.decision.ceiling, want.decision.ceiling);
        QCOMPARE(got.decision.delayLow, want.decision.delayLow);
        QCOMPARE(got.decision.delayHigh, want.decision.delayHigh);
        QCOMPARE(got.decision.source, want.decision.source);
        QCOMPARE(got.decision.hintHeader, want.decision.hintHeader);
        QCOMPARE(got.decision.serverAskedFor, want.decision.serverAskedFor);
        QCOMPARE(got.decision.ruleName, want.decision.ruleName);
        QCOMPARE(got.decision.throttling, want.decision.throttling);
        QCOMPARE(got.decision.quotaCost, want.decision.quotaCost);
        QCOMPARE(got.decision.reason, want.decision.reason);
        QCOMPARE(got.decision.redirectTo, want.decision.redirectTo);
        QVERIFY(got.decision.effects == want.decision.effects);
    }
    QCOMPARE(fromRows.at(4).runId, 2); // attempt 5 of the loop: run 2's second attempt, retried
    QCOMPARE(fromRows.at(4).nextIndex, 3);
    QCOMPARE(fromRows.at(4).decision.hintHeader, u"retry-after-ms"_s);
    QVERIFY(fromRows.at(4).decision.throttling);
}

QTEST_GUILESS_MAIN(TestWaitStore)
#include "tst_waitstore.moc"
