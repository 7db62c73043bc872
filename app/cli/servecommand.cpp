// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab serve`: the fault lab as a standalone server, until SIGINT/SIGTERM.
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"
#include "cli/proxychoice.h"
#include "cli/scenariochoice.h"
#include "cli/upstreamchoice.h"

#include "engine/clock.h"
#include "lab/faultserver.h"
#include "lab/labexchangejson.h"
#include "lab/scenariocatalog.h"
#include "observe/observation.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

int signalPipe[2] = { -1, -1 };

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(signalPipe[1], &byte, 1);
}

// Self-pipe: the handler only writes a byte; the event loop sees it through a QSocketNotifier and quits.
bool installQuitOnSignals(QObject* context)
{
    if (signalPipe[0] < 0 && ::socketpair(AF_UNIX, SOCK_STREAM, 0, signalPipe) != 0)
        return false;
    auto* notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, context);
    QObject::connect(notifier, &QSocketNotifier::activated, context, [notifier] {
        char byte = 0;
        [[maybe_unused]] const ssize_t n = ::read(signalPipe[0], &byte, 1);
        notifier->setEnabled(false);
        QCoreApplication::quit();
    });
    struct sigaction action { };
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    return true;
}

QString describe(const LabEvent& e)
{
    QString line = u"%1ms %2 %3"_s.arg(e.atMs, 7).arg(QString::fromLatin1(e.method), e.path);
    if (!e.route.isEmpty())
        line += u" [%1]"_s.arg(e.route);
    line += u" → "_s + e.stepKind;
    if (e.status)
        line += u" %1"_s.arg(e.status);
    if (e.applied)
        line += u" (applied)"_s;
    if (!e.idempotencyKey.isEmpty())
        line += u" key=%1"_s.arg(e.idempotencyKey);
    if (!e.attemptId.isEmpty())
        line += u" attempt=%1"_s.arg(e.attemptId);
    if (!e.detail.isEmpty())
        line += u" — "_s + e.detail;
    return line;
}

