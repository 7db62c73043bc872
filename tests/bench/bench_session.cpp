// SPDX-License-Identifier: GPL-3.0-or-later
// Session open/save at scale: for 10k, 100k and 1M attempts, the save time, file size, and — each in a
// fresh child process so the peak is its own — the open time and peak resident memory.
//   bench_session [--sizes 10000,100000,1000000] [--keep DIR] [--redact yes]
//     --keep: write the files to DIR and leave them; --redact yes: save with redaction on (the default
//     for real sessions: secret headers and listed query parameters hashed), off otherwise
//   bench_session --open FILE                                    (open one file, print the child's figures)
// "read ahead": what open() took from the thread that reads a large file's end (SessionFile::ReadReport).
#include "../core/session/sessiontestdata.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <sys/resource.h>


using namespace Qt::StringLiterals;

namespace {

// VmHWM: this process image's own peak (ru_maxrss would carry the parent's peak across fork/exec).
long peakRssKb()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    }
    return 0;
}

qint64 cpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return qint64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000;
}

int openChild(const QString& path)
{
    const long before = peakRssKb();
    QElapsedTimer t;
    t.start();
    QString error;
    qint64 calls = 0;
    SessionFile::ReadReport report;
    const std::unique_ptr<Session> s
        = SessionFile::open(path, [&](qint64, qint64) { ++calls; return true; }, &error, nullptr, &report);
    const qint64 ms = t.elapsed();
    const qint64 cpu = cpuMs();
    if (!s) {
        QTextStream(stderr) << error << '\n';
        return 1;
    }
    QTextStream(stdout) << ms << ' ' << peakRssKb() << ' ' << before << ' ' << s->attemptCount() << ' '
                        << s->attempts.memoryBytes() << ' ' << calls << ' ' << cpu << ' '
                        << (report.runsReadAhead ? "runs+events" : report.labEventsReadAhead ? "events" : "no") << '\n';
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 3 && args.at(1) == u"--open"_s)
        return openChild(args.at(2));
    QList<int> sizes { 10000, 100000, 1000000 };
    QString keepDir;
    bool redact = false;
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args.at(i) == u"--sizes"_s) {
            sizes.clear();
            for (const QString& s : args.at(i + 1).split(u','))
                sizes << s.toInt();
        } else if (args.at(i) == u"--keep"_s) {
            keepDir = args.at(i + 1);
        } else if (args.at(i) == u"--redact"_s) {
            redact = args.at(i + 1) == u"yes"_s;
        }
    }
    QTextStream out(stdout);
    QTemporaryDir tempDir;
    const QDir dir(keepDir.isEmpty() ? tempDir.path() : keepDir);
    out << "attempts   save ms (cpu ms)   file MB   open ms (cpu ms)   open peak RSS MB (baseline)   store MB   B/attempt   progress calls   read ahead\n";
    for (int n : std::as_const(sizes)) {
        const int perRun = 4;
        Session s;
        s.meta = SessionMeta::current();
        s.redaction.enabled = redact;
        s.redaction.salt = "00112233";
        s.redaction.queryParameters = { u"token"_s };
        s.attempts.reserve(n);
        for (int r = 1; r <= n / perRun; ++r)
            s.addRun(SessionTestData::run(r, perRun));
        const QString path = dir.filePath(u"bench-%1.json"_s.arg(n));
        QElapsedTimer t;
        t.start();
        const qint64 cpuBefore = cpuMs();
        QString error;
        if (!SessionFile::save(s, path, {}, &error)) {
            out << error << '\n';
            return 1;
        }
        const qint64 saveMs = t.elapsed();
        const qint64 saveCpuMs = cpuMs() - cpuBefore;
        QProcess child;
        child.start(app.applicationFilePath(), { u"--open"_s, path });
        child.waitForFinished(-1);
        const QStringList f = QString::fromLatin1(child.readAllStandardOutput()).trimmed().split(u' ');
        if (f.size() < 8) {
            out << "open failed: " << child.readAllStandardError() << '\n';
            return 1;
        }
        const double rssMb = f.at(1).toDouble() / 1024.0;
        const double baseMb = f.at(2).toDouble() / 1024.0;
        const double storeMb = f.at(4).toDouble() / 1048576.0;
        out << QString::asprintf("%8d %9lld (%6lld) %9.1f %9s (%6s) %14.1f (%5.1f) %18.1f %10.0f %12s %16s\n", n, saveMs, saveCpuMs,
            double(QFileInfo(path).size()) / 1048576.0, qPrintable(f.at(0)), qPrintable(f.at(6)), rssMb, baseMb, storeMb,
            (rssMb - baseMb) * 1048576.0 / n, qPrintable(f.at(5)), qPrintable(f.at(7)));
        out.flush();
        if (keepDir.isEmpty())
            QFile::remove(path);
    }
    return 0;
}
