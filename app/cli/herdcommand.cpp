// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab herd`: what many clients running a policy do to a struggling server (issue 29 §2).
#include "cli/clicommand.h"

#include "cli/cliargs.h"
#include "cli/filechecks.h"
#include "cli/policychoice.h"
#include "sim/herdcatalog.h"
#include "sim/herdexperimentjson.h"
#include "sim/herdsimulator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("herd", text); }

int usage(CliIo& io, const QString& message)
{
    io.err << u"retrylab herd: "_s << message << tr(" (see retrylab help herd)\n");
    return CliExit::Usage;
}

// "12.5" seconds → milliseconds; nullopt when not a finite number ≥ 0.
std::optional<Millis> seconds(const QString& text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < 0 || value > 86400)
        return std::nullopt;
    return Millis(qint64(std::llround(value * 1000.0)));
}

// "START:DURATION" in seconds.
std::optional<HerdWindow> window(const QStringList& parts)
{
    if (parts.size() != 2)
        return std::nullopt;
    const std::optional<Millis> start = seconds(parts.at(0));
    const std::optional<Millis> duration = seconds(parts.at(1));
    if (!start || !duration || duration->count() <= 0)
        return std::nullopt;
    return HerdWindow { *start, *duration };
}

std::optional<double> number(const QString& text, double low, double high)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < low || value > high)
        return std::nullopt;
    return value;
}

QString cell(double value, int decimals = 0)
{
    return QString::number(value, 'f', decimals);
}

void printTable(const HerdExperiment& e, const HerdResult& result, QTextStream& out)
{
    out << e.name << u" — "_s << e.title << u"\n"_s;
    const bool open = e.clients.loop == HerdClientModel::Loop::Open;
    out << (open ? tr("%1 requests at %2/s over %3 s").arg(e.clients.clients).arg(e.clients.rate).arg(double(e.duration.count()) / 1000.0)
                 : tr("%1 clients, %2 request(s) each").arg(e.clients.clients).arg(e.clients.requestsPerClient))
        << tr(", %1 run(s), seed %2\n").arg(e.runs).arg(e.seed);
    const QStringList header { tr("policy"), tr("requests"), tr("success"), tr("amplif."), tr("server calls"),
        tr("completion ms"), tr("p50 ms"), tr("p99 ms"), tr("goodput/s"), tr("duplicates"), tr("recovered"), tr("collapsed at") };
    QList<QStringList> rows;
    for (const HerdPolicyResult& r : result.results) {
        const HerdTotals& t = r.totals;
        rows.append({ r.label, cell(t.requests, 1), cell(100.0 * t.successRate(), 1) + u" %"_s, cell(t.amplification(), 2),
            cell(t.serverCalls, 1), cell(t.completionMs, 1), cell(t.latencyP50Ms, 1), cell(t.latencyP99Ms, 1),
            cell(r.goodput, 1), cell(t.duplicates, 1),
            r.recovered ? (*r.recovered ? tr("yes") : tr("no")) : u"—"_s,
            r.collapsedAt ? tr("%1 s").arg(double(r.collapsedAt->count()) / 1000.0) : u"—"_s });
    }
    QList<int> widths;
    for (qsizetype c = 0; c < header.size(); ++c) {
        int w = int(header.at(c).size());
        for (const QStringList& row : rows)
            w = std::max(w, int(row.at(c).size()));
        widths.append(w);
    }
    const auto line = [&](const QStringList& cells) {
        for (qsizetype c = 0; c < cells.size(); ++c) {
            out << (c == 0 ? cells.at(c).leftJustified(widths.at(c)) : cells.at(c).rightJustified(widths.at(c)));
            out << (c + 1 < cells.size() ? u"  "_s : u"\n"_s);
        }
    };
    line(header);
    for (const QStringList& row : rows)
        line(row);
    if (!e.claims.isEmpty())
        out << tr("Claim: ") << e.claims << u"\n"_s;
}

int runHerd(const QStringList& args, CliIo& io);

} // namespace

