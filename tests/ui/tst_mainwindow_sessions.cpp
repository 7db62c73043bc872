// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions through the main window, against the built-in fault lab over loopback: every batch is recorded
// (journal while it runs, file when it ends); Save As, Open (and open by content for drag and drop), the
// exports, the what-if replay into Compare, comparing with another file, and recovering a session whose
// recording was killed.
#include "mainwindow.h"
#include "../cli/cliprocess.h"
#include "testtime.h"

#include "http/curlrequest.h"
#include "editors/requesteditor.h"
#include "livesession.h"
#include "run/runcontroller.h"
#include "sessions/comparemodel.h"
#include "sessions/compareview.h"
#include "labview/labpanel.h"
#include "run/attemptdetailpane.h"
#include "run/attemptspage.h"
#include "sessions/playbackbar.h"
#include "sessions/recoveryprompt.h"
#include "sessions/replayactions.h"
#include "sessions/sessionfileactions.h"
#include "sessions/sessiondocument.h"
#include "sessions/sessionfeeder.h"
#include "timelineview.h"

#include "lab/faultserver.h"
#include "session/journal/journalregistry.h"
#include "session/format/sessionfile.h"
#include "session/journal/sessionjournal.h"
#include "session/sessionrecorder.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QMessageBox>
#include <QAbstractButton>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;

