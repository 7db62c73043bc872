// SPDX-License-Identifier: GPL-3.0-or-later
// The lab panel while a recording is shown: its requests, operations and attempts received more than once
// are counted from the recording's lab events as they reach the view (all at once when a file is opened,
// delta by delta in playback), not from the live lab.
#include "labview/labpanel.h"
#include "livefeed.h"
#include "run/runcontroller.h"

#include "testtime.h"

#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {
LabEvent received(const QString& attemptId, qint64 atMs)
{
    LabEvent e;
    e.kind = LabEvent::Kind::RequestReceived;
    e.atMs = atMs;
    e.method = "POST";
    e.path = u"/pix/payments"_s;
    e.attemptId = attemptId;
    return e;
}

LabEvent applied(qint64 atMs)
{
    LabEvent e;
    e.kind = LabEvent::Kind::OperationApplied;
    e.atMs = atMs;
    e.applied = true;
    return e;
}
} // namespace

class TestLabPanelRecording : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Events before showRecording (a file opened: the views are fed first) and deltas after it (playback)
    // both count; an id received three times is one attempt received more than once, not two.
    void countsTheRecordingsEvents()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(QString());
        LabPanel panel(&controller);
        LiveSession* session = controller.session();
        LiveFeed feed(*session);
        feed.onLabEvent(received(u"a-1"_s, 10));
        feed.onLabEvent(applied(11));
        feed.onLabEvent(received(u"a-2"_s, 20));
        feed.onLabEvent(received(u"a-2"_s, 30)); // a-2 again: received twice
        session->flush();
        panel.showRecording(QJsonObject());
        QVERIFY(panel.isShowingRecording());
        QCOMPARE(panel.shownRequests(), 3);
        QCOMPARE(panel.shownOperations(), 1);
        QCOMPARE(panel.shownDuplicates(), 1);

        feed.onLabEvent(received(u"a-2"_s, 40)); // a third time: still one attempt
        feed.onLabEvent(received(u""_s, 45)); // no attempt id: a request, never a duplicate
        feed.onLabEvent(received(u"a-3"_s, 50));
        session->flush();
        QCOMPARE(panel.shownRequests(), 6);
        QCOMPARE(panel.shownDuplicates(), 1);
        feed.onLabEvent(received(u"a-1"_s, 60)); // a-1 again
        feed.onLabEvent(applied(61));
        session->flush();
        QCOMPARE(panel.shownRequests(), 7);
        QCOMPARE(panel.shownOperations(), 2);
        QCOMPARE(panel.shownDuplicates(), 2);

        // Shown again from the start (another position, or the same file reopened): the same counts.
        panel.showRecording(QJsonObject());
        QCOMPARE(panel.shownRequests(), 7);
        QCOMPARE(panel.shownDuplicates(), 2);
        session->clear();
        QCOMPARE(panel.shownRequests(), 0);
        QCOMPARE(panel.shownDuplicates(), 0);
    }

    // Thousands of distinct ids (the tally grows as the store's texts do), every seventh sent again.
    void manyAttempts()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(QString());
        LabPanel panel(&controller);
        LiveSession* session = controller.session();
        LiveFeed feed(*session);
        panel.showRecording(QJsonObject());
        int requests = 0;
        int twice = 0;
        for (int i = 0; i < 5000; ++i) {
            feed.onLabEvent(received(u"id-%1"_s.arg(i), i));
            ++requests;
            if (i % 7 == 0) {
                feed.onLabEvent(received(u"id-%1"_s.arg(i), i));
                feed.onLabEvent(received(u"id-%1"_s.arg(i), i)); // a third time: still one
                requests += 2;
                ++twice;
            }
            if (i % 1000 == 999)
                session->flush();
        }
        session->flush();
        QCOMPARE(panel.shownRequests(), requests);
        QCOMPARE(panel.shownDuplicates(), twice);
    }

    // Another session shown after this one (the views cleared first): the panel counts by the store's text
    // numbers, and starts over from the new session's first event, so the counts stay right.
    void anotherSessionShown()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(QString());
        LabPanel panel(&controller);
        LiveSession* session = controller.session();
        {
            LiveFeed first(*session);
            first.onLabEvent(received(u"b-0"_s, 5));
            first.onLabEvent(received(u"b-1"_s, 10));
            first.onLabEvent(received(u"b-2"_s, 20));
            first.onLabEvent(received(u"b-2"_s, 25));
            session->flush();
            panel.showRecording(QJsonObject());
            QCOMPARE(panel.shownRequests(), 4);
            QCOMPARE(panel.shownDuplicates(), 1);
        }
        LiveFeed second(*session); // its texts numbered anew
        second.onLabEvent(received(u"b-3"_s, 30));
        second.onLabEvent(received(u"b-2"_s, 40));
        session->flush();
        QCOMPARE(panel.shownRequests(), 2);
        QCOMPARE(panel.shownDuplicates(), 0);
        second.onLabEvent(received(u"b-3"_s, 50));
        session->flush();
        QCOMPARE(panel.shownRequests(), 3);
        QCOMPARE(panel.shownDuplicates(), 1);
    }
};

QTEST_MAIN(TestLabPanelRecording)
#include "tst_labpanelrecording.moc"
