// SPDX-License-Identifier: GPL-3.0-or-later
// The packed runs a live view holds (issue 11 §2: the live window's memory per attempt): every field of a
// run reads back as it was appended or replaced, unset moments and waits stay unset, an observed run keeps
// its grouping, iteration yields every run in order, and a run costs well under the RunProgress list it
// replaces (about 180 bytes a run, in a list that doubles).

#include "session/store/runprogressstore.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(RunProgress)

namespace {

void compareRuns(const RunProgress& got, const RunProgress& want)
{
    QCOMPARE(got.runId, want.runId);
    QCOMPARE(got.seed, want.seed);
    QCOMPARE(got.submittedAt, want.submittedAt);
    QCOMPARE(got.startedAt, want.startedAt);
    QCOMPARE(got.finishedAt, want.finishedAt);
    QCOMPARE(got.attemptCount, want.attemptCount);
    QCOMPARE(got.outcome, want.outcome);
    QCOMPARE(got.reason, want.reason);
    QCOMPARE(got.serverAskedFor, want.serverAskedFor);
    QCOMPARE(got.totalWait, want.totalWait);
    QCOMPARE(got.observed.has_value(), want.observed.has_value());
    if (want.observed)
        QCOMPARE(*got.observed, *want.observed);
}

} // namespace

class TestRunProgressStore : public QObject
{
    Q_OBJECT

private slots:
    void fieldsReadBack_data();
    void fieldsReadBack();
    void replaceKeepsTheOthers();
    void iterationAndAccessors();
    void smallerThanTheList();
};

void TestRunProgressStore::fieldsReadBack_data()
{
    QTest::addColumn<RunProgress>("run");
    QTest::newRow("default") << RunProgress();
    RunProgress finished;
    finished.runId = 2'147'483'647;
    finished.seed = 0xFFFF'FFFF'FFFF'FFFFULL;
    finished.submittedAt = MonoTime(-3); // before the session's origin
    finished.startedAt = MonoTime(0); // zero is a moment, not "unset"
    finished.finishedAt = MonoTime(9'223'372'036'854'775'807LL);
    finished.attemptCount = 7;
    finished.outcome = FinalKind::RateLimited;
    finished.reason = u"429 on POST: Retry-After 120 s is over the 30 s cap — stopped"_s;
    finished.serverAskedFor = 0ms;
    finished.totalWait = 12'345ms;
    QTest::newRow("finished, extremes") << finished;
    RunProgress observed;
    observed.runId = 4;
    observed.outcome = FinalKind::Cancelled;
    observed.observed = ObservedGrouping { u"fingerprint"_s, u"GET /v1/items · 127.0.0.1 · sha256 e3b0…"_s, true };
    QTest::newRow("observed, heuristic") << observed;
    RunProgress byHeader = observed;
    byHeader.observed = ObservedGrouping { u"attempt-header"_s, u"amz-sdk-invocation-id: 8c3f"_s, false };
    QTest::newRow("observed, by header") << byHeader;
}

void TestRunProgressStore::fieldsReadBack()
{
    QFETCH(RunProgress, run);
    RunProgressStore store;
    store.append(run);
    QCOMPARE(store.size(), 1);
    compareRuns(store.at(0), run);
    QCOMPARE(store.runId(0), run.runId);
    QCOMPARE(store.outcome(0), run.outcome);
}

void TestRunProgressStore::replaceKeepsTheOthers()
{
    // A run's facts are replaced when it finishes; its neighbours stay as they were.
    RunProgressStore store;
    for (int i = 1; i <= 3; ++i) {
        RunProgress r;
        r.runId = i;
        r.submittedAt = MonoTime(i * 1000);
        store.append(r);
    }
    RunProgress done = store.at(1);
    done.finishedAt = MonoTime(5000);
    done.outcome = FinalKind::Success;
    done.reason = u"201 on POST is a success"_s;
    done.attemptCount = 2;
    store.replace(1, done);
    compareRuns(store.at(1), done);
    QCOMPARE(store.at(0).runId, 1);
    QVERIFY(!store.at(0).finishedAt);
    QCOMPARE(store.at(2).submittedAt, MonoTime(3000));
    QCOMPARE(store.outcome(2), FinalKind::None);
}

void TestRunProgressStore::iterationAndAccessors()
{
    RunProgressStore store;
    QVERIFY(store.isEmpty());
    QVERIFY(store.begin() == store.end());
    const int n = 3000; // across chunks of 1 024
    for (int i = 0; i < n; ++i) {
        RunProgress r;
        r.runId = i + 1;
        r.outcome = FinalKind(i % 11);
        r.reason = u"reason %1"_s.arg(i % 5);
        store.append(r);
    }
    int seen = 0;
    for (const RunProgress& r : store) {
        if (r.runId != seen + 1 || r.outcome != FinalKind(seen % 11) || r.reason != u"reason %1"_s.arg(seen % 5))
            QFAIL(qPrintable(u"run %1 reads back as run %2"_s.arg(seen + 1).arg(r.runId)));
        ++seen;
    }
    QCOMPARE(seen, n);
    QCOMPARE(store.first().runId, 1);
    QCOMPARE(store.runId(n - 1), n);
    store.clear();
    QCOMPARE(store.size(), 0);
}

void TestRunProgressStore::smallerThanTheList()
{
    RunProgressStore store;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        RunProgress r;
        r.runId = i;
        r.startedAt = MonoTime(i);
        r.outcome = FinalKind::Success;
        r.reason = u"201 on POST is a success"_s;
        store.append(r);
    }
    const double perRun = double(store.memoryBytes()) / n;
    qInfo("%.1f bytes a run (sizeof(RunProgress) %zu)", perRun, sizeof(RunProgress));
    QVERIFY2(perRun < 80, qPrintable(u"%1 bytes a run"_s.arg(perRun)));
    QVERIFY(perRun < double(sizeof(RunProgress)) / 2);
}

QTEST_GUILESS_MAIN(TestRunProgressStore)
#include "tst_runprogressstore.moc"
