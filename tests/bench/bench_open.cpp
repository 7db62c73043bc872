// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a big session in the window (issue 11 §2): writes an N-attempt session (the synthetic runs of
// bench_session, 4 attempts each, plus the fault lab's two events per attempt: request received, and an
// operation applied on success), then — in a fresh child process, so memory is its own — opens it in the
// main window as File ▸ Open does (read off the GUI thread, then shown) and paints every live view once,
// offscreen, at 1600×1000. Prints the time from open to the read, to the views being fed, to each view's
// first paint with the session's data, and the peak memory.
//   bench_open [--attempts N] [--keep DIR]        (N defaults to 1 000 000)
//   bench_open --open FILE                         (the child: open one file, print its figures)
#include "../core/session/sessiontestdata.h"
#include "../ui/testtime.h"

#include "delaychartview.h"
#include "mainwindow.h"
#include "ratelimitchartview.h"
#include "run/attemptspage.h"
#include "run/attemptstablemodel.h"
#include "sessions/sessiondocument.h"
#include "sessions/sessionfileactions.h"
#include "summaryview.h"
#include "timelineview.h"

#include "session/format/sessionfile.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <functional>

using namespace Qt::StringLiterals;

namespace {

long procStatusKb(const char* field)
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(int(qstrlen(field))).trimmed().split(' ').value(0).toLong();
    }
    return 0;
}

LabEvent labEvent(LabEvent::Kind kind, const AttemptRecord& a, qint64 atMs, quint64 requestId)
{
    LabEvent e;
    e.kind = kind;
    e.atMs = atMs;
    e.connectionId = quint64(a.runId);
    e.requestId = requestId;
    e.method = "POST";
    e.path = u"/v1/runs"_s;
    e.route = u"runs"_s;
    e.stepKind = u"respond"_s;
    e.status = a.status.value_or(0);
    e.attemptId = a.attemptId;
    e.idempotencyKey = a.idempotencyKey;
    e.applied = kind == LabEvent::Kind::OperationApplied;
    return e;
}

Session makeSession(int attempts)
{
    const int perRun = 4;
    Session s;
    s.meta = SessionMeta::current();
    s.meta.notes = u"bench_open"_s;
    s.redaction.salt = "00112233";
    s.attempts.reserve(attempts);
    quint64 request = 0;
    for (int r = 1; r <= attempts / perRun; ++r) {
        const RunRecord run = SessionTestData::run(r, perRun);
        s.addRun(run);
        for (const AttemptRecord& a : run.attempts) {
            const qint64 sent = qint64(toMs(*a.at.requestSent));
            s.labEvents.append(labEvent(LabEvent::Kind::RequestReceived, a, sent, ++request));
            if (a.decision && a.decision->verdict == Verdict::Success)
                s.labEvents.append(labEvent(LabEvent::Kind::OperationApplied, a, sent + 30, request));
        }
    }
    return s;
}

// Runs the event loop until DONE says so (or 120 s pass); false on the timeout. It sleeps until an event
// comes (a 5 ms timer wakes it to look at DONE): a loop that spun instead took a core from the reading thread.
bool waitFor(const std::function<bool()>& done)
{
    QElapsedTimer t;
    t.start();
    QTimer tick;
    tick.start(5);
    while (!done()) {
        if (t.elapsed() > 120000)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

int openChild(const QString& path)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "bench_open";
    char* argv[] = { name, nullptr };
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
    window.resize(1600, 1000);
    window.show();
    QCoreApplication::processEvents();
    const long baseKb = procStatusKb("VmRSS:");
    QTextStream out(stdout);

    QElapsedTimer clock;
    clock.start();
    SessionDocument* doc = window.sessionFiles()->document();
    bool read = false;
    qint64 readMs = 0;
    qint64 shownMs = 0;
    QObject::connect(doc, &SessionDocument::jobFinished, &app,
        [&](SessionDocument::Job, const QString&, SessionFile::Status status, const QString& message) {
        readMs = clock.elapsed();
        if (status != SessionFile::Status::Ok)
            QTextStream(stderr) << message << '\n';
        read = true;
    });
    window.openFile(path);
    if (!waitFor([&] { return read; }) || !doc->hasSession())
        return 1;
    shownMs = clock.elapsed(); // showSession() runs inside jobFinished: the views have been fed
    const qsizetype attempts = doc->session()->attemptCount();

    struct View
    {
        const char* name;
        QWidget* widget;
        std::function<bool()> hasData;
    };
    const View views[] = {
        { "timeline", window.timeline(), [&] { return window.timeline()->laneCount() > 0; } },
        { "delays", window.delayChart(), [&] { return window.delayChart()->pointCount() > 0; } },
        { "rate limits", window.rateLimitChart(), [&] { return window.rateLimitChart()->sampleCount() > 0; } },
        { "attempts", window.attemptsPage(), [&] { return window.attemptsPage()->model()->rowCount() > 0; } },
        { "summary", window.summary(), [&] { return window.summary()->summary().finishedRuns > 0; } },
    };
    out << "attempts " << attempts << ", read " << readMs << " ms, views fed " << shownMs << " ms\n";
    for (const View& v : views) {
        window.liveViews()->setCurrentWidget(v.widget);
        if (!waitFor(v.hasData)) {
            out << v.name << ": no data after 120 s\n";
            return 1;
        }
        const QImage shot = v.widget->grab().toImage();
        out << "  " << v.name << " painted at " << clock.elapsed() << " ms (" << shot.width() << 'x' << shot.height() << ")\n";
    }
    const qint64 totalMs = clock.elapsed();
    const long peakKb = procStatusKb("VmHWM:");
    const long rssKb = procStatusKb("VmRSS:");
    out << "open → every view painted: " << totalMs << " ms; RSS " << baseKb / 1024 << " → " << rssKb / 1024
        << " MB (peak " << peakKb / 1024 << " MB), " << (double(rssKb - baseKb) * 1024.0 / double(std::max<qsizetype>(1, attempts)))
        << " bytes per attempt\n";
    out << "result " << totalMs << ' ' << attempts << '\n';
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 3 && qstrcmp(argv[1], "--open") == 0)
        return openChild(QString::fromLocal8Bit(argv[2]));
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    int attempts = 1000000;
    QString keepDir;
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args.at(i) == u"--attempts"_s)
            attempts = args.at(i + 1).toInt();
        else if (args.at(i) == u"--keep"_s)
            keepDir = args.at(i + 1);
    }
    QTemporaryDir temp;
    const QDir dir(keepDir.isEmpty() ? temp.path() : keepDir);
    const QString path = dir.filePath(u"bench-open-%1.json"_s.arg(attempts));
    QTextStream out(stdout);
    if (!QFileInfo::exists(path)) {
        QString error;
        if (!SessionFile::save(makeSession(attempts), path, {}, &error)) {
            out << error << '\n';
            return 1;
        }
    }
    out << "bench_open: " << path << " (" << QFileInfo(path).size() / 1048576 << " MB)\n";
    out.flush();
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.start(app.applicationFilePath(), { u"--open"_s, path });
    child.waitForFinished(-1);
    return child.exitCode();
}
