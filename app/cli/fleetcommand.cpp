// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab fleet`: a fleet of real clients on Locust, every attempt recorded into a session (issue 32).
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/fleetrun.h"
#include "cli/fleetsettings.h"

#include "fleet/fleetlaunch.h"
#include "fleet/locustfileshare.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fleet", text);
}

const char* const kUsage
    = R"(Usage: retrylab fleet --policy NAME|FILE [--set PATH=VALUE]… (--url URL | --scenario S [--upstream URL])
                      --users N --spawn-rate R --duration D [--workers W] [--arrival open:RATE | closed[:THINK]]
                      [--method M] [--path P] [--drain S] [--session FILE] [--json] [--compare-herd]
                      [--locustfile FILE] [--no-record] [--lab-bind ADDR]
                      [--master --expect-workers K [--bind ADDR] [--port P]]
       retrylab fleet worker --master-host H [--master-port P] (--fetch-port F --sha256 HEX | --locustfile FILE)

Runs the policy in a fleet of real clients on Locust (python3-locust 2.12): a headless master and W worker
processes (default: one per core), N users in all, started R a second. Every user makes logical requests
under the policy — its rules and waits are the policy's Python export (retrylab policy export --to urllib3),
word for word — each with its own idempotency key and an X-Retrylab-Attempt header "ID;attempt=N" that
groups its attempts exactly. Every attempt (start, end, status or error, the wait before it, the decision)
goes through Locust's request event and on to the master in batches (Locust's custom messages). After D no
request starts; those under way finish under the policy (at most --drain S more, then they are cut).

