// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/fleetrun.h"

#include "cli/filechecks.h"

#include "fleet/fleetcomparison.h"
#include "fleet/fleetlaunch.h"
#include "fleet/fleetmeasure.h"
#include "fleet/fleetrecording.h"
#include "fleet/fleetsession.h"
#include "fleet/locustfile.h"
#include "fleet/locustfileshare.h"
#include "lab/faultserver.h"
#include "session/format/sessionfile.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fleet", text);
}

QString fixed(double v, int decimals = 1)
{
    return QString::number(v, 'f', decimals);
}

} // namespace

FleetRun::FleetRun(const FleetSettings& settings, CliIo& io)
    : m_settings(settings)
    , m_io(io)
{ }

int FleetRun::exec()
{
    const FleetSettings& s = m_settings;
    const QString locust = FleetSettings::locustProgram();
    if (locust.isEmpty()) {
        m_io.err << "retrylab fleet: " << FleetSettings::noLocust() << '\n';
        return CliExit::Failed;
    }
    // The lab in front of the target.
    std::unique_ptr<FaultServer> lab;
    QString url = s.url;
    if (s.scenario) {
        lab = std::make_unique<FaultServer>();
        FaultServerOptions options;
        options.address = QHostAddress(s.labBind);
        options.allowNonLoopback = options.address != QHostAddress(QHostAddress::LocalHost);
        options.alsoIpv6Loopback = !options.allowNonLoopback;
        options.upstream = s.upstream;
        options.maxConnections = std::max(1000, s.users * 4 + 100);
        lab->loadScenario(*s.scenario);
        if (!lab->start(options)) {
            m_io.err << "retrylab fleet: the lab cannot listen: " << lab->errorString() << '\n';
            return CliExit::Failed;
        }
        url = u"http://%1:%2%3"_s.arg(s.labBind.contains(u':') ? u"["_s + s.labBind + u"]"_s : s.labBind)
                  .arg(lab->port())
                  .arg(s.pathAndQuery);
    }

    QTemporaryDir temp;
    if (!temp.isValid()) {
        m_io.err << "retrylab fleet: no temporary folder: " << temp.errorString() << '\n';
        return CliExit::Failed;
    }
    LocustFileOptions lf;
    lf.url = url;
    lf.method = s.method;
    lf.arrival = s.arrival;
    lf.rate = s.rate;
    lf.think = s.think;
    lf.users = s.users;
    lf.duration = s.duration;
    lf.drain = s.drain;
    lf.recordAttempts = s.record;
    const QString locustfile = s.locustfilePath.isEmpty() ? temp.filePath(u"retrylab_fleet.py"_s)
                                                          : QDir().absoluteFilePath(s.locustfilePath);
    {
        QSaveFile file(locustfile);
        if (!file.open(QIODevice::WriteOnly) || file.write(LocustFile::write(s.policy, lf).toUtf8()) < 0
            || !file.commit()) {
            m_io.err << "retrylab fleet: " << withFileName(locustfile, file.errorString()) << '\n';
            return CliExit::Failed;
        }
    }
    const QString recordPath = temp.filePath(u"attempts.jsonl"_s);

    FleetLaunchOptions launch;
    launch.locust = locust;
    launch.locustfile = locustfile;
    launch.recordPath = recordPath;
    launch.users = s.users;
    launch.spawnRate = s.spawnRate;
    launch.expectWorkers = s.expectWorkers;
    launch.localWorkers = s.workers;
    launch.bindHost = s.bind;
    launch.port = s.port;
    launch.runLimit = s.duration + s.drain + Millis(60000) + Millis(qint64(1000 * s.users / s.spawnRate));
    launch.workerWait = s.master ? Millis(600000) : Millis(60000);
    FleetLaunch fleet;
    if (!fleet.start(launch)) {
        m_io.err << "retrylab fleet: " << fleet.errorString() << '\n';
        return CliExit::Failed;
    }
    // With --master the locustfile is served beside it, so the worker command is all another machine needs.
    LocustfileShare share;
    if (s.master) {
        const QString host = s.bind == u"0.0.0.0"_s ? QHostInfo::localHostName() : s.bind;
        QTextStream& say = s.json ? m_io.err : m_io.out;
        say << tr("fleet master on %1:%2, waiting for %3 workers; start each with:\n")
                   .arg(host)
                   .arg(fleet.port())
                   .arg(s.expectWorkers);
        if (share.start(locustfile, s.bind)) {
            say << u"  retrylab fleet worker --master-host %1 --master-port %2 --fetch-port %3 --sha256 %4\n"_s.arg(host)
                       .arg(fleet.port())
                       .arg(share.port())
                       .arg(share.sha256())
                << tr("(it fetches the locustfile from here and checks its SHA-256; or copy %1 there and give "
                      "--locustfile FILE instead of --fetch-port and --sha256)\n")
                       .arg(locustfile);
        } else {
            say << u"  retrylab fleet worker --master-host %1 --master-port %2 --locustfile %3\n"_s.arg(host)
                       .arg(fleet.port())
                       .arg(locustfile)
                << tr("(copy the locustfile to the worker's machine first: it cannot be served from here, %1)\n")
                       .arg(share.errorString());
        }
        say.flush();
    }
    QEventLoop loop;
    int masterExit = -1;
    QObject::connect(&fleet, &FleetLaunch::finished, &loop, [&](int code) {
        masterExit = code;
        loop.quit();
    });
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, [&] {
        m_io.err << "retrylab fleet: the master did not end in time; stopped\n";
        fleet.stop();
        loop.quit();
    });
    guard.start(int(std::min<qint64>(INT_MAX, launch.runLimit.count() + launch.workerWait.count() + 30000)));
    loop.exec();
    share.stop();
    if (lab)
        lab->stop();
    const FleetRecording recording = FleetRecording::readFile(recordPath);
    if (!recording.problem.isEmpty()) {
        m_io.err << "retrylab fleet: " << recording.problem << '\n' << fleet.masterLog().right(2000) << '\n';
        return CliExit::Failed;
    }
    return report(recording, lab.get(), masterExit, locustfile, fleet.masterLog());
}

