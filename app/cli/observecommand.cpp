// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab observe [OPTIONS] -- COMMAND [ARGS…]`: the lab in front of a client nobody here wrote, and the
// client's own retries inferred from what it sent.
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"
#include "cli/observereport.h"
#include "cli/proxychoice.h"
#include "cli/scenariochoice.h"
#include "cli/upstreamchoice.h"

#include "engine/clock.h"
#include "engine/scheduler.h"
#include "intercept/interceptauthority.h"
#include "lab/faultserver.h"
#include "lab/proxyclientenvironment.h"
#include "lab/scenariocatalog.h"
#include "observe/observation.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("observe", text); }

// After the command exits, exchanges still open (a hang the client walked away from closes by itself) get
// this long before the lab stops and records them as stopped.
constexpr int kDrainMs = 10000;

const char* const kUsage = R"(Usage: retrylab observe [--scenario NAME|FILE] [--port P] [--session FILE] [--window S] [--json]
                        [--upstream URL [--upstream-ca FILE | --upstream-insecure] [--upstream-timeout S]
                                        [--upstream-max-body BYTES] [--forwarded-headers]]
                        -- COMMAND [ARGS…]
       retrylab observe --proxy [--intercept HOST…] [--map HOST[:PORT]=ADDR:PORT…] [--upstream-ca FILE]
                        [--ca-dir DIR] [--scenario S] [--session FILE] [--json] -- COMMAND [ARGS…]

Starts the fault lab on 127.0.0.1, runs COMMAND with RETRYLAB_URL=http://127.0.0.1:PORT (and RETRYLAB_BASE_URL,
the same, for SDKs configured with a base URL) in its environment,
and watches what it sends: the exchanges are grouped into the client's logical requests (the attempt headers
of known clients, else the same Idempotency-Key, else — a heuristic, labelled as such — the same client,
method, target and body repeated after a failed answer within the window), with the client's wait before
each retry and what the previous answer asked for. Stops when COMMAND has exited and the exchanges in flight
are done (at most 10 s later). One line per inferred attempt is printed as it happens, then a summary;
COMMAND's own output goes to stderr, so stdout is the report alone.

Options:
  --scenario NAME|FILE  what the lab answers: a built-in scenario (retrylab serve --list) or a scenario file
                        (default flaky-api)
  --port P              the port to listen on (default 0: a free one)
  --upstream URL        a real API (http:// or https://) that `forward` steps send to; with no --scenario,
                        every request is forwarded and the client is observed against the real answers
  --upstream-ca FILE    PEM certificates trusted for the upstream besides the system's
  --upstream-insecure   do not verify the upstream's certificate (said so on every exchange)
  --upstream-timeout S  an upstream slower than this is answered 504 (default 30)
  --upstream-max-body BYTES  an answer body longer than this is answered 502 too_large (default 64 MiB)
  --forwarded-headers   add Via and X-Forwarded-For/-Host/-Proto to forwarded requests (off by default)
  --proxy               observe a client that cannot be re-pointed: the lab is its HTTP(S) proxy and
                        decrypts its TLS with leaves of the Retrylab CA (retrylab ca show). COMMAND gets
                        HTTP(S)_PROXY and http(s)_proxy, NO_PROXY without the intercepted hosts, SSL_CERT_FILE,
                        CURL_CA_BUNDLE, REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS and AWS_CA_BUNDLE (a bundle of
                        the system's CAs and Retrylab's), and NODE_OPTIONS=--require of Retrylab's own preload
                        routing Node's http, https and fetch through the proxy (Node 20 ignores the proxy
                        variables). With no --scenario every request goes on to the host it names.
  --intercept HOST      with --proxy: intercept only these hosts (repeatable, "*.example.com"; default all)
  --map HOST=ADDR:PORT  with --proxy: connect to ADDR:PORT for HOST (tests reach local upstreams by name;
                        Go and Java never proxy localhost or loopback addresses)
  --ca-dir DIR          with --proxy: the CA's folder (default the user's data folder)
  --session FILE        record the observed runs as a session (journalled while it runs, like run --session)
  --window S            how long after a failed answer a repetition still counts as a retry (default 300 s)
  --json                one JSON object per attempt, and a last one with the summary

