// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/fleetsettings.h"

#include "cli/cliargs.h"
#include "cli/filechecks.h"
#include "cli/policychoice.h"
#include "cli/scenariochoice.h"
#include "cli/upstreamchoice.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHostAddress>
#include <QStandardPaths>
#include <QThread>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fleet", text);
}

std::optional<double> positiveNumber(const QString& text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && v > 0 && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace

int FleetSettings::usage(CliIo& io, const QString& message)
{
    io.err << u"retrylab fleet: "_s << message << tr(" (see retrylab help fleet)\n");
    return CliExit::Usage;
}

QString FleetSettings::locustProgram()
{
    const QString given = qEnvironmentVariable("RETRYLAB_LOCUST");
    if (!given.isEmpty())
        return QFileInfo(given).isExecutable() ? given : QString();
    return QStandardPaths::findExecutable(u"locust"_s);
}

QString FleetSettings::noLocust()
{
    return tr("Locust is not installed: install python3-locust (packaging/install-deps.sh), or set RETRYLAB_LOCUST "
              "to its program");
}

QString FleetSettings::arrivalText() const
{
    if (arrival == LocustFileOptions::Arrival::Open)
        return tr("open loop: %1 logical requests a second in all, whatever became of earlier ones").arg(rate);
    return think.count() > 0
        ? tr("closed loop: each user waits for its own request, then %1 s").arg(double(think.count()) / 1000)
        : tr("closed loop: each user waits for its own request");
}

std::optional<int> FleetSettings::read(const QStringList& args, CliIo& io)
{
    CliArgs a;
    a.option(u"policy"_s)
        .option(u"url"_s)
        .option(u"scenario"_s)
        .option(u"users"_s)
        .option(u"spawn-rate"_s)
        .option(u"duration"_s)
        .option(u"workers"_s)
        .option(u"arrival"_s)
        .option(u"method"_s)
        .option(u"path"_s)
        .option(u"drain"_s)
        .option(u"session"_s)
        .flag(u"json"_s)
        .flag(u"compare-herd"_s)
        .option(u"locustfile"_s)
        .flag(u"no-record"_s)
        .option(u"lab-bind"_s)
        .flag(u"master"_s)
        .option(u"expect-workers"_s)
        .option(u"bind"_s)
        .option(u"port"_s);
    PolicyChoice::declareSettings(a);
    UpstreamChoice::declare(a);
    if (!a.parse(args))
        return usage(io, a.error());
    if (!a.positional().isEmpty())
        return usage(io, tr("unexpected argument \"%1\"").arg(a.positional().first()));
    if (!a.isSet(u"policy"_s))
        return usage(io, tr("--policy NAME|FILE is required"));
    PolicyChoice::Problems problems;
    const std::optional<PolicyChoice> choice = PolicyChoice::resolve(*a.value(u"policy"_s), a, &problems);
    if (!choice)
        return usage(io, problems.line());
    policy = choice->policy;
    policyChanges = choice->changesLine();

    if (a.isSet(u"url"_s) == a.isSet(u"scenario"_s))
        return usage(io, tr("give exactly one target: --url URL or --scenario S"));
    QString error;
    if (std::optional<UpstreamTarget> up = UpstreamChoice::read(a, &error)) {
        if (!a.isSet(u"scenario"_s))
            return usage(io, tr("--upstream goes with --scenario (the lab forwards to it)"));
        upstream = *up;
    } else if (!error.isEmpty()) {
        return usage(io, error);
    }
    if (a.isSet(u"method"_s))
        method = a.value(u"method"_s)->toUpper();
    if (a.isSet(u"url"_s)) {
        const QUrl u(*a.value(u"url"_s), QUrl::StrictMode);
        if (!u.isValid() || (u.scheme() != u"http"_s && u.scheme() != u"https"_s) || u.host().isEmpty())
            return usage(io, tr("--url: not an http:// or https:// URL: %1").arg(*a.value(u"url"_s)));
        if (a.isSet(u"path"_s))
            return usage(io, tr("--path goes with --scenario; put the path in --url"));
        url = u.toString();
    } else {
        scenarioName = *a.value(u"scenario"_s);
        scenario = ScenarioChoice::load(scenarioName, &error);
        if (!scenario)
            return usage(io, error);
        if (scenario->hasForwardSteps() && !upstream.isSet() && scenario->upstream.isEmpty())
            return usage(io,
                tr("scenario \"%1\" forwards requests but names no upstream: give --upstream URL").arg(scenarioName));
        const std::optional<ScenarioChoice::Target> target = ScenarioChoice::target(*scenario,
            a.isSet(u"method"_s) ? std::optional<QString>(method) : std::nullopt, a.value(u"path"_s), &error);
        if (!target)
            return usage(io, error);
        method = target->method;
        pathAndQuery = target->pathAndQuery;
    }
    if (a.isSet(u"lab-bind"_s)) {
        labBind = *a.value(u"lab-bind"_s);
        if (QHostAddress(labBind).isNull())
            return usage(io, tr("--lab-bind: not an IP address: %1").arg(labBind));
        if (!scenario)
            return usage(io, tr("--lab-bind goes with --scenario"));
    }

    master = a.isSet(u"master"_s);
    const auto need = [&](const QString& name) {
        return a.isSet(name) ? std::optional<int>() : std::optional<int>(usage(io, tr("--%1 is required").arg(name)));
    };
    for (const QString& name : { u"users"_s, u"spawn-rate"_s, u"duration"_s })
        if (const std::optional<int> refused = need(name))
            return refused;
    const std::optional<qint64> u = a.integer(u"users"_s, 1, 100000);
    if (!u)
        return usage(io, a.error());
    users = int(*u);
    const std::optional<double> r = positiveNumber(*a.value(u"spawn-rate"_s));
    if (!r)
        return usage(io, tr("--spawn-rate: a number above 0, not \"%1\"").arg(*a.value(u"spawn-rate"_s)));
    spawnRate = *r;
    const std::optional<qint64> d = a.secondsAsMillis(u"duration"_s);
    if (!d)
        return usage(io, a.error());
    duration = Millis(*d);
    if (a.isSet(u"drain"_s)) {
        const std::optional<qint64> s = a.secondsAsMillis(u"drain"_s);
        if (!s)
            return usage(io, a.error());
        drain = Millis(*s);
    }
    workers = master ? 0 : std::max(1, QThread::idealThreadCount());
    if (a.isSet(u"workers"_s)) {
        const std::optional<qint64> w = a.integer(u"workers"_s, master ? 0 : 1, 256);
        if (!w)
            return usage(io, a.error());
        workers = int(*w);
    }
    if (a.isSet(u"expect-workers"_s)) {
        if (!master)
            return usage(io, tr("--expect-workers goes with --master"));
        const std::optional<qint64> k = a.integer(u"expect-workers"_s, 1, 256);
        if (!k)
            return usage(io, a.error());
        expectWorkers = int(*k);
    } else if (master) {
        return usage(io, tr("--master needs --expect-workers K"));
    }
    if (!master && (a.isSet(u"bind"_s) || a.isSet(u"port"_s)))
        return usage(io, tr("--bind and --port go with --master"));
    if (a.isSet(u"bind"_s)) {
        bind = *a.value(u"bind"_s);
        if (QHostAddress(bind).isNull())
            return usage(io, tr("--bind: not an IP address: %1").arg(bind));
    }
    if (a.isSet(u"port"_s)) {
        const std::optional<qint64> p = a.integer(u"port"_s, 1, 65535);
        if (!p)
            return usage(io, a.error());
        port = quint16(*p);
    }
    if (master)
        expectWorkers = std::max(expectWorkers, workers);
    else
        expectWorkers = workers;

    if (a.isSet(u"arrival"_s)) {
        const QString text = *a.value(u"arrival"_s);
        if (text.startsWith(u"open:"_s)) {
            const std::optional<double> rateGiven = positiveNumber(text.mid(5));
            if (!rateGiven)
                return usage(io, tr("--arrival open:RATE needs a rate above 0, not \"%1\"").arg(text.mid(5)));
            arrival = LocustFileOptions::Arrival::Open;
            rate = *rateGiven;
        } else if (text == u"closed"_s || text.startsWith(u"closed:"_s)) {
            if (text.size() > 7) {
                bool ok = false;
                const double s = text.mid(7).toDouble(&ok);
                if (!ok || s < 0 || !std::isfinite(s))
                    return usage(
                        io, tr("--arrival closed:THINK needs seconds (0 or more), not \"%1\"").arg(text.mid(7)));
                think = Millis(qint64(s * 1000));
            }
        } else {
            return usage(io, tr("--arrival: open:RATE or closed[:THINK], not \"%1\"").arg(text));
        }
    }
    record = !a.isSet(u"no-record"_s);
    if (a.isSet(u"session"_s)) {
        if (!record)
            return usage(io, tr("--session needs the attempts: not with --no-record"));
        sessionPath = *a.value(u"session"_s);
        if (const QString problem = outputPathProblem(sessionPath); !problem.isEmpty())
            return usage(io, u"--session: "_s + problem);
    }
    if (a.isSet(u"locustfile"_s)) {
        locustfilePath = *a.value(u"locustfile"_s);
        if (const QString problem = outputPathProblem(locustfilePath); !problem.isEmpty())
            return usage(io, u"--locustfile: "_s + problem);
    }
    if (a.isSet(u"compare-herd"_s) && !record)
        return usage(io, tr("--compare-herd needs the attempts: not with --no-record"));
    json = a.isSet(u"json"_s);
    compareHerd = a.isSet(u"compare-herd"_s);
    return std::nullopt;
}
