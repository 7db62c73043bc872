// SPDX-License-Identifier: GPL-3.0-or-later
// Opening and saving off the GUI thread: progress arrives, results carry their generation, and a cancelled
// or superseded job delivers nothing but "cancelled".
#include "session/format/sessionfile.h"
#include "session/sessionjobs.h"
#include "sessiontestdata.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestSessionJobs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

private Q_SLOTS:
    void initTestCase()
    {
        m_path = m_dir.filePath(u"big.json"_s);
        QVERIFY(SessionFile::save(SessionTestData::session(4000, 3), m_path));
    }

    void opensWithProgress()
    {
        SessionJobs jobs;
        QSignalSpy opened(&jobs, &SessionJobs::opened);
        QSignalSpy progress(&jobs, &SessionJobs::progress);
        const quint64 generation = jobs.open(m_path);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 60000);
        QCOMPARE(opened.first().at(0).toULongLong(), generation);
        const auto session = opened.first().at(1).value<std::shared_ptr<Session>>();
        QVERIFY(session);
        QCOMPARE(session->attemptCount(), 12000);
        QVERIFY(progress.size() >= 2);
        QCOMPARE(progress.last().at(1).toLongLong(), progress.last().at(2).toLongLong()); // ends at 100 %
    }

    void newerRequestSupersedesOlder()
    {
        SessionJobs jobs;
        QSignalSpy opened(&jobs, &SessionJobs::opened);
        QSignalSpy failed(&jobs, &SessionJobs::failed);
        const quint64 first = jobs.open(m_path);
        const quint64 second = jobs.open(m_dir.filePath(u"missing.json"_s));
        QVERIFY(second > first);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 60000);
        QCOMPARE(failed.first().at(0).toULongLong(), second);
        QVERIFY(jobs.waitForIdle());
        QCoreApplication::sendPostedEvents();
        QCOMPARE(opened.size(), 0); // the first job's result was dropped
    }

    void cancelledSaveKeepsTheFile()
    {
        const QString target = m_dir.filePath(u"copy.json"_s);
        SessionJobs jobs;
        QSignalSpy saved(&jobs, &SessionJobs::saved);
        QSignalSpy cancelled(&jobs, &SessionJobs::cancelled);
        auto session = std::make_shared<const Session>(SessionTestData::session(4000, 3));
        jobs.save(session, target);
        jobs.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.size() + saved.size() == 1, 60000);
        if (!cancelled.isEmpty())
            QVERIFY(!QFile::exists(target));
    }
};

QTEST_GUILESS_MAIN(TestSessionJobs)
#include "tst_sessionjobs.moc"