Exit status: COMMAND's own (1 when it was killed by a signal, 127 when it could not be started), or 2 for
bad arguments (no COMMAND, an unknown option, a scenario that cannot be read, a port that cannot be bound, a
session path that cannot be written).
)";

int usage(CliIo& io, const QString& message)
{
    io.err << "retrylab observe: " << message << '\n';
    return CliExit::Usage;
}

struct Setup
{
    FaultScenario scenario;
    FaultServerOptions lab;
    InferenceOptions inference;
    QString session;
    bool json = false;
    QStringList command;
};

std::optional<Setup> parse(const QStringList& args, CliIo& io, int* status)
{
    *status = CliExit::Usage;
    const qsizetype dashes = args.indexOf(u"--"_s);
    if (dashes < 0 || dashes + 1 >= args.size()) {
        usage(io, tr("give the command to observe after --: retrylab observe [OPTIONS] -- COMMAND [ARGS…]"));
        return std::nullopt;
    }
    Setup s;
    s.command = args.sliced(dashes + 1);
    CliArgs a;
    a.option(u"scenario"_s).option(u"port"_s).option(u"session"_s).option(u"window"_s).flag(u"json"_s);
    UpstreamChoice::declare(a);
    ProxyChoice::declare(a);
    if (!a.parse(args.first(dashes))) {
        usage(io, a.error());
        return std::nullopt;
    }
    if (!a.positional().isEmpty()) {
        usage(io, tr("unexpected argument \"%1\" before -- (the command goes after it)").arg(a.positional().first()));
        return std::nullopt;
    }
    if (a.isSet(u"port"_s)) {
        const std::optional<qint64> port = a.integer(u"port"_s, 0, 65535);
        if (!port) {
            usage(io, a.error());
            return std::nullopt;
        }
        s.lab.port = quint16(*port);
    }
    if (a.isSet(u"window"_s)) {
        const std::optional<qint64> window = a.secondsAsMillis(u"window"_s);
        if (!window) {
            usage(io, a.error());
            return std::nullopt;
        }
        s.inference.window = Millis(*window);
    }
    if (const std::optional<QString> session = a.value(u"session"_s)) {
        if (const QString problem = outputPathProblem(*session); !problem.isEmpty()) {
            usage(io, u"--session: "_s + problem);
            return std::nullopt;
        }
        s.session = *session;
    }
    QString error;
    if (!ProxyChoice::read(a, s.lab, &error)) {
        usage(io, error);
        return std::nullopt;
    }
    if (s.lab.proxy.enabled) {
        // Each request goes on to the origin its client named.
    } else if (std::optional<UpstreamTarget> upstream = UpstreamChoice::read(a, &error)) {
        s.lab.upstream = *upstream;
    } else if (!error.isEmpty()) {
        usage(io, error);
        return std::nullopt;
    }
    // With an upstream (or as a proxy) and no scenario, every request is forwarded: the client against the real API.
    const bool forwardAll = (s.lab.upstream.isSet() || s.lab.proxy.enabled) && !a.isSet(u"scenario"_s);
    const QString scenarioName = a.value(u"scenario"_s).value_or(ScenarioCatalog::defaultScenarioName());
    const std::optional<FaultScenario> scenario
        = forwardAll ? UpstreamChoice::forwardEverything() : ScenarioChoice::load(scenarioName, &error);
    if (!scenario) {
        usage(io, error);
        return std::nullopt;
    }
    if (scenario->hasForwardSteps() && !s.lab.upstream.isSet() && !s.lab.proxy.enabled && scenario->upstream.isEmpty()) {
        usage(io, tr("scenario \"%1\" forwards requests but names no upstream: give --upstream URL").arg(scenarioName));
        return std::nullopt;
    }
    s.scenario = *scenario;
    s.json = a.isSet(u"json"_s);
    return s;
}

