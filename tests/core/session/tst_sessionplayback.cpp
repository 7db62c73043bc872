// SPDX-License-Identifier: GPL-3.0-or-later
// The playback model: events in time order, stepping both ways, seeking, and play at a speed.
#include "session/sessionplayback.h"
#include "sessiontestdata.h"

#include <QSignalSpy>
#include <QTest>

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