CliCommand herdCommand()
{
    CliCommand command;
    command.name = u"herd"_s;
    command.summary = tr("simulate many clients running policies against a struggling server");
    command.usage = tr(
        "Usage: retrylab herd --experiment NAME|FILE [--policy P]… [options]\n"
        "       retrylab herd --list\n"
        "\n"
        "A discrete-event simulation on virtual time of N clients (1 to 1 000 000) that each run\n"
        "a policy — the very decide(), backoff, jitter, Retry-After, budgets and circuit breaker\n"
        "the engine runs — against a server model. Deterministic for a seed.\n"
        "\n"
        "Built-in experiments (each reproduces a published result; --list shows their claims):\n"
        "  aws-2015            Brooker 2015, \"Exponential Backoff And Jitter\": N clients, one\n"
        "                      conditional write each; policies none, exponential, equal-jitter,\n"
        "                      full-jitter, decorrelated\n"
        "  retry-collapse      Brooker's collapse model: a 40 → 80 rps spike for 5 s\n"
        "  metastable-osdi22   Huang et al. OSDI'22: capacity cut to 40 % for 10 s after 60 s\n"
        "Or a herd experiment file (what the Herd view saves; --save writes one).\n"
        "\n"
        "Options:\n"
        "  --experiment NAME|FILE   the experiment\n"
        "  --policy P               replace the experiment's policies with these (repeatable):\n"
        "                           presets or policy files, labelled by name\n"
        "  --set PATH=VALUE         change a field of every --policy (repeatable)\n"
        "  --clients N              clients (closed loop) or requests (open loop), 1 to 1 000 000\n"
        "  --runs N                 runs per policy (seeds seed, seed+1, …); totals are means\n"
        "  --rate R                 open loop: arrivals per second\n"
        "  --capacity C             the server serves C requests/s: its mean service time becomes\n"
        "                           concurrency / C (concurrency 1 when it had no limit)\n"
        "  --concurrency N          requests the server serves at once (0: no limit)\n"
        "  --outage START:DURATION  seconds: the server answers its outage status meanwhile\n"
        "  --cut FRACTION:START:DURATION   capacity cut to FRACTION (0–1] for DURATION seconds\n"
        "  --spike RATE:START:DURATION     open loop: arrivals at RATE/s meanwhile\n"
        "  --timeout SECONDS        the clients' attempt timeout (overrides the policies')\n"
        "  --duration SECONDS       open loop: how long arrivals come and measuring lasts\n"
        "  --processes N            open loop: client processes sharing the arrivals (budgets, breakers)\n"
        "  --seed N                 the first run's seed\n"
        "  --resolution SECONDS     of the time series (default 1)\n"
        "  --json                   print {\"experiment\", \"seed\", \"results\": [{\"policy\", \"clients\",\n"
        "                           \"runs\", \"completion_ms_mean\", \"server_calls_mean\",\n"
        "                           \"amplification\", \"goodput\", \"recovered\", …}], \"series\": {…}}\n"
        "  --csv DIR                write DIR/<policy>.csv, one row per time bucket\n"
        "  --save FILE              write the experiment (after the options) as a file, then run it\n"
        "  --list                   list the built-in experiments and their claims\n"
        "  -h, --help               show this help\n"
        "\n"
        "Exit status: 0 done; 2 bad arguments, an unreadable experiment or a policy the simulator\n"
        "does not run (hedging, rate limiters).\n");
    command.run = runHerd;
    return command;
}