The attempts become a session (--session): one observed run per logical request, so `retrylab conform
--session`, the exports and the window all read it. With --scenario the fault lab sits in front of the target
(--upstream: faults layered on a real service's answers, as `serve --upstream`) and its ledger's count of
requests must equal the attempts the workers recorded: both are reported.

Arrival: closed (the default) is Locust's own loop — each user waits for its request's end (and THINK
seconds) before the next, bounded serial clients; open:RATE starts RATE logical requests a second in all,
whatever became of the earlier ones, as real traffic does in an outage. Every report names which.

Options:
  --policy NAME|FILE  a preset (retrylab policy list) or a policy file; --set PATH=VALUE changes a field
  --url URL           the target (http:// or https://), asked by every logical request
  --scenario S        a built-in lab scenario or a scenario file: the lab on 127.0.0.1 is the target
  --upstream URL      where the scenario's forward steps send requests (with --upstream-ca, …, as serve)
  --method M, --path P  the request (default: the scenario's first route; GET on --url)
  --users N           Locust users in all (1–100000)
  --spawn-rate R      users started a second (> 0)
  --duration D        seconds during which logical requests start
  --workers W         local worker processes (default: the number of cores; 0 with --master)
  --drain S           how long requests under way may go on after D (default 30)
  --session FILE      write the session here
  --json              the report as one JSON object
  --compare-herd      also run the herd simulator with the same policy, clients and arrival model against a
                      server fitted from what was measured before the outage, side by side
  --locustfile FILE   keep the locustfile here (default: a temporary folder)
  --no-record         fire no request events and record nothing (to measure what recording costs; the lab's
                      ledger still counts); no session
  --lab-bind ADDR     the lab listens here instead of 127.0.0.1 (workers in another network namespace)
  --master            start no local workers unless --workers says so; print the worker command and wait
                      for --expect-workers K workers (on other machines)
  --bind ADDR, --port P  the master's address and port (default 127.0.0.1, a free port)
  --master-host H     (worker) the master's address; --master-port P its port (default 5557)
  --fetch-port F --sha256 HEX  (worker) fetch the locustfile the master serves on port F (it prints both) and
                      run it only if its SHA-256 is HEX; or --locustfile FILE, a copy made beforehand

Exit status: 0 the fleet ran and every attempt was accounted for (the workers' counts and the lab's ledger
equal the session's), 1 it could not run or an attempt is missing, 2 bad arguments or input.
)";

int runWorker(const QStringList& args, CliIo& io)
{
    CliArgs a;
    a.option(u"master-host"_s).option(u"master-port"_s).option(u"locustfile"_s).option(u"fetch-port"_s).option(u"sha256"_s);
    if (!a.parse(args))
        return FleetSettings::usage(io, a.error());
    if (!a.positional().isEmpty())
        return FleetSettings::usage(
            io, tr("worker takes no positional argument, not \"%1\"").arg(a.positional().first()));
    if (!a.isSet(u"master-host"_s))
        return FleetSettings::usage(io, tr("worker needs --master-host H"));
    const bool fetching = a.isSet(u"fetch-port"_s) || a.isSet(u"sha256"_s);
    if (fetching && a.isSet(u"locustfile"_s))
        return FleetSettings::usage(io, tr("worker takes --locustfile FILE or --fetch-port F --sha256 HEX, not both"));
    if (!fetching && !a.isSet(u"locustfile"_s))
        return FleetSettings::usage(
            io, tr("worker needs --fetch-port F --sha256 HEX or --locustfile FILE (the master prints them)"));
    if (fetching && !(a.isSet(u"fetch-port"_s) && a.isSet(u"sha256"_s)))
        return FleetSettings::usage(io, tr("--fetch-port and --sha256 go together: the file is checked before it runs"));
    quint16 fetchPort = 0;
    if (fetching) {
        const std::optional<qint64> p = a.integer(u"fetch-port"_s, 1, 65535);
        if (!p)
            return FleetSettings::usage(io, a.error());
        fetchPort = quint16(*p);
        if (!LocustfileShare::isSha256(*a.value(u"sha256"_s)))
            return FleetSettings::usage(
                io, tr("--sha256: 64 hexadecimal digits, not \"%1\"").arg(*a.value(u"sha256"_s)));
    }
    QString locustfile = a.value(u"locustfile"_s).value_or(QString());
    if (!fetching && !QFileInfo(locustfile).isFile())
        return FleetSettings::usage(io, tr("--locustfile: no such file: %1").arg(locustfile));
    quint16 port = 5557;
    if (a.isSet(u"master-port"_s)) {
        const std::optional<qint64> p = a.integer(u"master-port"_s, 1, 65535);
        if (!p)
            return FleetSettings::usage(io, a.error());
        port = quint16(*p);
    }
    const QString locust = FleetSettings::locustProgram();
    if (locust.isEmpty()) {
        io.err << "retrylab fleet: " << FleetSettings::noLocust() << '\n';
        return CliExit::Failed;
    }
    QTemporaryDir fetched; // the fetched locustfile lives as long as the worker runs
    if (fetching) {
        QString error;
        const std::optional<QByteArray> text
            = LocustfileShare::fetch(*a.value(u"master-host"_s), fetchPort, *a.value(u"sha256"_s), 30000, &error);
        if (!text) {
            io.err << "retrylab fleet: " << error << '\n';
            return CliExit::Failed;
        }
        locustfile = fetched.filePath(QString::fromLatin1(LocustfileShare::kFileName));
        QFile file(locustfile);
        if (!fetched.isValid() || !file.open(QIODevice::WriteOnly) || file.write(*text) != text->size() || !file.flush()) {
            io.err << "retrylab fleet: cannot keep the fetched locustfile: " << file.errorString() << '\n';
            return CliExit::Failed;
        }
    }
    QProcess worker;
    worker.setProcessChannelMode(QProcess::ForwardedChannels);
    worker.start(locust, FleetLaunch::workerArguments(locustfile, *a.value(u"master-host"_s), port));
    if (!worker.waitForStarted(10000)) {
        io.err << "retrylab fleet: " << worker.errorString() << '\n';
        return CliExit::Failed;
    }
    QEventLoop loop;
    QObject::connect(&worker, &QProcess::finished, &loop, &QEventLoop::quit);
    loop.exec();
    return worker.exitStatus() == QProcess::NormalExit ? CliExit::Ok : CliExit::Failed;
}

int runFleetCommand(const QStringList& args, CliIo& io)
{
    if (!args.isEmpty() && args.first() == u"worker"_s)
        return runWorker(args.mid(1), io);
    FleetSettings settings;
    if (const std::optional<int> refused = settings.read(args, io))
        return *refused;
    return FleetRun(settings, io).exec();
}

} // namespace

CliCommand fleetCommand()
{
    return CliCommand { u"fleet"_s, tr("a fleet of real clients on Locust under one policy, every attempt recorded"),
        QString::fromUtf8(kUsage), runFleetCommand };
}