int serve(const QStringList& args, CliIo& io)
{
    CliArgs cli;
    cli.option(u"scenario"_s).option(u"port"_s).option(u"bind"_s).option(u"seed"_s).flag(u"tls"_s).flag(u"list"_s);
    cli.flag(u"json"_s).option(u"max-requests"_s).option(u"duration"_s).option(u"session"_s).option(u"window"_s);
    UpstreamChoice::declare(cli);
    ProxyChoice::declare(cli);
    if (!cli.parse(args) || !cli.positional().isEmpty()) {
        io.err << "retrylab serve: "
               << (cli.error().isEmpty() ? u"unexpected argument \"%1\""_s.arg(cli.positional().first()) : cli.error()) << '\n';
        return CliExit::Usage;
    }
    if (cli.isSet(u"list"_s)) {
        for (const QString& other : { u"scenario"_s, u"port"_s, u"bind"_s, u"seed"_s, u"tls"_s, u"json"_s,
                 u"max-requests"_s, u"duration"_s, u"session"_s, u"window"_s, u"upstream"_s, u"upstream-ca"_s,
                 u"upstream-insecure"_s, u"upstream-timeout"_s, u"upstream-max-body"_s, u"forwarded-headers"_s, u"proxy"_s,
                 u"intercept"_s, u"map"_s, u"ca-dir"_s }) {
            if (cli.isSet(other)) {
                io.err << "retrylab serve: --list takes no other option, not --" << other << '\n';
                return CliExit::Usage;
            }
        }
        for (const ScenarioCatalog::Entry& entry : ScenarioCatalog::builtIn())
            io.out << QStringLiteral("%1  %2\n").arg(entry.name, -24).arg(entry.description);
        return CliExit::Ok;
    }
    FaultServerOptions options;
    if (cli.isSet(u"port"_s)) {
        const std::optional<qint64> port = cli.integer(u"port"_s, 0, 65535);
        if (!port) {
            io.err << "retrylab serve: " << cli.error() << '\n';
            return CliExit::Usage;
        }
        options.port = quint16(*port);
    }
    if (cli.isSet(u"seed"_s)) {
        const std::optional<qint64> seed = cli.integer(u"seed"_s, 0, (1LL << 53));
        if (!seed) {
            io.err << "retrylab serve: " << cli.error() << '\n';
            return CliExit::Usage;
        }
        options.seed = quint64(*seed);
    }
    if (const std::optional<QString> bind = cli.value(u"bind"_s)) {
        const QHostAddress address(*bind);
        if (address.isNull()) {
            io.err << "retrylab serve: --bind needs an IP address, not '" << *bind << "'\n";
            return CliExit::Usage;
        }
        options.address = address;
        options.allowNonLoopback = true; // asked for explicitly; FaultServer warns
    }
    if (cli.isSet(u"tls"_s))
        options.tls = LabTlsMode::Valid;
    std::optional<qint64> maxRequests;
    if (cli.isSet(u"max-requests"_s) && !(maxRequests = cli.integer(u"max-requests"_s, 1, 1000000000))) {
        io.err << "retrylab serve: " << cli.error() << '\n';
        return CliExit::Usage;
    }
    std::optional<qint64> durationMs;
    if (cli.isSet(u"duration"_s) && !(durationMs = cli.secondsAsMillis(u"duration"_s))) {
        io.err << "retrylab serve: " << cli.error() << '\n';
        return CliExit::Usage;
    }
    const bool json = cli.isSet(u"json"_s);
    const QString sessionPath = cli.value(u"session"_s).value_or(QString());
    if (cli.isSet(u"session"_s)) {
        if (const QString problem = outputPathProblem(sessionPath); !problem.isEmpty()) {
            io.err << "retrylab serve: --session: " << problem << '\n';
            return CliExit::Usage;
        }
    }
    InferenceOptions inference;
    if (cli.isSet(u"window"_s)) {
        const std::optional<qint64> window = cli.secondsAsMillis(u"window"_s);
        if (!window || !cli.isSet(u"session"_s)) {
            io.err << "retrylab serve: " << (window ? u"--window needs --session (it groups the recorded exchanges)"_s : cli.error()) << '\n';
            return CliExit::Usage;
        }
        inference.window = Millis(*window);
    }
    QString upstreamError;
    if (!ProxyChoice::read(cli, options, &upstreamError)) {
        io.err << "retrylab serve: " << upstreamError << '\n';
        return CliExit::Usage;
    }
    if (options.proxy.enabled) {
        // The upstream of each request is the origin its client named.
    } else if (std::optional<UpstreamTarget> upstream = UpstreamChoice::read(cli, &upstreamError)) {
        options.upstream = *upstream;
    } else if (!upstreamError.isEmpty()) {
        io.err << "retrylab serve: " << upstreamError << '\n';
        return CliExit::Usage;
    }
    // With an upstream (or as a forward proxy) and no scenario, every request is forwarded: pure observation.
    const bool observe = (options.upstream.isSet() || options.proxy.enabled) && !cli.isSet(u"scenario"_s);
    const QString scenarioName = cli.value(u"scenario"_s).value_or(ScenarioCatalog::defaultScenarioName());
    QString error;
    const std::optional<FaultScenario> scenario
        = observe ? UpstreamChoice::forwardEverything() : ScenarioChoice::load(scenarioName, &error);
    if (!scenario) {
        io.err << "retrylab serve: " << error << '\n';
        return CliExit::Usage;
    }
    if (scenario->hasForwardSteps() && !options.upstream.isSet() && !options.proxy.enabled && scenario->upstream.isEmpty()) {
        io.err << "retrylab serve: scenario \"" << scenarioName
               << "\" forwards requests but names no upstream: give --upstream URL\n";
        return CliExit::Usage;
    }

    FaultServer server;
    const Clock& clock = io.clock;
    server.setClock([&clock] { return std::chrono::duration_cast<std::chrono::milliseconds>(clock.now()).count(); });
    server.loadScenario(*scenario);
    if (!server.start(options)) {
        io.err << "retrylab serve: " << server.errorString() << '\n';
        return CliExit::Failed;
    }
    // --session: every exchange recorded as an attempt of the client's inferred run, journalled as it ends
    // (a crash or SIGKILL loses nothing that ended: `retrylab recover`).
    std::unique_ptr<Observation> observation;
    if (!sessionPath.isEmpty()) {
        observation = std::make_unique<Observation>(io.clock, &server, inference);
        observation->setSource(u"serve"_s);
        QString journalError;
        if (!observation->journalTo(sessionPath, &journalError)) {
            io.err << "retrylab serve: " << withFileName(sessionPath, journalError) << '\n';
            return CliExit::Usage;
        }
    }
    // Under --json, stdout carries only the exchanges (one JSON object per line); the rest goes to stderr.
    QTextStream& human = json ? io.err : io.out;
    human << "listening on " << server.url().toString() << '\n';
    if (options.tls != LabTlsMode::Off)
        human << "listening on " << server.tlsUrl().toString() << " (test certificate: resources/tls/localhost-cert.pem)\n";
    human << "scenario " << scenario->name << ": " << scenario->description << '\n';
    if (options.proxy.enabled)
        ProxyChoice::describe(human, options, server.url().toString());
    else if (scenario->hasForwardSteps())
        human << "forwarding to " << server.upstream().describe() << '\n';
    human.flush();
    for (const QString& warning : server.warnings())
        io.err << "retrylab serve: warning: " << warning << '\n';
    io.err.flush();

    qint64 exchangesEnded = 0;
    QObject::connect(&server, &FaultServer::exchangeFinished, &server, [&, maxRequests](const LabExchange& x) {
        if (json) {
            io.out << QString::fromUtf8(QJsonDocument(LabExchangeJson::toJson(x,
                                            LabExchangeJson::secretRedactor(server.redactionSalt())))
                                            .toJson(QJsonDocument::Compact))
                   << '\n';
            io.out.flush();
        }
        if (maxRequests && ++exchangesEnded == *maxRequests) {
            human << u"%1ms stopping: %2 requests served (--max-requests)\n"_s.arg(server.nowMs(), 7).arg(*maxRequests);
            human.flush();
            QTimer::singleShot(0, qApp, &QCoreApplication::quit); // after the exchange's own bookkeeping
        }
    });
    if (durationMs) {
        QTimer::singleShot(std::chrono::milliseconds(*durationMs), &server, [&human, &server] {
            human << u"%1ms stopping: --duration elapsed\n"_s.arg(server.nowMs(), 7);
            human.flush();
            QCoreApplication::quit();
        });
    }
    QObject::connect(&server, &FaultServer::labEvent, &server, [&io, json](const LabEvent& e) {
        if (json)
            return;
        switch (e.kind) {
        case LabEvent::Kind::ResponseFinished:
        case LabEvent::Kind::ControlRequest:
            io.out << describe(e) << '\n';
            break;
        case LabEvent::Kind::Rejected:
            io.out << u"%1ms rejected %2 — %3\n"_s.arg(e.atMs, 7).arg(e.status).arg(e.detail);
            break;
        case LabEvent::Kind::ListeningChanged:
            io.out << u"%1ms %2\n"_s.arg(e.atMs, 7).arg(e.detail);
            break;
        case LabEvent::Kind::Tunnel:
            io.out << u"%1ms CONNECT %2\n"_s.arg(e.atMs, 7).arg(e.detail);
            break;
        default:
            return;
        }
        io.out.flush();
    });
    if (!installQuitOnSignals(&server))
        io.err << "retrylab serve: warning: cannot install signal handlers; stop with SIGKILL\n";
    QCoreApplication::exec();
    server.stop();
    human << "stopped; " << server.ledger().requestsReceived() << " requests received, "
          << server.ledger().operationsApplied() << " operations applied\n";
    for (const ProxyHost& host : server.proxyHosts()) {
        human << "  " << host.authority << (host.intercepted ? " intercepted: " : " relayed untouched: ") << host.tunnels
              << " tunnels, " << host.requests << " requests";
        if (!host.mappedTo.isEmpty())
            human << ", mapped to " << host.mappedTo;
        if (host.failures)
            human << ", " << host.failures << " failed (last: " << host.lastProblem << ')';
        human << '\n';
    }
    if (observation) {
        QString saveError;
        if (!observation->save(&saveError)) {
            io.err << "retrylab serve: " << withFileName(sessionPath, saveError) << '\n';
            return CliExit::Failed;
        }
        const QList<ObservedRun>& runs = observation->inference().runs();
        qsizetype attempts = 0;
        for (const ObservedRun& run : runs)
            attempts += run.attempts.size();
        human << "session written to " << sessionPath << ": " << attempts << " exchanges in " << runs.size()
              << " inferred runs\n";
    }
    human.flush();
    return CliExit::Ok;
}

} // namespace