int FleetRun::report(const FleetRecording& recording, const FaultServer* lab, int masterExit, const QString& locustfile,
    const QString& masterLog)
{
    const FleetSettings& s = m_settings;
    QList<LostBehaviour> lost;
    LocustFileOptions lf;
    LocustFile::write(s.policy, lf, &lost);
    const FleetMeasure m = FleetMeasure::of(recording.attempts);
    qint64 cut = 0;
    for (const FleetAttempt& a : recording.attempts)
        cut += a.decision == u"cut"_s ? 1 : 0;
    const qint64 recorded = recording.attempts.size();
    const qint64 sent = recording.attemptsSent();
    const int workersDone = int(recording.workers.size());
    // The lab's count, when it sat in front (--scenario). Two plain values: GCC 12 at -O3 takes an optional
    // read under its own test for possibly uninitialised (-Werror=maybe-uninitialized in the ci preset).
    const bool hasLedger = lab != nullptr;
    const qint64 ledgerCount = lab ? lab->ledger().requestsReceived() : 0;

    FleetGrouping grouping;
    bool saved = true;
    QString saveError;
    if (s.record) {
        const QString notes = tr("retrylab fleet: %1 users on %2 Locust workers, %3; %4")
                                  .arg(s.users)
                                  .arg(s.expectWorkers)
                                  .arg(s.arrivalText(), s.url.isEmpty() ? s.scenarioName : s.url);
        Session session = FleetSession::build(recording.attempts, s.policy, notes, &grouping);
        session.meta.concurrency = s.users; // logical requests in progress at once, at most (closed loop)
        if (s.scenario)
            session.scenario = s.scenario->source;
        if (!s.sessionPath.isEmpty())
            saved = SessionFile::save(session, s.sessionPath, {}, &saveError);
    }
    std::optional<FleetComparison> comparison;
    if (s.compareHerd) {
        FleetClients clients;
        clients.open = s.arrival == LocustFileOptions::Arrival::Open;
        clients.rate = s.rate;
        clients.users = s.users;
        clients.think = s.think;
        clients.duration = s.duration;
        clients.method = s.method;
        comparison = FleetComparison::run(m, s.policy, clients);
    }

    // Everything accounted for: every worker done, what they sent received, the lab's count equal.
    const bool allDone = workersDone >= s.expectWorkers;
    const bool complete = allDone && (!s.record || sent == recorded) && (!hasLedger || !s.record || ledgerCount == recorded)
        && grouping.broken == 0 && saved;
    const double seconds = std::max(1e-9, m.spanS);
    // Without records the lab's count is spread over the run's duration (when requests could start).
    const double ledgerSeconds = m.spanS > 0 ? seconds : double(s.duration.count()) / 1000;
    const double ledgerRate = hasLedger ? double(ledgerCount) / ledgerSeconds : 0;
    if (s.json) {
        QJsonObject o {
            { u"policy"_s, s.policy.name },
            { u"arrival"_s, s.arrival == LocustFileOptions::Arrival::Open ? u"open"_s : u"closed"_s },
            { u"arrival_text"_s, s.arrivalText() },
            { u"users"_s, s.users },
            { u"workers"_s, s.expectWorkers },
            { u"workers_done"_s, workersDone },
            { u"duration_s"_s, double(s.duration.count()) / 1000 },
            { u"logical_requests"_s, m.totals.requests },
            { u"attempts_recorded"_s, recorded },
            { u"attempts_sent_by_workers"_s, sent },
            { u"succeeded"_s, m.totals.succeeded },
            { u"cut"_s, cut },
            { u"amplification"_s, m.totals.amplification() },
            { u"attempts_per_s"_s, m.attemptsPerSecond() },
            { u"attempts_per_s_per_worker"_s, m.attemptsPerSecond() / std::max(1, s.expectWorkers) },
            { u"goodput_per_s"_s, m.goodputPerSecond() },
            { u"span_s"_s, m.spanS },
            { u"worst_wait_slip_ms"_s, m.worstWaitSlipMs },
            { u"runs"_s, grouping.runs },
            { u"runs_broken"_s, grouping.broken },
            { u"complete"_s, complete },
            { u"master_exit"_s, masterExit },
            { u"locustfile"_s, locustfile },
            { u"recorded"_s, s.record },
        };
        if (hasLedger) {
            o.insert(u"ledger_requests"_s, ledgerCount);
            o.insert(u"ledger_attempts_per_s"_s, ledgerRate);
        }
        QJsonArray lostList;
        for (const LostBehaviour& l : lost)
            lostList.append(QJsonObject { { u"path"_s, l.path }, { u"what"_s, l.what } });
        o.insert(u"lost"_s, lostList);
        if (!s.sessionPath.isEmpty())
            o.insert(u"session"_s, s.sessionPath);
        if (comparison)
            o.insert(u"compare_herd"_s, comparison->json(m));
        m_io.out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        QTextStream& out = m_io.out;
        out << tr("fleet: policy %1, %2; %3 users on %4 Locust workers for %5 s\n")
                   .arg(s.policy.name, s.arrivalText())
                   .arg(s.users)
                   .arg(s.expectWorkers)
                   .arg(double(s.duration.count()) / 1000);
        if (!s.policyChanges.isEmpty())
            out << u"  "_s << s.policyChanges << '\n';
        if (s.record) {
            out << tr("  %1 logical requests, %2 attempts (amplification %3), %4 succeeded, %5 cut at the end\n")
                       .arg(m.totals.requests)
                       .arg(recorded)
                       .arg(fixed(m.totals.amplification(), 2))
                       .arg(m.totals.succeeded)
                       .arg(cut);
            out << tr("  %1 attempts/s (%2 a worker), goodput %3/s over %4 s\n")
                       .arg(fixed(m.attemptsPerSecond()), fixed(m.attemptsPerSecond() / std::max(1, s.expectWorkers)),
                           fixed(m.goodputPerSecond()), fixed(m.spanS));
            out << tr("  grouped exactly by X-Retrylab-Attempt: %1 runs, %2 broken; the waits taken were within %3 ms "
                      "of those drawn\n")
                       .arg(grouping.runs)
                       .arg(grouping.broken)
                       .arg(fixed(m.worstWaitSlipMs));
            out << tr("  the workers sent %1 attempts, the master received %2 (%3 of %4 workers done)\n")
                       .arg(sent)
                       .arg(recorded)
                       .arg(workersDone)
                       .arg(s.expectWorkers);
        } else {
            out << tr("  nothing recorded (--no-record); %1 of %2 workers done\n")
                       .arg(workersDone)
                       .arg(s.expectWorkers);
        }
        if (hasLedger)
            out << tr("  the lab's ledger: %1 requests received (%2/s)%3\n")
                       .arg(ledgerCount)
                       .arg(fixed(ledgerRate))
                       .arg(s.record ? (ledgerCount == recorded ? tr(" = the %1 attempts recorded").arg(recorded)
                                                            : tr(" ≠ the %1 attempts recorded").arg(recorded))
                                     : QString());
        for (const LostBehaviour& l : lost)
            out << tr("  the policy's Python form cannot express %1: %2\n").arg(l.path, l.what);
        if (comparison)
            out << comparison->table(m);
        if (!s.sessionPath.isEmpty() && saved)
            out << tr("  session written to %1\n").arg(s.sessionPath);
        out << (complete ? tr("every attempt accounted for\n") : tr("NOT every attempt accounted for\n"));
    }
    if (!saved)
        m_io.err << "retrylab fleet: " << withFileName(s.sessionPath, saveError) << '\n';
    if (!allDone)
        m_io.err << "retrylab fleet: only " << workersDone << " of " << s.expectWorkers
                 << " workers finished; the master said:\n"
                 << masterLog.right(3000) << '\n';
    return complete ? CliExit::Ok : CliExit::Failed;
}
