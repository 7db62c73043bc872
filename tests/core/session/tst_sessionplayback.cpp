// SPDX-License-Identifier: GPL-3.0-or-later
// The playback model: events in time order, stepping both ways, seeking, and play at a speed.
#include "session/attemptwaits.h"
#include "session/sessionplayback.h"
#include "sessiontestdata.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

class TestSessionPlayback : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timelineIsOrdered()
    {
        const Session s = SessionTestData::session(3, 3);
        SessionPlayback p(s);
        // Start + end per attempt (a wait comes with the attempt it is read from), and each run's end.
        QCOMPARE(p.eventCount(), 9 * 2 + 3);
        for (qsizetype i = 1; i < p.eventCount(); ++i)
            QVERIFY(p.event(i - 1).atNs <= p.event(i).atNs);
    }

    // At equal moments the events keep the order they are listed in (attempts by row: start, end, wait;
    // then the lab's by index), whether the two lists are merged (each in time order already) or sorted
    // (runs that overlap): the same as a stable sort by time.
    void equalMomentsInOrder_data()
    {
        QTest::addColumn<bool>("overlapping");
        QTest::addRow("runs one after another") << false;
        QTest::addRow("runs at the same moments") << true;
    }
    void equalMomentsInOrder()
    {
        QFETCH(bool, overlapping);
        Session s;
        for (int r = 1; r <= 5; ++r) {
            RunRecord run = SessionTestData::run(r, 3);
            if (overlapping) { // every run's attempts at the same whole milliseconds
                for (qsizetype i = 0; i < run.attempts.size(); ++i) {
                    AttemptTimestamps& at = run.attempts[i].at;
                    const MonoTime t(std::chrono::milliseconds(1000 * (i + 1)));
                    at = {};
                    at.scheduled = t;
                    at.started = t;
                    at.finished = t + std::chrono::milliseconds(40);
                }
            }
            s.addRun(run);
        }
        // A lab event at each attempt's end, in the order the lab reports them (in time).
        std::vector<qint64> ends;
        for (qsizetype i = 0; i < s.attemptCount(); ++i)
            ends.push_back(s.attempts.hot(i).at[PackedAttempt::Finished] / 1000000);
        std::stable_sort(ends.begin(), ends.end());
        for (const qint64 ms : ends) {
            LabEvent e;
            e.kind = LabEvent::Kind::ResponseFinished;
            e.atMs = ms;
            s.labEvents.append(e);
        }
        std::vector<PlaybackEvent> expected;
        for (qsizetype i = 0; i < s.attemptCount(); ++i) {
            const PackedAttemptHot& p = s.attempts.hot(i);
            expected.push_back({ p.at[PackedAttempt::Started], quint32(i), PlaybackEvent::Kind::AttemptStarted });
            expected.push_back({ p.at[PackedAttempt::Finished], quint32(i), PlaybackEvent::Kind::AttemptFinished });
        }
        for (qsizetype r = 0; r < s.runs.size(); ++r)
            expected.push_back({ s.runs.at(r).finishedNs, quint32(r), PlaybackEvent::Kind::RunFinished });
        for (qsizetype i = 0; i < s.labEvents.size(); ++i)
            expected.push_back({ s.labEvents.atMs(i) * 1000000, quint32(i), PlaybackEvent::Kind::Lab });
        std::stable_sort(expected.begin(), expected.end(), [](const PlaybackEvent& a, const PlaybackEvent& b) { return a.atNs < b.atNs; });
        SessionPlayback p(s);
        QCOMPARE(p.eventCount(), qsizetype(expected.size()));
        int ties = 0;
        for (qsizetype i = 0; i < p.eventCount(); ++i) {
            const PlaybackEvent& e = p.event(i);
            const PlaybackEvent& x = expected[size_t(i)];
            QVERIFY2(e.atNs == x.atNs && e.index == x.index && e.kind == x.kind,
                qPrintable(u"%1: %2 %3 %4, expected %5 %6 %7"_s.arg(i).arg(e.atNs).arg(e.index).arg(int(e.kind)).arg(x.atNs).arg(x.index).arg(int(x.kind))));
            ties += i > 0 && e.atNs == p.event(i - 1).atNs ? 1 : 0;
        }
        // Moments shared (what the order is about): an attempt's start or end with another run's, with the
        // lab's event at that whole millisecond, and a run's end with its last attempt's.
        QVERIFY(ties >= (overlapping ? 39 : 5)); // per attempt: 4 among the starts, 9 among the ends and labs; a run's end with its last attempt's
    }

    // Each lab event's run, from the attempt its id names: the run of that one attempt; none for an id no
    // attempt has, an id two attempts have, or no id.
    void labEventsFindTheirRuns()
    {
        Session s = SessionTestData::session(40, 3); // attempt ids runId * 100 + index
        const auto event = [&](const QString& attemptId) {
            LabEvent e;
            e.kind = LabEvent::Kind::RequestReceived;
            e.attemptId = attemptId;
            s.labEvents.append(e);
        };
        event(u"3702"_s); // run 37
        event(u"101"_s); // run 1
        event(u"999999"_s); // nobody's
        event(QString()); // none
        AttemptRecord again = SessionTestData::attempt(40, 4, true);
        again.attemptId = u"2003"_s; // run 20's third attempt's id, on run 40 too
        s.attempts.append(again);
        event(u"2003"_s);
        event(u"3702"_s);
        const std::vector<qint32> runs = s.labEventRuns();
        const std::vector<qint32> expected { 37, 1, Session::kNoRun, Session::kNoRun, Session::kNoRun, 37 };
        QCOMPARE(runs, expected);
        QVERIFY(Session().labEventRuns().empty());
    }

    // A host throttle's hold is reached when it began (its attempt's start less its throttle wait), before
    // the attempt starts, as the engine reports it live; a decided or observed wait has no event of its own
    // (it comes with the attempt it is read from).
    void throttleHoldsAreReachedWhenTheyBegan()
    {
        Session s;
        RunRecord run = SessionTestData::run(1, 2);
        run.attempts[1].throttleWait = Millis(300);
        s.addRun(run);
        SessionPlayback p(s);
        const PackedAttempt held = s.attempts.packed(1);
        const qint64 started = held.at[PackedAttempt::Started];
        QCOMPARE(p.eventCount(), qsizetype(6)); // two starts, two ends, one hold, the run's end
        qsizetype hold = -1;
        for (qsizetype i = 0; i < p.eventCount(); ++i) {
            if (p.event(i).kind == PlaybackEvent::Kind::ThrottleHold)
                hold = i;
        }
        QVERIFY(hold >= 0);
        QCOMPARE(p.event(hold).row(), quint32(1));
        QCOMPARE(p.event(hold).atNs, started - 300 * 1000000);
        QCOMPARE(p.event(hold + 1).kind, PlaybackEvent::Kind::AttemptStarted);
        QCOMPARE(p.event(hold + 1).row(), quint32(1));
        const std::optional<WaitInfo> w = AttemptWaits::throttleHold(s.attempts, 1);
        QVERIFY(w && w->throttleHold);
        QCOMPARE(w->decision.source, DelaySource::Throttle);
        QCOMPARE(w->scheduledAt.count(), started - 300 * 1000000);
        QCOMPARE(w->dueAt.count(), held.at[PackedAttempt::Scheduled]);
        QVERIFY(!AttemptWaits::throttleHold(s.attempts, 0));
    }

    // The lab's events are reached in the order they were recorded, as the views show the first N of them:
    // one stamped earlier than the event before it (a hand-edited file) is reached with that one.
    void labEventsReachedInTheirOrder()
    {
        Session s;
        for (const qint64 ms : { 10, 30, 20, 40 }) {
            LabEvent e;
            e.kind = LabEvent::Kind::RequestReceived;
            e.atMs = ms;
            s.labEvents.append(e);
        }
        SessionPlayback p(s);
        QCOMPARE(p.eventCount(), qsizetype(4));
        for (qsizetype i = 0; i < 4; ++i)
            QCOMPARE(p.event(i).labIndex(), i);
        QCOMPARE(p.event(2).atNs, qint64(30) * 1000000);
        QCOMPARE(p.event(3).atNs, qint64(40) * 1000000);
    }

    void stepsAndSeeks()
    {
        const Session s = SessionTestData::session(2, 2);
        SessionPlayback p(s);
        QSignalSpy reached(&p, &SessionPlayback::eventReached);
        QSignalSpy undone(&p, &SessionPlayback::eventUndone);
        p.stepForward();
        p.stepForward();
        QCOMPARE(p.cursor(), 2);
        QCOMPARE(p.event(0).kind, PlaybackEvent::Kind::AttemptStarted);
        p.stepBackward();
        QCOMPARE(p.cursor(), 1);
        QCOMPARE(undone.size(), 1);
        p.seek(p.endNs());
        QCOMPARE(p.cursor(), p.eventCount());
        p.seek(p.startNs() - 1);
        QCOMPARE(p.cursor(), 0);
        QCOMPARE(reached.size(), 2 + p.eventCount() - 1);
    }

    // A receiver of eventReached() learns how far the move goes: a seek reports its target for every event
    // it reaches (the feeder skips drawing in flight an attempt that finishes within the move), a step and a
    // move backward promise nothing.
    void reachingDuringAMove()
    {
        const Session s = SessionTestData::session(2, 3);
        SessionPlayback p(s);
        constexpr qint64 nothing = std::numeric_limits<qint64>::min();
        QList<qlonglong> seen;
        connect(&p, &SessionPlayback::eventReached, this, [&](qsizetype) { seen << p.reachingNs(); });
        connect(&p, &SessionPlayback::eventUndone, this, [&](qsizetype) { seen << p.reachingNs(); });
        QCOMPARE(p.reachingNs(), nothing);
        p.stepForward();
        QCOMPARE(seen, QList<qlonglong>({ nothing }));
        seen.clear();
        const qint64 middle = p.event(p.eventCount() / 2).atNs;
        p.seek(middle);
        QVERIFY(seen.size() > 1);
        QCOMPARE(seen, QList<qlonglong>(seen.size(), middle));
        QCOMPARE(p.reachingNs(), nothing);
        seen.clear();
        p.stepBackward();
        p.seek(p.startNs() - 1); // undoing only: no event is reached, so no target is promised
        QVERIFY(seen.size() > 1);
        QCOMPARE(seen, QList<qlonglong>(seen.size(), nothing));
        seen.clear();
        p.advance(p.endNs() - p.startNs() + 1); // play moves by seeking: its target too
        QCOMPARE(seen.size(), p.eventCount());
        QCOMPARE(seen.first(), seen.last());
        QVERIFY(seen.first() >= p.endNs());
    }

    void speedScalesTime()
    {
        const Session s = SessionTestData::session(1, 2);
        SessionPlayback p(s);
        p.play(10.0);
        p.pause();
        const qint64 before = p.positionNs();
        p.advance(1000000); // 1 ms of wall time at 10× = 10 ms of session time
        QCOMPARE(p.positionNs() - before, 10000000);
        QSignalSpy finished(&p, &SessionPlayback::finished);
        p.advance(p.endNs());
        QCOMPARE(finished.size(), 1);
        QCOMPARE(p.cursor(), p.eventCount());
    }
};

QTEST_GUILESS_MAIN(TestSessionPlayback)
#include "tst_sessionplayback.moc"
