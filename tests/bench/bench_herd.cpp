// SPDX-License-Identifier: GPL-3.0-or-later
// The herd simulator against a peer (issue 29 §4): the aws-2015 model in Retrylab and in a plain Python
// re-implementation of the 2015 simulator (tests/bench/aws2015_reference.py, heapq, same parameters), in one
// run: both tables, each mean's difference and the speed ratio. Then 10⁴, 10⁵ and 10⁶ open-loop clients
// through a 60 s outage and recovery: time and peak memory per client, to show they grow linearly.
//
// Usage: bench_herd [--runs 100] [--clients 10,50,100,150] [--skip-python] [--skip-big] [--big 1000000]
#include "policy/presetcatalog.h"
#include "sim/herdcatalog.h"
#include "sim/herdsimulator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTextStream>

#include <cstdio>
#include <thread>

namespace {

// Peak resident memory since the last reset, in bytes (VmHWM), and its reset (clear_refs 5, Linux ≥ 4.0).
qint64 peakRss()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    return -1;
}

qint64 currentRss()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    return -1;
}

void resetPeak()
{
    QFile refs(QStringLiteral("/proc/self/clear_refs"));
    if (refs.open(QIODevice::WriteOnly))
        refs.write("5");
}

struct Row
{
    double calls = 0;
    double completion = 0;
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QStringList args = app.arguments();
    const auto valueOf = [&](const QString& name, const QString& fallback) {
        const qsizetype at = args.indexOf(name);
        return at >= 0 && at + 1 < args.size() ? args.at(at + 1) : fallback;
    };
    const int runs = valueOf(QStringLiteral("--runs"), QStringLiteral("100")).toInt();
    const QStringList clientList = valueOf(QStringLiteral("--clients"), QStringLiteral("10,50,100,150")).split(u',');
    const int big = valueOf(QStringLiteral("--big"), QStringLiteral("1000000")).toInt();

    // ---- aws-2015: Retrylab, on one thread, then on every core (runs are independent)
    HerdExperiment aws = *HerdCatalog::experiment(QStringLiteral("aws-2015"));
    aws.runs = runs;
    QMap<QPair<int, QString>, Row> ours;
    const auto timeOurs = [&](int threads) {
        QElapsedTimer timer;
        timer.start();
        for (const QString& n : clientList) {
            aws.clients.clients = n.toInt();
            const HerdResult result = runHerdExperiment(aws, nullptr, {}, threads);
            for (const HerdPolicyResult& r : result.results)
                ours[{ n.toInt(), r.label }] = Row { r.totals.serverCalls, r.totals.completionMs };
        }
        return double(timer.nsecsElapsed()) / 1e9;
    };
    const double oursOneThread = timeOurs(1);
    const int cores = int(std::thread::hardware_concurrency());
    const double oursSeconds = timeOurs(0);
    QElapsedTimer timer;

    // ---- aws-2015: the Python peer
    QMap<QPair<int, QString>, Row> theirs;
    double theirsSeconds = 0;
    if (!args.contains(QStringLiteral("--skip-python"))) {
        QProcess python;
        python.start(QStringLiteral("python3"), { QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/bench/aws2015_reference.py"),
                                                    QStringLiteral("--clients"), clientList.join(u','), QStringLiteral("--runs"),
                                                    QString::number(runs), QStringLiteral("--json") });
        python.waitForFinished(-1);
        const QJsonObject report = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        theirsSeconds = report.value(u"seconds").toDouble();
        for (const QJsonValue& v : report.value(u"rows").toArray()) {
            const QJsonObject row = v.toObject();
            theirs[{ row.value(u"clients").toInt(), row.value(u"policy").toString() }]
                = Row { row.value(u"server_calls_mean").toDouble(), row.value(u"completion_ms_mean").toDouble() };
        }
        if (theirs.isEmpty())
            out << "the Python peer printed nothing: " << python.readAllStandardError() << "\n";
    }