class TestMainWindowSessions : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // Runs a batch of N runs of the demo and waits until its recording is on disk.
    static void runBatch(MainWindow& window, int n)
    {
        window.requestEditor()->setRepeatCount(n);
        window.runManyAction()->trigger();
        QVERIFY(window.controller()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isRunning(), 90000);
        QVERIFY(window.controller()->waitForRecordings(30000));
        QCoreApplication::processEvents(); // the "saved" report
    }

    static bool waitForJob(SessionDocument* document)
    {
        return QTest::qWaitFor([document] { return document->busyWith() == SessionDocument::Job::None; }, 30000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QDir(JournalRegistry::directory()).removeRecursively();
    }

    void batchIsRecordedSavedAndReopened()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"recordings"_s));
        runBatch(window, 4);
        SessionDocument* doc = window.sessionFiles()->document();
        QVERIFY(doc->hasSession());
        QCOMPARE(doc->origin(), SessionDocument::Origin::Recorded);
        const qsizetype attempts = window.controller()->session()->finishedAttempts();
        QCOMPARE(doc->session()->attemptCount(), attempts);
        QCOMPARE(doc->session()->runs.size(), 4);
        QVERIFY(!doc->session()->labEvents.isEmpty());
        QVERIFY(!doc->session()->scenario.isEmpty());
        // The autosave is on disk and its journal is gone.
        QVERIFY(QFile::exists(doc->filePath()));
        QVERIFY(!QFile::exists(SessionJournal::pathFor(doc->filePath())));
        QVERIFY(window.windowTitle().contains(u"Unsaved run"_s));
        QVERIFY(window.playbackBar()->feeder());

        // Save As, then open it again: the views show the same attempts.
        const QString saved = m_dir.filePath(u"saved.json"_s);
        QVERIFY(doc->saveAs(saved));
        QVERIFY(waitForJob(doc));
        QCOMPARE(doc->filePath(), saved);
        QVERIFY(doc->isSavedByUser());
        QVERIFY(window.windowTitle().startsWith(u"saved.json"_s));

        MainWindow other(TestTime::instance().clock, TestTime::instance().scheduler);
        other.controller()->setRecordingDirectory({});
        other.openFile(saved); // by content, as a drop would
        QVERIFY(waitForJob(other.sessionFiles()->document()));
        QCOMPARE(other.sessionFiles()->document()->session()->attemptCount(), attempts);
        other.controller()->session()->flush();
        QCOMPARE(other.controller()->session()->finishedAttempts(), attempts);
        QTRY_COMPARE(other.timeline()->laneCount(), 4);
        QCOMPARE(other.sessionFiles()->document()->origin(), SessionDocument::Origin::Opened);
    }

    void refusedFileLeavesTheSessionAlone()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"recordings"_s));
        runBatch(window, 1);
        SessionDocument* doc = window.sessionFiles()->document();
        const auto before = doc->session();
        const QString bad = m_dir.filePath(u"bad.json"_s);
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "retrylab-session", "version": 1, "runs": [ {"runId": )");
        f.close();
        QSignalSpy finished(doc, &SessionDocument::jobFinished);
        QVERIFY(doc->open(bad));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().at(2).value<SessionFile::Status>(), SessionFile::Status::Failed);
        QVERIFY(!finished.first().at(3).toString().isEmpty());
        QCOMPARE(doc->session(), before);
    }

    void exportsWriteEveryFormat_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("hasHeaders"); // CSV has one row of facts per attempt, no header values
        QTest::newRow("har") << int(SessionExport::Format::Har) << u"attempts.har"_s << true;
        QTest::newRow("csv") << int(SessionExport::Format::Csv) << u"attempts.csv"_s << false;
        QTest::newRow("json") << int(SessionExport::Format::Json) << u"attempts.json"_s << true;
    }

    void exportsWriteEveryFormat()
    {
        QFETCH(int, format);
        QFETCH(QString, name);
        QFETCH(bool, hasHeaders);
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"recordings"_s));
        const QString lab = window.controller()->lab()->url().toString();
        window.requestEditor()->applyCurl(CurlRequestParser::parse(
            u"curl -H 'Authorization: Bearer sk_live_secret_value' "_s + lab + u"/v1/items"_s));
        runBatch(window, 2);
        SessionDocument* doc = window.sessionFiles()->document();
        const QString path = m_dir.filePath(name);
        QVERIFY(doc->exportTo(SessionExport::Format(format), doc->redactionEnabled(), path));
        QVERIFY(waitForJob(doc));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() > 100);
        QVERIFY2(!bytes.contains("sk_live_secret_value"), "secrets are redacted by default");
        if (SessionExport::Format(format) == SessionExport::Format::Har) {
            const QJsonObject har = QJsonDocument::fromJson(bytes).object();
            QCOMPARE(har.value(u"log"_s).toObject().value(u"entries"_s).toArray().size(), doc->session()->attemptCount());
        }
        if (SessionExport::Format(format) == SessionExport::Format::Csv)
            QCOMPARE(bytes.count('\n'), doc->session()->attemptCount() + 1); // header line + one per attempt
        if (!hasHeaders)
            return;
        // Turned off for this session (an explicit choice): the value is written.
        doc->setRedactionEnabled(false);
        QVERIFY(!doc->redactionEnabled());
        QVERIFY(doc->exportTo(SessionExport::Format(format), doc->redactionEnabled(), path));
        QVERIFY(waitForJob(doc));
        f.close();
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("sk_live_secret_value"));
    }

    void whatIfReplayFillsCompare()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"recordings"_s));
        runBatch(window, 3);
        ReplayActions* sessions = window.replays();
        QVERIFY(window.compareView()->isEmpty());
        sessions->replayOfflineAction()->trigger();
        QVERIFY(sessions->isReplaying());
        QTRY_VERIFY_WITH_TIMEOUT(!sessions->isReplaying(), 90000);
        QVERIFY(!window.compareView()->isEmpty());
        QCOMPARE(window.liveViews()->currentWidget(), window.compareView());
        CompareModel* model = window.compareView()->model();
        QCOMPARE(model->index(0, CompareModel::SideA).data().toString(), u"3"_s);
        QCOMPARE(model->index(0, CompareModel::SideB).data().toString(), u"3"_s);
        QCOMPARE(window.compareView()->timelineA()->laneCount(), 3);
        QCOMPARE(window.compareView()->timelineB()->laneCount(), 3);
    }

    // Issue 15 item 5: after a new run the detail pane and Compare still showed the previous session, and
    // during playback the lab panel described the live lab while its log showed the recording.
    void viewsFollowTheCurrentSession()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"recordings"_s));
        runBatch(window, 2);
        QTableView* table = window.attemptsPage()->table();
        table->setCurrentIndex(table->model()->index(0, 0));
        QVERIFY(window.attemptsPage()->detail()->toPlainText().contains(u"Run "_s));
        window.replays()->replayOfflineAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.replays()->isReplaying(), 90000);
        QVERIFY(!window.compareView()->isEmpty());

        // Playback of the recording: the lab panel counts the recording's events up to the playhead.
        window.controller()->loadScenario(u"seed-004-pix"_s); // the live lab now plays something else
        window.playbackBar()->toStart();
        window.playbackBar()->stepForward();
        window.playbackBar()->stepForward();
        QTRY_VERIFY(window.labPanel()->isShowingRecording());
        QCOMPARE(window.labPanel()->shownScenarioName(), u"flaky-api"_s);
        int received = 0;
        const LabEventStore& events = window.controller()->session()->labEvents();
        for (qsizetype i = 0; i < window.controller()->session()->labEventCount(); ++i)
            received += events.kind(i) == LabEvent::Kind::RequestReceived;
        QCOMPARE(window.labPanel()->shownRequests(), received);
        QVERIFY(received < 3);

        window.requestEditor()->setRequest(u"POST"_s, u"/pix/payments"_s, true);
        window.requestEditor()->setRepeatCount(1);
        window.runManyAction()->trigger();
        QVERIFY(window.controller()->isRunning());
        QVERIFY2(window.compareView()->isEmpty(), "the old comparison goes with its session");
        QVERIFY2(!window.attemptsPage()->detail()->toPlainText().contains(u"Run 1, attempt"_s), "no stale attempt");
        QVERIFY(!window.labPanel()->isShowingRecording());
        QCOMPARE(window.labPanel()->shownScenarioName(), u"seed-004-pix"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isRunning(), 90000);
        QVERIFY(window.controller()->waitForRecordings(30000));
        QCoreApplication::processEvents(); // the "saved" report releases the journal
    }

    void compareWithAnotherSessionFile()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"recordings"_s));
        runBatch(window, 2);
        const QString first = window.sessionFiles()->document()->filePath();
        runBatch(window, 3);
        QVERIFY(window.replays()->compareWithFile(first));
        QTRY_VERIFY_WITH_TIMEOUT(!window.compareView()->isEmpty(), 30000);
        QCOMPARE(window.compareView()->timelineA()->laneCount(), 3);
        QCOMPARE(window.compareView()->timelineB()->laneCount(), 2);
    }

    void interruptedRecordingIsRecoveredAtStart()
    {
        // A recording whose process died: a journal with attempts and no "closed" line, from a dead pid.
        const QString path = m_dir.filePath(u"interrupted.json"_s);
        qint64 deadPid = 0;
        {
            QProcess p;
            p.start(u"/bin/true"_s, {});
            QVERIFY(p.waitForStarted());
            deadPid = p.processId();
            QVERIFY(p.waitForFinished());
        }
        {
            SessionRecorder recorder(path);
            QString error;
            QVERIFY2(recorder.start(&error), qPrintable(error));
            RunRecord run;
            run.runId = 1;
            run.request.method = u"GET"_s;
            run.request.url = QUrl(u"http://127.0.0.1:9/x"_s);
            recorder.recordRunStarted(run);
            for (int i = 1; i <= 3; ++i) {
                AttemptRecord a;
                a.runId = 1;
                a.index = i;
                a.method = u"GET"_s;
                a.url = run.request.url;
                a.at.started = MonoTime(std::chrono::milliseconds(i * 100));
                a.at.finished = MonoTime(std::chrono::milliseconds(i * 100 + 20));
                a.status = 503;
                recorder.recordAttempt(a);
            }
            // Destroyed without finish(): the journal stays, as after kill -9.
        }
        const QString journal = SessionJournal::pathFor(path);
        QVERIFY(QFile::exists(journal));
        QFile j(journal);
        QVERIFY(j.open(QIODevice::ReadOnly));
        QByteArray text = j.readAll();
        j.close();
        const QByteArray ownPid = "\"pid\":" + QByteArray::number(QCoreApplication::applicationPid());
        QVERIFY(text.contains(ownPid));
        text.replace(ownPid, QByteArray("\"pid\":" + QByteArray::number(deadPid)));
        QVERIFY(j.open(QIODevice::WriteOnly | QIODevice::Truncate));
        j.write(text);
        j.close();

        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory({});
        // Asked first, without blocking: "Not Now" leaves the journal; "Recover" restores it.
        QCOMPARE(window.recovery()->recoverInterrupted(true), 1);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>()) && box->isVisible());
        QVERIFY(box->detailedText().contains(path));
        box->reject();
        QVERIFY(QFile::exists(journal));
        QCOMPARE(window.sessionFiles()->document()->hasSession(), false);
        QCOMPARE(window.recovery()->recoverInterrupted(true), 1);
        QTRY_VERIFY((box = window.findChild<QMessageBox*>()) && box->isVisible());
        QAbstractButton* recover = nullptr;
        for (QAbstractButton* b : box->buttons()) {
            if (box->buttonRole(b) == QMessageBox::AcceptRole)
                recover = b;
        }
        QVERIFY(recover);
        recover->click();
        // Restored off the GUI thread: the journal goes first, then the window hears of it.
        SessionDocument* doc = window.sessionFiles()->document();
        QTRY_COMPARE(doc->origin(), SessionDocument::Origin::Recovered);
        QVERIFY(!QFile::exists(journal));
        QVERIFY(QFile::exists(path));
        QCOMPARE(doc->session()->attemptCount(), 3);
        window.controller()->session()->flush();
        QCOMPARE(window.controller()->session()->finishedAttempts(), qsizetype(3));
        QCOMPARE(window.recovery()->recoverInterrupted(false), 0); // nothing left
    }

    // File ▸ Import HAR (issue 12 §4): a DevTools export shown as observed runs, off the GUI thread; a HAR that
    // cannot be read leaves the session alone and says where it is wrong.
    void importsAHar()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        SessionDocument* doc = window.sessionFiles()->document();
        QSignalSpy finished(doc, &SessionDocument::jobFinished);
        QVERIFY(window.sessionFiles()->openSession(QStringLiteral(RETRYLAB_TEST_DATA "/har/devtools-retries.har")));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().at(2).value<SessionFile::Status>(), SessionFile::Status::Ok);
        QVERIFY(doc->session());
        QCOMPARE(doc->session()->runs.size(), 2);
        QCOMPARE(doc->session()->attemptCount(), 4);
        QVERIFY(!doc->isSavedByUser()); // Save asks for a session file name
        QVERIFY(doc->session()->runRecord(0).observed.has_value());
        QTRY_COMPARE(window.attemptsPage()->table()->model()->rowCount(), 4);
        const auto shown = doc->session();

        const QString bad = m_dir.filePath(u"broken.har"_s);
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"log": {"version": "1.2", "entries": [ {"request": {"url": "/relative"}} ]}})");
        f.close();
        finished.clear();
        QVERIFY(window.sessionFiles()->importHar(bad));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().at(2).value<SessionFile::Status>(), SessionFile::Status::Failed);
        const QString message = finished.first().at(3).toString();
        QVERIFY2(message.startsWith(u"broken.har: "_s) && message.contains(u"entries[0]"_s), qPrintable(message));
        QCOMPARE(doc->session(), shown);
    }

    // Send to ▸ Observe a client (issue 12 §4): Debian's curl, a client nobody here wrote, sends to the window's
    // lab while it observes; its retries fill the views live as one observed run; Stop makes it the current
    // session, recorded and saved like a batch.
    void observesAClient()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"observed"_s));
        QFile scenario(m_dir.filePath(u"two-503s.json"_s));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        scenario.write(QByteArray(R"({"format":1,"name":"two-503s","routes":[{"path":"ANY","steps":[
            {"kind":"respond","status":503,"repeat":2},{"kind":"respond","status":200,"repeat":"forever"}]}]})")
                           .replace("ANY", "/" "**"));
        scenario.close();
        QVERIFY(window.controller()->loadScenario(scenario.fileName()));
        window.requestEditor()->setObservesClient(true);
        QVERIFY2(window.requestEditor()->hint().contains(window.controller()->lab()->url().toString(QUrl::StripTrailingSlash)),
            qPrintable(window.requestEditor()->hint()));
        QSignalSpy recorded(window.controller(), &RunController::batchRecorded);
        window.runAction()->trigger();
        QVERIFY(window.controller()->isObserving());
        QVERIFY(window.controller()->isRunning());
        QProcess curl;
        curl.start(u"curl"_s, { u"-s"_s, u"-o"_s, u"/dev/null"_s, u"--retry"_s, u"3"_s,
                                   window.controller()->lab()->url().toString(QUrl::StripTrailingSlash) + u"/v1/items"_s });
        QVERIFY(curl.waitForStarted(5000));
        QTRY_VERIFY_WITH_TIMEOUT(curl.state() == QProcess::NotRunning, 20000);
        QCOMPARE(curl.exitCode(), 0);
        // Live, before Stop: three attempts of one run in the Attempts table.
        QTRY_COMPARE_WITH_TIMEOUT(window.attemptsPage()->table()->model()->rowCount(), 3, 10000);
        QVERIFY2(window.controller()->statusText().contains(u"1 logical request"_s), qPrintable(window.controller()->statusText()));
        window.stopAction()->trigger();
        QVERIFY(!window.controller()->isObserving());
        QVERIFY(!window.controller()->isRunning());
        QCOMPARE(recorded.size(), 1);
        const auto session = recorded.first().first().value<std::shared_ptr<const Session>>();
        QCOMPARE(session->runs.size(), 1);
        QCOMPARE(session->attemptCount(), 3);
        QVERIFY(session->runRecord(0).observed.has_value());
        QVERIFY(window.controller()->waitForRecordings(30000));
        QTRY_VERIFY(QFile::exists(recorded.first().at(1).toString()));
        QTRY_COMPARE(window.sessionFiles()->document()->session(), session);
    }

    // The same in front of a real upstream (Python's http.server): the scenario names it, a 503 then `forward`
    // steps; curl's retry gets the upstream's own answer, observed like any other.
    void observesAClientInFrontOfAnUpstream()
    {
        QTemporaryDir site;
        QFile item(site.filePath(u"item.json"_s));
        QVERIFY(item.open(QIODevice::WriteOnly));
        item.write(R"({"from":"python"})");
        item.close();
        CliProcess::PythonHttpServer upstream(site.path());
        QVERIFY(upstream.isRunning());
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(m_dir.filePath(u"observed-upstream"_s));
        QFile scenario(m_dir.filePath(u"503-then-forward.json"_s));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        scenario.write(QByteArray(R"({"format":1,"name":"503-then-forward","upstream":"UPSTREAM","routes":[{"path":"ANY","steps":[
            {"kind":"respond","status":503},{"kind":"forward","repeat":"forever"}]}]})")
                           .replace("ANY", "/" "**")
                           .replace("UPSTREAM", upstream.url().toUtf8()));
        scenario.close();
        QVERIFY(window.controller()->loadScenario(scenario.fileName()));
        window.requestEditor()->setObservesClient(true);
        QSignalSpy recorded(window.controller(), &RunController::batchRecorded);
        window.runAction()->trigger();
        QVERIFY(window.controller()->isObserving());
        QProcess curl;
        curl.start(u"curl"_s, { u"-s"_s, u"--retry"_s, u"2"_s,
                                   window.controller()->lab()->url().toString(QUrl::StripTrailingSlash) + u"/item.json"_s });
        QVERIFY(curl.waitForStarted(5000));
        QTRY_VERIFY_WITH_TIMEOUT(curl.state() == QProcess::NotRunning, 20000);
        QCOMPARE(curl.readAllStandardOutput(), QByteArray(R"({"from":"python"})"));
        QTRY_COMPARE_WITH_TIMEOUT(window.attemptsPage()->table()->model()->rowCount(), 2, 10000);
        window.stopAction()->trigger();
        QCOMPARE(recorded.size(), 1);
        const auto session = recorded.first().first().value<std::shared_ptr<const Session>>();
        QCOMPARE(session->attemptCount(), 2);
        const AttemptRecord forwarded = session->attempt(0, 1);
        QCOMPARE(forwarded.status, std::optional<int>(200));
        bool fromPython = false;
        for (const auto& [name, value] : forwarded.responseHeaders)
            fromPython = fromPython || (name.compare("Server", Qt::CaseInsensitive) == 0 && value.startsWith("SimpleHTTP"));
        QVERIFY2(fromPython, "the upstream's own answer, relayed");
        QVERIFY(window.controller()->waitForRecordings(30000));
    }

    void everyMainActionHasAShortcut()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        const QList<QAction*> actions = { window.runAction(), window.runManyAction(), window.stopAction(),
            window.sessionFiles()->openAction(), window.sessionFiles()->saveAction(), window.sessionFiles()->exportAction(),
            window.sessionFiles()->exportViewAction(), window.replays()->replayOfflineAction(),
            window.replays()->compareSessionAction() };
        QSet<QString> seen;
        for (QAction* a : actions) {
            QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->text()));
            const QString key = a->shortcut().toString();
            QVERIFY2(!seen.contains(key), qPrintable(key + u" twice"_s));
            seen.insert(key);
        }
    }
};

int main(int argc, char** argv)
{
    // A home of its own: journals and recordings another test leaves behind (or is writing) are not here.
    QTemporaryDir home;
    qputenv("HOME", home.path().toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    TestMainWindowSessions test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_mainwindow_sessions.moc"
