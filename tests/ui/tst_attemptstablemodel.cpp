// SPDX-License-Identifier: GPL-3.0-or-later
// AttemptsTableModel: one beginInsertRows per LiveSession refresh, formatting in data(), reset on clear,
// sortable through a proxy; everything under QAbstractItemModelTester.
#include "livefeed.h"
#include "run/attemptstablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

AttemptRecord attempt(int run, int index, int status, Verdict verdict, double startMs)
{
    AttemptRecord a;
    a.runId = run;
    a.index = index;
    a.method = u"POST"_s;
    a.url = QUrl(u"http://127.0.0.1:1/api/orders"_s);
    a.status = status;
    a.at.started = std::chrono::duration_cast<MonoTime>(std::chrono::duration<double, std::milli>(startMs));
    a.at.finished = *a.at.started + std::chrono::milliseconds(12);
    RetryDecision d;
    d.verdict = verdict;
    d.delay = Millis(verdict == Verdict::Retry ? 750 : 0);
    d.source = verdict == Verdict::Retry ? DelaySource::Backoff : DelaySource::None;
    d.reason = u"because %1"_s.arg(status);
    a.decision = d;
    return a;
}

} // namespace

class TestAttemptsTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void batchesAreOneInsertEach()
    {
        LiveSession session;
        LiveFeed feed(session);
        session.setRefreshInterval(100000); // only explicit flushes
        AttemptsTableModel model(&session);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

        for (int i = 0; i < 50; ++i)
            feed.onAttemptFinished(attempt(1 + i / 5, 1 + i % 5, i % 5 == 4 ? 201 : 503, i % 5 == 4 ? Verdict::Success : Verdict::Retry, i * 10.0));
        QCOMPARE(model.rowCount(), 0); // nothing until the refresh
        session.flush();
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 0);
        QCOMPARE(inserted.at(0).at(2).toInt(), 49);
        QCOMPARE(model.rowCount(), 50);

        feed.onAttemptFinished(attempt(11, 1, 500, Verdict::Stop, 600.0));
        feed.onAttemptFinished(attempt(11, 2, 500, Verdict::Stop, 700.0));
        session.flush();
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.at(1).at(1).toInt(), 50);
        QCOMPARE(inserted.at(1).at(2).toInt(), 51);

        session.flush(); // nothing new: no insert
        QCOMPARE(inserted.count(), 2);
    }

    void formatsInData()
    {
        LiveSession session;
        LiveFeed feed(session);
        AttemptsTableModel model(&session);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        feed.onAttemptFinished(attempt(3, 2, 503, Verdict::Retry, 1234.5));
        session.flush();
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Run)).toInt(), 3);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Attempt)).toInt(), 2);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Start)).toString(), u"1.234 s"_s);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Target)).toString(), u"/api/orders"_s);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Result)).toString(), u"503"_s);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Decision)).toString(), u"retry"_s);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Wait)).toString(), formatMillis(Millis(750)));
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::DelaySourceColumn)).toString(), u"backoff"_s);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Reason)).toString(), u"because 503"_s);
        QCOMPARE(model.rowOf(3, 2), 0);
        QCOMPARE(model.rowOf(3, 3), -1);
    }

    // An attempt a client made (retrylab observe, a HAR import) has no decision: the table says so and shows
    // the client's own wait beside what the previous answer asked for — never "cancelled".
    void observedAttemptsShowTheClientsWait()
    {
        LiveSession session;
        LiveFeed feed(session);
        AttemptsTableModel model(&session);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        AttemptRecord first = attempt(1, 1, 429, Verdict::Retry, 10.0);
        first.decision.reset();
        first.observed = ObservedAttemptFacts {};
        AttemptRecord second = attempt(1, 2, 200, Verdict::Success, 240.0);
        second.decision.reset();
        second.observed = ObservedAttemptFacts { std::chrono::milliseconds(210), Millis(2000), u"retry-after"_s, 7 };
        feed.onAttemptFinished(first);
        feed.onAttemptFinished(second);
        session.flush();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Decision)).toString(), u"observed"_s);
        QCOMPARE(model.data(model.index(0, AttemptsTableModel::Wait)).toString(), QString());
        QVERIFY(model.data(model.index(0, AttemptsTableModel::Reason)).toString().contains(u"first attempt"_s));
        QCOMPARE(model.data(model.index(1, AttemptsTableModel::Decision)).toString(), u"observed"_s);
        QCOMPARE(model.data(model.index(1, AttemptsTableModel::Wait)).toString(), formatMillis(Millis(210)));
        QCOMPARE(model.data(model.index(1, AttemptsTableModel::DelaySourceColumn)).toString(), u"client"_s);
        const QString reason = model.data(model.index(1, AttemptsTableModel::Reason)).toString();
        QVERIFY2(reason.contains(formatMillis(Millis(210))) && reason.contains(formatMillis(Millis(2000)))
                && reason.contains(u"retry-after"_s),
            qPrintable(reason));
        QCOMPARE(model.data(model.index(1, AttemptsTableModel::Reason), Qt::ToolTipRole).toString(), reason);
    }

    void clearResets()
    {
        LiveSession session;
        LiveFeed feed(session);
        AttemptsTableModel model(&session);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        feed.onAttemptFinished(attempt(1, 1, 200, Verdict::Success, 1.0));
        session.flush();
        QCOMPARE(model.rowCount(), 1);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        session.clear();
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 0);
        LiveFeed next(session); // the next batch: cleared again, then its session shown
        QCOMPARE(model.rowCount(), 0);
        next.onAttemptFinished(attempt(1, 1, 200, Verdict::Success, 1.0));
        session.flush();
        QCOMPARE(model.rowCount(), 1);
    }

    void sortsAndFiltersThroughAProxy()
    {
        LiveSession session;
        LiveFeed feed(session);
        AttemptsTableModel model(&session);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(AttemptsTableModel::SortRole);
        proxy.setFilterKeyColumn(-1);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        feed.onAttemptFinished(attempt(1, 1, 503, Verdict::Retry, 900.0));
        feed.onAttemptFinished(attempt(2, 1, 201, Verdict::Success, 100.0));
        feed.onAttemptFinished(attempt(1, 2, 201, Verdict::Success, 2000.0));
        session.flush();
        proxy.sort(AttemptsTableModel::Start, Qt::AscendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, AttemptsTableModel::Run)).toInt(), 2);
        QCOMPARE(proxy.data(proxy.index(2, AttemptsTableModel::Run)).toInt(), 1);
        proxy.setFilterFixedString(u"retry"_s);
        QCOMPARE(proxy.rowCount(), 1);
        feed.onAttemptFinished(attempt(3, 1, 429, Verdict::Retry, 50.0));
        session.flush();
        QCOMPARE(proxy.rowCount(), 2);
    }
};

QTEST_MAIN(TestAttemptsTableModel)
#include "tst_attemptstablemodel.moc"
