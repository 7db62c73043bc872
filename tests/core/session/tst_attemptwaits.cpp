// SPDX-License-Identifier: GPL-3.0-or-later
// AttemptWaits: the waits a session's attempts say were taken, read from their rows, and the field accessor
// views read attempts through (StoredAttempt). The one rule live views and opened sessions both draw by
// (issue 27 §2, §3).
#include "session/attemptwaits.h"
#include "session/store/storedattempt.h"
#include "session/store/waitstore.h"
#include "sessiontestdata.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// A client's second attempt, seen by the lab: it arrived WAITED after the previous answer, which asked for
// ASKED (by BY), or nothing.
AttemptRecord observed(Millis waited, std::optional<Millis> asked, const QString& by)
{
    AttemptRecord a;
    a.runId = 7;
    a.index = 2;
    a.method = u"GET"_s;
    a.url = QUrl(u"http://127.0.0.1:1/retry"_s);
    a.at.started = MonoTime(5s);
    a.at.finished = MonoTime(5s) + 20ms;
    a.status = 200;
    ObservedAttemptFacts o;
    o.clientWait = waited;
    o.askedFor = asked;
    o.askedBy = asked ? by : QString();
    a.observed = o;
    return a;
}

} // namespace

class TestAttemptWaits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A client's wait is drawn as the server's ask when it waited at least 90 % of it (timers fire early, a
    // client that rounds the ask down still takes it), by the field that asked; else as its own backoff.
    void clientWaitsSource_data()
    {
        QTest::addColumn<qint64>("waited");
        QTest::addColumn<qint64>("asked");
        QTest::addColumn<QString>("by");
        QTest::addColumn<DelaySource>("source");
        QTest::addRow("no ask: the client's backoff") << qint64(500) << qint64(-1) << QString() << DelaySource::Backoff;
        QTest::addRow("waited the whole Retry-After") << qint64(1000) << qint64(1000) << u"retry-after"_s << DelaySource::RetryAfter;
        QTest::addRow("90 %% of it: taken") << qint64(900) << qint64(1000) << u"retry-after"_s << DelaySource::RetryAfter;
        QTest::addRow("89.9 %% of it: not taken") << qint64(899) << qint64(1000) << u"retry-after"_s << DelaySource::Backoff;
        QTest::addRow("longer than asked: taken") << qint64(4000) << qint64(1000) << u"retry-after"_s << DelaySource::RetryAfter;
        QTest::addRow("retry-after-ms") << qint64(250) << qint64(250) << u"retry-after-ms"_s << DelaySource::RetryAfterMs;
        QTest::addRow("a rate-limit reset: another hint") << qint64(3000) << qint64(3000) << u"ratelimit-reset"_s << DelaySource::ServerHint;
    }
    void clientWaitsSource()
    {
        QFETCH(qint64, waited);
        QFETCH(qint64, asked);
        QFETCH(QString, by);
        QFETCH(DelaySource, source);
        AttemptStore store;
        const qsizetype row = store.append(observed(Millis(waited), asked >= 0 ? std::optional<Millis>(Millis(asked)) : std::nullopt, by));
        const std::optional<WaitInfo> w = AttemptWaits::drawnWait(store, row);
        QVERIFY(w);
        QCOMPARE(w->runId, 7);
        QCOMPARE(w->nextIndex, 2); // before this attempt
        QCOMPARE(w->dueAt, MonoTime(5s)); // from the previous answer's end to this arrival
        QCOMPARE(w->scheduledAt, MonoTime(5s) - Millis(waited));
        QCOMPARE(w->decision.delay, Millis(waited));
        QCOMPARE(w->decision.source, source);
        QCOMPARE(w->decision.serverAskedFor.has_value(), asked >= 0);
        QCOMPARE(w->decision.hintHeader, by);
        QVERIFY(!w->throttleHold);
        WaitStore kept;
        QVERIFY(kept.appendFor(store, row));
        QCOMPARE(kept.source(0), source);
        QCOMPARE(kept.scheduledAt(0), w->scheduledAt);
    }

    // Nothing for a client's first attempt (no wait before it), an engine attempt that was final or
    // cancelled, or one the host throttle held (its hold is a wait of its own, before it).
    void noDrawnWait()
    {
        AttemptStore store;
        AttemptRecord first = observed(Millis(0), std::nullopt, QString());
        first.index = 1;
        first.observed->clientWait.reset();
        const AttemptRecord last = SessionTestData::attempt(1, 3, true);
        AttemptRecord cancelled = SessionTestData::attempt(1, 2, false);
        cancelled.decision.reset();
        for (const AttemptRecord& a : { first, last, cancelled }) {
            const qsizetype row = store.append(a);
            QVERIFY(!AttemptWaits::drawnWait(store, row));
            QVERIFY(!AttemptWaits::throttleHold(store, row));
            WaitStore kept;
            QVERIFY(!kept.appendFor(store, row));
        }
        AttemptRecord held = SessionTestData::attempt(2, 1, false);
        held.throttleWait = 700ms;
        const qsizetype row = store.append(held);
        const std::optional<WaitInfo> hold = AttemptWaits::throttleHold(store, row);
        QVERIFY(hold && hold->throttleHold);
        QCOMPARE(hold->nextIndex, 1);
        QCOMPARE(hold->scheduledAt, *held.at.started - 700ms);
        QCOMPARE(hold->dueAt, *held.at.scheduled);
        QCOMPARE(hold->decision.source, DelaySource::Throttle);
        QVERIFY(AttemptWaits::drawnWait(store, row)); // and its decision's wait after it, as any retry
    }

    // Every field the accessor gives equals the whole record's; what the record lacks is nullopt.
    void storedAttemptReadsFields()
    {
        AttemptStore store;
        const AttemptRecord a = SessionTestData::attempt(3, 2, false, 1);
        AttemptRecord reset = SessionTestData::attempt(3, 3, true, 2); // no answer: a connection reset
        reset.at.finished.reset();
        const qsizetype answered = store.append(a);
        const qsizetype none = store.append(reset);
        const StoredAttempt s(store, answered);
        QCOMPARE(s.row(), answered);
        QCOMPARE(s.runId(), 3);
        QCOMPARE(s.index(), 2);
        QCOMPARE(s.scheduled(), a.at.scheduled);
        QCOMPARE(s.started(), a.at.started);
        QCOMPARE(s.finished(), a.at.finished);
        QCOMPARE(s.at(StoredAttempt::Moment::HeadersReceived), a.at.headersReceived);
        QCOMPARE(s.at(StoredAttempt::Moment::Queued), std::optional<MonoTime>());
        QCOMPARE(s.duration(), a.duration());
        QCOMPARE(s.status(), a.status);
        QCOMPARE(s.error(), std::optional<ErrorClass>());
        QCOMPARE(s.verdict(), std::optional<Verdict>(Verdict::Retry));
        QCOMPARE(s.delay(), std::optional<Millis>(a.decision->delay));
        QCOMPARE(s.delaySource(), a.decision->source);
        QVERIFY(!s.observed());
        QCOMPARE(s.method(), "POST");
        QCOMPARE(QString::fromUtf8(s.url()), a.url.toString(QUrl::FullyEncoded));
        QCOMPARE(QString::fromUtf8(s.attemptId()), a.attemptId);
        QCOMPARE(QString::fromUtf8(s.idempotencyKey()), a.idempotencyKey);
        QCOMPARE(QString::fromUtf8(s.reason()), a.decision->reason);
        QVERIFY(s.hasRateLimitFields());
        QCOMPARE(s.rateLimitFields(), a.rateLimitHeaders);
        QCOMPARE(s.responseHeader("content-type"), "application/json");
        QVERIFY(s.responseHeader("x-absent").isNull());
        QCOMPARE(s.throttleWait(), Millis(0));
        QCOMPARE(s.urlId(), StoredAttempt(store, none).urlId()); // one URL, one text
        const StoredAttempt r(store, none);
        QCOMPARE(r.status(), std::optional<int>());
        QCOMPARE(r.error(), std::optional<ErrorClass>(ErrorClass::ConnectionLost));
        QCOMPARE(r.finished(), std::optional<MonoTime>());
        QCOMPARE(r.duration(), std::optional<MonoTime>());
        QCOMPARE(r.verdict(), std::optional<Verdict>(Verdict::Stop));
        QVERIFY(!r.hasRateLimitFields());
        QCOMPARE(r.record().attemptId, reset.attemptId);
    }
};

QTEST_GUILESS_MAIN(TestAttemptWaits)
#include "tst_attemptwaits.moc"