    out << "aws-2015, " << runs << " runs per cell (means)\n";
    out << QStringLiteral("%1  %2 %3 %4 %5   %6 %7 %8\n")
               .arg(QStringLiteral("clients"), 7).arg(QStringLiteral("policy"), -13).arg(QStringLiteral("calls R"), 10)
               .arg(QStringLiteral("calls Py"), 10).arg(QStringLiteral("diff"), 7).arg(QStringLiteral("compl. ms R"), 12)
               .arg(QStringLiteral("compl. ms Py"), 12).arg(QStringLiteral("diff"), 7);
    double worst = 0;
    for (auto it = ours.cbegin(); it != ours.cend(); ++it) {
        const Row& r = it.value();
        const Row p = theirs.value(it.key());
        const double dc = p.calls > 0 ? 100.0 * (r.calls - p.calls) / p.calls : 0;
        const double dt = p.completion > 0 ? 100.0 * (r.completion - p.completion) / p.completion : 0;
        worst = std::max({ worst, std::abs(dc), std::abs(dt) });
        out << QStringLiteral("%1  %2 %3 %4 %5   %6 %7 %8\n")
                   .arg(it.key().first, 7).arg(it.key().second, -13).arg(r.calls, 10, 'f', 1).arg(p.calls, 10, 'f', 1)
                   .arg(QStringLiteral("%1 %").arg(dc, 0, 'f', 1), 7).arg(r.completion, 12, 'f', 1)
                   .arg(p.completion, 12, 'f', 1).arg(QStringLiteral("%1 %").arg(dt, 0, 'f', 1), 7);
    }
    out << QStringLiteral("Python %1 s; Retrylab on 1 thread %2 s (%3x), on %4 cores %5 s (%6x faster; target ≥ 20x); "
                          "largest difference of a mean %7 % (target ≤ 5 %)\n")
               .arg(theirsSeconds, 0, 'f', 3).arg(oursOneThread, 0, 'f', 3).arg(theirsSeconds / oursOneThread, 0, 'f', 1)
               .arg(cores).arg(oursSeconds, 0, 'f', 3).arg(oursSeconds > 0 ? theirsSeconds / oursSeconds : 0, 0, 'f', 1)
               .arg(worst, 0, 'f', 1);
    out.flush();

    if (args.contains(QStringLiteral("--skip-big")))
        return 0;

    // ---- open-loop clients through a 60 s outage: arrivals over 180 s, the outage from 60 s to 120 s, a
    // server sized to the load (10 ms a request, one worker per 1 000 clients), the clients on
    // go-retryablehttp's defaults (5 attempts, 1 s doubling to 30 s, Retry-After honoured) over 100 processes.
    out << "\nopen loop, arrivals over 180 s, outage 60–120 s (503 with Retry-After: 5), preset go-retryablehttp\n";
    out << QStringLiteral("%1 %2 %3 %4 %5 %6\n").arg(QStringLiteral("clients"), 9).arg(QStringLiteral("attempts"), 10)
               .arg(QStringLiteral("seconds"), 9).arg(QStringLiteral("ns/client"), 10).arg(QStringLiteral("peak MiB"), 9)
               .arg(QStringLiteral("bytes/client"), 13);
    for (int n = 10000; n <= big; n *= 10) {
        HerdExperiment e;
        e.name = QStringLiteral("outage-1m");
        e.server.concurrency = std::max(1, n / 1000);
        e.server.service = HerdDistribution { HerdDistribution::Kind::Exponential, 10, 0 };
        e.server.outage = HerdWindow { Millis(60000), Millis(60000) };
        e.server.retryAfter = Millis(5000);
        e.clients.loop = HerdClientModel::Loop::Open;
        e.clients.clients = n;
        e.clients.rate = double(n) / 180.0;
        e.clients.processes = 100;
        e.duration = Millis(240000);
        e.policies.append(HerdPolicy { QStringLiteral("go-retryablehttp"), *PresetCatalog::load(QStringLiteral("go-retryablehttp")).policy });
        const qint64 before = currentRss();
        resetPeak();
        timer.start();
        const HerdResult result = runHerdExperiment(e);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const qint64 peak = peakRss();
        const HerdTotals& t = result.results.first().totals;
        out << QStringLiteral("%1 %2 %3 %4 %5 %6\n").arg(n, 9).arg(qint64(t.attempts), 10).arg(seconds, 9, 'f', 3)
                   .arg(seconds * 1e9 / n, 10, 'f', 0).arg(double(peak) / 1048576.0, 9, 'f', 1)
                   .arg(double(peak - before) / n, 13, 'f', 1);
        out.flush();
    }
    return 0;
}