CliCommand serveCommand()
{
    CliCommand command;
    command.name = u"serve"_s;
    command.summary = QCoreApplication::translate("cli", "run the fault lab: an HTTP server that fails on purpose");
    command.usage = QCoreApplication::translate("cli",
        "Usage: retrylab serve [--scenario NAME|FILE] [--port N] [--bind ADDR] [--tls] [--seed S]\n"
        "                      [--json] [--max-requests N] [--duration S] [--session FILE [--window S]]\n"
        "                      [--upstream URL [--upstream-ca FILE | --upstream-insecure] [--upstream-timeout S]\n"
        "                                      [--upstream-max-body BYTES] [--forwarded-headers]]\n"
        "       retrylab serve --proxy [--intercept HOST…] [--map HOST[:PORT]=ADDR:PORT…] [--upstream-ca FILE]\n"
        "                      [--ca-dir DIR] [--scenario S] [--port N] [--session FILE] [--json] …\n"
        "       retrylab serve --list\n"
        "\n"
        "Serves a fault scenario on 127.0.0.1 (and [::1]) until SIGINT or SIGTERM, then exits 0.\n"
        "The first line is `listening on http://127.0.0.1:PORT`; one line per request follows.\n"
        "With --json, stdout has one JSON object per exchange as it ends (secret headers redacted; fields in\n"
        "resources/docs/scenario-format.md, \"Exchanges\") and the other lines go to stderr.\n"
        "\n"
        "  --scenario NAME|FILE  a built-in scenario (see --list) or a scenario JSON file (default flaky-api)\n"
        "  --port N              port to listen on (default 0: a free port, printed)\n"
        "  --bind ADDR           listen on another address (warning: beyond loopback anyone can drive it)\n"
        "  --tls                 also serve HTTPS with the test certificate for 127.0.0.1/localhost\n"
        "  --seed S              seed for random steps (overrides the scenario's)\n"
        "  --json                one JSON line per exchange on stdout (see above)\n"
        "  --max-requests N      stop after N exchanges have ended (control requests not counted)\n"
        "  --duration S          stop after S seconds (decimal)\n"
        "  --session FILE        record every exchange as an observed attempt, grouped into the clients' runs\n"
        "                        as `retrylab observe` does; journalled while it runs (recover after a crash)\n"
        "                        and written to FILE when the server stops\n"
        "  --window S            with --session: how long after a failed answer a repetition still counts as\n"
        "                        a retry (default 300 s)\n"
        "  --upstream URL        the one upstream `forward` steps send to (http:// or https://); with no\n"
        "                        --scenario every request is forwarded as it is (pure observation)\n"
        "  --upstream-ca FILE    PEM certificates trusted for the upstream besides the system's\n"
        "  --upstream-insecure   do not verify the upstream's certificate (said so on every exchange)\n"
        "  --upstream-timeout S  an upstream slower than this is answered 504 (default 30)\n"
        "  --upstream-max-body BYTES  an answer body longer than this is refused 502 too_large, or cut\n"
        "                        when it streams (default 67108864, 64 MiB; answers stream, held whole\n"
        "                        only for forward steps with delay_ms, dribble or then)\n"
        "  --forwarded-headers   add Via: 1.1 retrylab and X-Forwarded-For/-Host/-Proto to forwarded\n"
        "                        requests (off by default; a scenario says \"forwarded_headers\": true)\n"
        "  --proxy               be an HTTP/1.1 forward proxy instead: absolute-form requests for http,\n"
        "                        CONNECT tunnels for https, decrypted with leaves of the Retrylab CA (made on\n"
        "                        first use; `retrylab ca show`) for the hosts intercepted; with no --scenario\n"
        "                        every request goes on to the host it names (routes may name a \"host\")\n"
        "  --intercept HOST      intercept only these hosts (repeatable; \"*.example.com\"; default every host);\n"
        "                        other hosts' tunnels are relayed untouched, their plain-http requests refused\n"
        "  --map HOST=ADDR:PORT  connect to ADDR:PORT for HOST (the name, SNI and certificate check stay HOST)\n"
        "  --ca-dir DIR          the CA's folder (default: the user's data folder, or $RETRYLAB_DATA_DIR/ca)\n"
        "  --list                list the built-in scenarios (retrylab run --scenario S --list-routes: its routes)\n"
        "\n"
        "Control endpoints (not counted as scenario requests):\n"
        "  GET /_lab/ledger  POST /_lab/reset  GET /_lab/scenario  GET /_lab/health\n");
    command.run = serve;
    return command;
}