namespace {

int runHerd(const QStringList& args, CliIo& io)
{
    CliArgs a;
    a.flag(u"help"_s).flag(u"h"_s).flag(u"json"_s).flag(u"list"_s);
    for (const QString& name : { u"experiment"_s, u"clients"_s, u"runs"_s, u"rate"_s, u"capacity"_s, u"concurrency"_s,
             u"outage"_s, u"cut"_s, u"spike"_s, u"timeout"_s, u"duration"_s, u"processes"_s, u"seed"_s,
             u"resolution"_s, u"csv"_s, u"save"_s })
        a.option(name);
    a.option(u"policy"_s, true);
    PolicyChoice::declareSettings(a);
    if (!a.parse(args))
        return usage(io, a.error());
    if (a.isSet(u"help"_s) || a.isSet(u"h"_s)) {
        io.out << herdCommand().usage;
        return CliExit::Ok;
    }
    if (!a.positional().isEmpty())
        return usage(io, tr("unexpected argument \"%1\"").arg(a.positional().first()));
    if (a.isSet(u"list"_s)) {
        for (const QString& name : HerdCatalog::names()) {
            const HerdExperiment e = *HerdCatalog::experiment(name);
            io.out << name << u"\n  "_s << e.title << u"\n  "_s << tr("Source: ") << e.source << u"\n  "_s << tr("Claim: ")
                   << e.claims << u"\n"_s;
        }
        return CliExit::Ok;
    }
    const std::optional<QString> name = a.value(u"experiment"_s);
    if (!name)
        return usage(io, tr("give --experiment NAME or FILE (--list shows the built-in ones)"));
    HerdExperiment e;
    if (const std::optional<HerdExperiment> builtIn = HerdCatalog::experiment(*name)) {
        e = *builtIn;
    } else {
        QFile file(*name);
        if (!QFileInfo(*name).isFile())
            return usage(io, tr("\"%1\" is neither a built-in experiment (%2) nor a file").arg(*name, HerdCatalog::names().join(u", "_s)));
        if (!file.open(QIODevice::ReadOnly))
            return usage(io, withFileName(*name, file.errorString()));
        if (file.size() > (qint64(64) << 20))
            return usage(io, withFileName(*name, tr("larger than 64 MiB: not a herd experiment")));
        const HerdExperimentParse parsed = herdExperimentFromBytes(file.readAll());
        if (!parsed.ok()) {
            QStringList lines;
            for (const PolicyProblem& p : parsed.problems)
                lines << (p.path.isEmpty() ? p.message : p.path + u": "_s + p.message);
            return usage(io, withFileName(*name, lines.join(u"; "_s)));
        }
        e = *parsed.experiment;
    }

    // The policies.
    const QStringList policies = a.values(u"policy"_s);
    if (!a.values(u"set"_s).isEmpty() && policies.isEmpty())
        return usage(io, tr("--set changes the --policy options: give at least one --policy"));
    if (!policies.isEmpty()) {
        e.policies.clear();
        for (const QString& p : policies) {
            PolicyChoice::Problems problems;
            const std::optional<PolicyChoice> choice = PolicyChoice::resolve(p, a, &problems);
            if (!choice)
                return usage(io, problems.line());
            QString label = QFileInfo(p).isFile() ? QFileInfo(p).completeBaseName() : p;
            for (int n = 2; std::any_of(e.policies.cbegin(), e.policies.cend(), [&](const HerdPolicy& h) { return h.label == label; }); ++n)
                label = (QFileInfo(p).isFile() ? QFileInfo(p).completeBaseName() : p) + u"-"_s + QString::number(n);
            e.policies.append(HerdPolicy { label, choice->policy });
        }
    }

    // The model's parameters.
    if (a.isSet(u"clients"_s)) {
        const std::optional<qint64> n = a.integer(u"clients"_s, 1, 1000000);
        if (!n)
            return usage(io, a.error());
        e.clients.clients = int(*n);
    }
    if (a.isSet(u"runs"_s)) {
        const std::optional<qint64> n = a.integer(u"runs"_s, 1, 10000);
        if (!n)
            return usage(io, a.error());
        e.runs = int(*n);
    }
    if (a.isSet(u"processes"_s)) {
        const std::optional<qint64> n = a.integer(u"processes"_s, 1, 1000000);
        if (!n)
            return usage(io, a.error());
        e.clients.processes = int(*n);
    }
    if (a.isSet(u"concurrency"_s)) {
        const std::optional<qint64> n = a.integer(u"concurrency"_s, 0, 1000000);
        if (!n)
            return usage(io, a.error());
        e.server.concurrency = int(*n);
    }
    if (a.isSet(u"seed"_s)) {
        bool ok = false;
        const quint64 seed = a.value(u"seed"_s)->toULongLong(&ok);
        if (!ok)
            return usage(io, tr("--seed must be a whole number from 0 to 18446744073709551615"));
        e.seed = seed;
    }
    if (const std::optional<QString> v = a.value(u"rate"_s)) {
        const std::optional<double> rate = number(*v, 1e-6, 1e7);
        if (!rate)
            return usage(io, tr("--rate must be arrivals per second, more than 0 and at most 10 000 000"));
        e.clients.loop = HerdClientModel::Loop::Open;
        e.clients.rate = *rate;
    }
    if (const std::optional<QString> v = a.value(u"capacity"_s)) {
        const std::optional<double> capacity = number(*v, 1e-3, 1e8);
        if (!capacity)
            return usage(io, tr("--capacity must be requests per second, more than 0"));
        if (e.server.kind != HerdServerModel::Kind::Queue)
            return usage(io, tr("--capacity applies to a queue server; %1's server is an optimistic row").arg(e.name));
        if (e.server.concurrency <= 0)
            e.server.concurrency = 1;
        e.server.service.meanMs = 1000.0 * double(e.server.concurrency) / *capacity;
    }
    if (const std::optional<QString> v = a.value(u"outage"_s)) {
        const std::optional<HerdWindow> w = window(v->split(u':'));
        if (!w)
            return usage(io, tr("--outage must be START:DURATION in seconds, e.g. 60:30"));
        e.server.outage = w;
    }
    if (const std::optional<QString> v = a.value(u"cut"_s)) {
        const QStringList parts = v->split(u':');
        const std::optional<double> fraction = parts.size() == 3 ? number(parts.at(0), 1e-6, 1.0) : std::nullopt;
        const std::optional<HerdWindow> w = parts.size() == 3 ? window(parts.mid(1)) : std::nullopt;
        if (!fraction || !w)
            return usage(io, tr("--cut must be FRACTION:START:DURATION, e.g. 0.4:60:10 (fraction in (0, 1], seconds)"));
        e.server.cut = w;
        e.server.cutFraction = *fraction;
    }
    if (const std::optional<QString> v = a.value(u"spike"_s)) {
        const QStringList parts = v->split(u':');
        const std::optional<double> rate = parts.size() == 3 ? number(parts.at(0), 1e-6, 1e7) : std::nullopt;
        const std::optional<HerdWindow> w = parts.size() == 3 ? window(parts.mid(1)) : std::nullopt;
        if (!rate || !w)
            return usage(io, tr("--spike must be RATE:START:DURATION, e.g. 80:20:5 (arrivals/s, seconds)"));
        e.clients.spike = w;
        e.clients.spikeRate = *rate;
    }
    for (const QString& option : { u"timeout"_s, u"duration"_s, u"resolution"_s }) {
        const std::optional<QString> v = a.value(option);
        if (!v)
            continue;
        const std::optional<Millis> ms = seconds(*v);
        if (!ms || ms->count() <= 0)
            return usage(io, tr("--%1 must be seconds, more than 0 and at most 86400").arg(option));
        if (option == u"timeout")
            e.clients.attemptTimeout = ms;
        else if (option == u"duration")
            e.duration = *ms;
        else
            e.resolution = *ms;
    }
    if (const QList<PolicyProblem> problems = validate(e); !problems.isEmpty()) {
        QStringList lines;
        for (const PolicyProblem& p : problems)
            lines << p.path + u": "_s + p.message;
        return usage(io, tr("the experiment cannot run: ") + lines.join(u"; "_s));
    }

    // Outputs are checked before the run, so a typo never costs one.
    const std::optional<QString> csv = a.value(u"csv"_s);
    if (csv && !QFileInfo(*csv).isDir() && !QDir().mkpath(*csv))
        return usage(io, tr("--csv: cannot make the folder \"%1\"").arg(*csv));
    const std::optional<QString> save = a.value(u"save"_s);
    if (save) {
        if (const QString problem = outputPathProblem(*save); !problem.isEmpty())
            return usage(io, u"--save: "_s + problem);
        QSaveFile file(*save);
        if (!file.open(QIODevice::WriteOnly) || file.write(herdExperimentToBytes(e)) < 0 || !file.commit())
            return usage(io, tr("--save: cannot write \"%1\": %2").arg(*save, file.errorString()));
    }

    const HerdResult result = runHerdExperiment(e);
    if (csv) {
        for (const HerdPolicyResult& r : result.results) {
            QString fileName = r.label;
            fileName.replace(QRegularExpression(u"[^A-Za-z0-9._-]"_s), u"_"_s);
            QSaveFile file(QDir(*csv).filePath(fileName + u".csv"_s));
            if (!file.open(QIODevice::WriteOnly) || file.write(herdSeriesCsv(r.series)) < 0 || !file.commit()) {
                io.err << u"retrylab herd: "_s << tr("cannot write %1: %2\n").arg(file.fileName(), file.errorString());
                return CliExit::Failed;
            }
        }
    }
    if (a.isSet(u"json"_s)) {
        io.out << QString::fromUtf8(QJsonDocument(herdResultToJson(result)).toJson(QJsonDocument::Compact)) << u"\n"_s;
        return CliExit::Ok;
    }
    printTable(e, result, io.out);
    return CliExit::Ok;
}

} // namespace