QByteArray summaryJson(const QList<ObservedRun>& runs, int exitCode, const QJsonObject& proxy)
{
    qsizetype attempts = 0;
    for (const ObservedRun& run : runs)
        attempts += run.attempts.size();
    QJsonObject o { { u"summary"_s, ObserveReport::summary(runs) }, { u"exchanges"_s, qint64(attempts) },
        { u"runs"_s, qint64(runs.size()) }, { u"retries"_s, qint64(attempts - runs.size()) }, { u"exit"_s, exitCode } };
    if (!proxy.isEmpty())
        o.insert(u"proxy"_s, proxy);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// What the proxy saw, host by host, and — when the command sent nothing through it — the likely causes.
QJsonObject proxyReport(const FaultServer& lab, const ProxyClientEnvironment& environment, QStringList* lines)
{
    QJsonArray hosts;
    int requests = 0;
    int tunnels = 0;
    for (const ProxyHost& host : lab.proxyHosts()) {
        requests += host.requests;
        tunnels += host.tunnels;
        QJsonObject o { { u"host"_s, host.authority }, { u"intercepted"_s, host.intercepted }, { u"tunnels"_s, host.tunnels },
            { u"requests"_s, host.requests }, { u"failures"_s, host.failures } };
        if (!host.mappedTo.isEmpty())
            o.insert(u"mapped_to"_s, host.mappedTo);
        if (!host.lastProblem.isEmpty())
            o.insert(u"last_problem"_s, host.lastProblem);
        hosts.append(o);
        QString line = tr("%1 %2: %3 tunnels, %4 requests")
                           .arg(host.authority, host.intercepted ? tr("intercepted") : tr("relayed untouched"))
                           .arg(host.tunnels)
                           .arg(host.requests);
        if (host.failures)
            line += tr(", %1 failed (last: %2)").arg(host.failures).arg(host.lastProblem);
        *lines << line;
    }
    QJsonObject o { { u"environment"_s, QJsonArray::fromStringList(environment.names()) }, { u"hosts"_s, hosts } };
    if (requests == 0 && tunnels == 0) {
        const QString why = tr("the command made no request through the proxy: a runtime that ignores the proxy "
                               "variables (Java needs -Dhttps.proxyHost; Go never proxies localhost or loopback "
                               "addresses: use a name and --map), a client with its own proxy setting, or no "
                               "request at all");
        *lines << why;
        o.insert(u"problem"_s, why);
    } else if (requests == 0) {
        const QString why = tr("tunnels were opened but no request came through them: a client that refused the "
                               "Retrylab CA (a pinned certificate, or its own CA bundle)");
        *lines << why;
        o.insert(u"problem"_s, why);
    }
    return o;
}

int runObserve(const QStringList& args, CliIo& io)
{
    int status = CliExit::Usage;
    const std::optional<Setup> setup = parse(args, io, &status);
    if (!setup)
        return status;
    FaultServer lab;
    lab.loadScenario(setup->scenario);
    if (!lab.start(setup->lab)) // before the journal, so a port in use leaves no file behind
        return usage(io, lab.errorString());
    // The lab on the observation's axis; each exchange it ends placed and recorded, its events beside them.
    Observation observation(io.clock, &lab, setup->inference);
    QString error;
    if (!setup->session.isEmpty() && !observation.journalTo(setup->session, &error))
        return usage(io, withFileName(setup->session, error));
    for (const QString& warning : lab.warnings())
        io.err << "retrylab observe: warning: " << warning << '\n';

    QEventLoop loop;
    QSet<quint64> inFlight;
    bool exited = false;
    std::optional<Scheduler::TaskId> drain; // after the command exited: the lab stops at the latest then
    const auto quitWhenDone = [&] {
        if (exited && inFlight.isEmpty())
            loop.quit();
    };
    QObject::connect(&lab, &FaultServer::requestReceived, &loop, [&](const LabEvent& e) { inFlight.insert(e.requestId); });
    const RecordOptions& records = observation.recordOptions();
    QObject::connect(&observation, &Observation::placed, &loop, [&](const ObservedRun& run, const ObservedAttempt& attempt) {
        inFlight.remove(attempt.exchange.requestId);
        if (setup->json)
            io.out << QString::fromUtf8(ObserveReport::attemptJson(run, attempt, records)) << '\n';
        else
            io.out << ObserveReport::attemptLine(run, attempt, records) << '\n';
        io.out.flush();
        quitWhenDone();
    });

    QProcess child;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    ProxyClientEnvironment proxyEnvironment;
    QTemporaryDir clientFiles;
    if (setup->lab.proxy.enabled) {
        // The client is not re-pointed: it keeps its own URLs and is told to use the lab as its proxy.
        if (!clientFiles.isValid())
            return usage(io, tr("cannot make a temporary folder for the client's CA bundle"));
        proxyEnvironment = ProxyClientEnvironment::prepare(clientFiles.path(), lab.url(), *setup->lab.proxy.authority,
            setup->lab.proxy.intercept, environment, &error);
        if (proxyEnvironment.isEmpty())
            return usage(io, error);
        proxyEnvironment.applyTo(environment);
        ProxyChoice::describe(io.err, setup->lab, lab.url().toString());
        io.err << tr("environment for %1: %2").arg(setup->command.first(), proxyEnvironment.names().join(u' ')) << '\n';
        io.err.flush();
    } else {
        environment.insert(u"RETRYLAB_URL"_s, lab.url().toString(QUrl::StripTrailingSlash));
        environment.insert(u"RETRYLAB_BASE_URL"_s, lab.url().toString(QUrl::StripTrailingSlash)); // as conform gives it
    }
    child.setProcessEnvironment(environment);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.setInputChannelMode(QProcess::ForwardedInputChannel);
    QObject::connect(&child, &QProcess::readyRead, &loop, [&] {
        io.err << QString::fromLocal8Bit(child.readAll());
        io.err.flush();
    });
    bool failedToStart = false;
    QObject::connect(&child, &QProcess::errorOccurred, &loop, [&](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            failedToStart = true;
            loop.quit();
        }
    });
    QObject::connect(&child, &QProcess::finished, &loop, [&] {
        io.err << QString::fromLocal8Bit(child.readAll());
        exited = true;
        drain = io.scheduler.scheduleAt(io.clock.now() + std::chrono::milliseconds(kDrainMs), [&loop] { loop.quit(); });
        quitWhenDone();
    });
    child.start(setup->command.first(), setup->command.sliced(1));
    loop.exec();
    if (drain)
        io.scheduler.cancel(*drain);
    lab.stop(); // what was still open ends now, as "stopped"
    if (failedToStart) {
        io.err << "retrylab observe: " << tr("cannot run %1: %2").arg(setup->command.first(), child.errorString()) << '\n';
        return 127;
    }
    const int exitCode = child.exitStatus() == QProcess::NormalExit ? child.exitCode() : 1;
    if (child.exitStatus() != QProcess::NormalExit)
        io.err << "retrylab observe: " << tr("%1 was killed by a signal").arg(setup->command.first()) << '\n';
    observation.finish();
    const QList<ObservedRun>& runs = observation.inference().runs();
    QStringList proxyLines;
    const QJsonObject proxy = setup->lab.proxy.enabled ? proxyReport(lab, proxyEnvironment, &proxyLines) : QJsonObject();
    if (setup->json) {
        io.out << QString::fromUtf8(summaryJson(runs, exitCode, proxy)) << '\n';
    } else {
        for (const QString& line : std::as_const(proxyLines))
            io.out << tr("proxy: ") << line << '\n';
        io.out << ObserveReport::summary(runs) << tr("; %1 exited %2").arg(setup->command.first()).arg(exitCode) << '\n';
    }
    if (!setup->session.isEmpty()) {
        if (!observation.save(&error)) {
            io.err << "retrylab observe: " << withFileName(setup->session, error) << '\n';
            return exitCode ? exitCode : CliExit::Failed;
        }
        if (!setup->json)
            io.out << tr("session written to %1").arg(setup->session) << '\n';
    }
    return exitCode;
}

} // namespace

CliCommand observeCommand()
{
    return CliCommand { u"observe"_s, tr("run a client against the lab and infer its own retries from what it sent"),
        QString::fromUtf8(kUsage), runObserve };
}
