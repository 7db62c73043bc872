// SPDX-License-Identifier: GPL-3.0-or-later
// The playback model: events in time order, stepping both ways, seeking, and play at a speed.
#include "session/sessionplayback.h"
#include "sessiontestdata.h"

#include <QSignalSpy>
#include <QTest>

#include <limits>

class TestSessionPlayback : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timelineIsOrdered()
    {
        const Session s = SessionTestData::session(3, 3);
        SessionPlayback p(s);
        QCOMPARE(p.eventCount(), 9 * 2 + 6); // start + end per attempt, a wait after each retry
        for (qsizetype i = 1; i < p.eventCount(); ++i)
            QVERIFY(p.event(i - 1).atNs <= p.event(i).atNs);
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
