// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab run`: runs requests under a policy through the retry engine, one line per attempt as it ends,
// then a summary (and the lab's ledger with --scenario). The command's event loop is the program's only
// one: the CLI has not started QCoreApplication::exec(), so nothing is nested.
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"
#include "cli/problemline.h"
#include "cli/runreport.h"
#include "cli/scenariochoice.h"

#include "engine/attemptlogjson.h"
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "engine/timerscheduler.h"
#include "http/httptoken.h"
#include "http/targeturl.h"
#include "lab/faultserver.h"
#include "policy/presetcatalog.h"
#include "session/sessionrecorder.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QJsonDocument>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("run", text); }

const char* const kUsage = R"(Usage: retrylab run --policy NAME|FILE (--scenario NAME|FILE | --url URL) [options]
       retrylab run --scenario NAME|FILE --list-routes

Runs requests under a retry policy and prints one line per attempt as it ends, then a summary.
With --scenario the fault lab starts in-process on 127.0.0.1 and is the target: the request goes to the
first route that accepts --method and --path (by default the first route, with its first method and a
sample path); the lab's ledger is summed up at the end (--ledger FILE or --json for all of it).

Options:
  --policy NAME|FILE        a built-in preset (retrylab policy list) or a policy JSON file
  --scenario NAME|FILE      a built-in fault-lab scenario (retrylab serve --list) or a scenario JSON file
  --url URL                 an http:// or https:// URL
  --method M                request method (default GET, or the scenario route's)
  --path PATH               with --scenario: the path (and ?query) to send to, e.g. /v1/payments/x
  --list-routes             with --scenario: print its routes and how to reach each, and send nothing
  --header 'K: V'           a request header (repeatable)
  --data BODY|@FILE         request body (sent through a non-rewindable device)
  --idempotency-key KEY|auto|none   auto (default): as the policy says
  --repeat N                runs to make (default 1)
  --concurrency C           runs in progress at once (default 1)
  --seed S                  seed of the first run (run i uses S+i-1; default 0)
  --timeout S               per-attempt total timeout in seconds
  --connect-timeout S       connect timeout in seconds
  --deadline S              overall deadline per run, waits included
  --export FILE.json        write every run and attempt as JSON (secrets redacted)
  --session FILE            record a session (journalled while it runs; see retrylab recover)
  --ledger FILE.json        with --scenario: write the lab's whole ledger (every request and operation)
  --json                    print attempts and the summary (with the whole ledger) as JSON lines
  --quiet                   print only the summary (and the ledger's one-line summary)

Every output file's folder is checked before anything is sent.
Exit status: 0 every run succeeded, 1 a run failed, 2 bad arguments (nothing is sent).
)";

struct Setup
{
    RetryPolicy policy;
    RequestSpec spec;
    std::optional<FaultScenario> scenario;
    int repeat = 1;
    int concurrency = 1;
    std::uint64_t seed = 0;
    QString exportPath;
    QString sessionPath;
    QString ledgerPath;
    bool json = false;
    bool quiet = false;
    bool listRoutes = false;
};

int usageError(CliIo& io, const QString& message)
{
    io.err << "retrylab run: " << message << '\n';
    return CliExit::Usage;
}

const QStringList kOptions { u"policy"_s, u"scenario"_s, u"url"_s, u"method"_s, u"path"_s, u"header"_s, u"data"_s,
    u"idempotency-key"_s, u"repeat"_s, u"concurrency"_s, u"seed"_s, u"timeout"_s, u"connect-timeout"_s, u"deadline"_s,
    u"export"_s, u"session"_s, u"ledger"_s };
const QStringList kFlags { u"json"_s, u"quiet"_s, u"list-routes"_s };

// Where the request goes: the scenario's chosen route (the port is the lab's, set when it starts) or --url.
QString readTarget(CliArgs& a, Setup& s)
{
    const bool hasScenario = a.isSet(u"scenario"_s);
    if (hasScenario == a.isSet(u"url"_s))
        return tr("give exactly one of --scenario and --url");
    std::optional<QString> method = a.value(u"method"_s);
    if (method) {
        *method = method->toUpper();
        if (!isHttpToken(*method))
            return tr("--method \"%1\" is not an HTTP method (RFC 9110: a token, no spaces or separators)").arg(*method);
    }
    if (!hasScenario) {
        if (a.isSet(u"path"_s))
            return tr("--path picks a route of --scenario; with --url, put the path in the URL");
        const TargetUrl::Parsed url = TargetUrl::parse(*a.value(u"url"_s));
        if (!url.ok())
            return u"--url "_s + url.problem;
        s.spec.url = url.url;
        s.spec.method = method.value_or(u"GET"_s);
        return {};
    }
    QString error;
    s.scenario = ScenarioChoice::load(*a.value(u"scenario"_s), &error);
    if (!s.scenario)
        return error;
    const std::optional<ScenarioChoice::Target> target = ScenarioChoice::target(*s.scenario, method, a.value(u"path"_s), &error);
    if (!target)
        return error;
    s.spec.url = QUrl(u"http://127.0.0.1"_s + target->pathAndQuery, QUrl::StrictMode);
    s.spec.method = target->method;
    return {};
}

QString readRequest(CliArgs& a, Setup& s)
{
    for (const QString& h : a.values(u"header"_s)) {
        const qsizetype colon = h.indexOf(u':');
        const QString name = colon > 0 ? h.left(colon).trimmed() : QString();
        if (name.isEmpty() || !isHttpToken(name))
            return tr("--header must look like 'Name: value', not \"%1\"").arg(h);
        const QString value = h.mid(colon + 1).trimmed();
        if (value.contains(u'\r') || value.contains(u'\n') || value.contains(QChar(0)))
            return tr("--header \"%1\": a field value cannot contain a line break or NUL (RFC 9110 §5.5)").arg(name);
        s.spec.headers.append({ name.toLatin1(), value.toUtf8() });
    }
    if (const auto data = a.value(u"data"_s)) {
        if (data->startsWith(u'@')) {
            QFile f(data->mid(1));
            if (!f.open(QIODevice::ReadOnly))
                return tr("cannot read --data file \"%1\": %2").arg(data->mid(1), f.errorString());
            constexpr qint64 maxBody = qint64(64) << 20; // also ends a read of /dev/zero or a pipe that never closes
            s.spec.body = f.read(maxBody + 1);
            if (s.spec.body.size() > maxBody)
                return tr("--data file \"%1\" is larger than 64 MiB").arg(data->mid(1));
        } else {
            s.spec.body = data->toUtf8();
        }
    }
    if (const auto key = a.value(u"idempotency-key"_s)) {
        if (*key == QLatin1String("auto")) {
            s.spec.keyMode = IdempotencyKeyMode::Auto;
        } else if (*key == QLatin1String("none")) {
            s.spec.keyMode = IdempotencyKeyMode::None;
        } else if (key->trimmed().isEmpty()) {
            return tr("--idempotency-key needs a key, auto or none");
        } else {
            s.spec.keyMode = IdempotencyKeyMode::Value;
            s.spec.idempotencyKey = *key;
        }
    }
    for (const auto& [name, field] : { std::pair { u"timeout"_s, &RequestSpec::attemptTimeout },
             std::pair { u"connect-timeout"_s, &RequestSpec::connectTimeout }, std::pair { u"deadline"_s, &RequestSpec::deadline } }) {
        if (!a.isSet(name))
            continue;
        const auto ms = a.secondsAsMillis(name);
        if (!ms)
            return a.error();
        s.spec.*field = Millis(*ms);
    }
    return {};
}

// Every file the run writes, checked before anything is sent.
QString readOutputs(CliArgs& a, Setup& s)
{
    s.exportPath = a.value(u"export"_s).value_or(QString());
    s.sessionPath = a.value(u"session"_s).value_or(QString());
    s.ledgerPath = a.value(u"ledger"_s).value_or(QString());
    if (!s.ledgerPath.isEmpty() && !s.scenario)
        return tr("--ledger needs --scenario: only the built-in lab keeps a ledger");
    QStringList seen;
    for (const auto& [option, path] : { std::pair { u"--export"_s, s.exportPath }, std::pair { u"--session"_s, s.sessionPath },
             std::pair { u"--ledger"_s, s.ledgerPath } }) {
        if (!a.isSet(option.mid(2)))
            continue;
        if (const QString problem = outputPathProblem(path); !problem.isEmpty())
            return option + u": "_s + problem;
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (seen.contains(absolute))
            return tr("%1 names a file another option writes too: \"%2\"").arg(option, path);
        seen << absolute;
    }
    return {};
}

std::optional<Setup> parse(const QStringList& args, CliIo& io, int* status)
{
    *status = CliExit::Usage;
    CliArgs a;
    for (const QString& name : kOptions)
        a.option(name, name == u"header"_s);
    for (const QString& name : kFlags)
        a.flag(name);
    const auto fail = [&](const QString& m) { usageError(io, m); return std::optional<Setup>(); };
    if (!a.parse(args))
        return fail(a.error());
    if (!a.positional().isEmpty())
        return fail(tr("unexpected argument \"%1\"").arg(a.positional().first()));
    Setup s;
    if (a.isSet(u"list-routes"_s)) {
        for (const QString& name : kOptions + kFlags) {
            if (name != u"scenario"_s && name != u"list-routes"_s && a.isSet(name))
                return fail(tr("--list-routes takes only --scenario, not --%1").arg(name));
        }
        if (!a.isSet(u"scenario"_s))
            return fail(tr("--list-routes needs --scenario"));
        QString error;
        s.scenario = ScenarioChoice::load(*a.value(u"scenario"_s), &error);
        if (!s.scenario)
            return fail(error);
        s.listRoutes = true;
        *status = CliExit::Ok;
        return s;
    }
    const auto policyName = a.value(u"policy"_s);
    if (!policyName)
        return fail(tr("--policy is required"));
    const PolicyParseResult policy = PresetCatalog::resolve(*policyName);
    if (!policy.ok())
        return fail(policyProblemLine(*policyName, policy.problems));
    s.policy = *policy.policy;
    for (const auto& read : { &readTarget, &readRequest }) {
        if (const QString error = read(a, s); !error.isEmpty())
            return fail(error);
    }
    const auto repeat = a.isSet(u"repeat"_s) ? a.integer(u"repeat"_s, 1, 1000000) : std::optional<qint64>(1);
    const auto concurrency = a.isSet(u"concurrency"_s) ? a.integer(u"concurrency"_s, 1, 10000) : std::optional<qint64>(1);
    const auto seed = a.isSet(u"seed"_s) ? a.integer(u"seed"_s, 0, std::numeric_limits<qint64>::max()) : std::optional<qint64>(0);
    if (!repeat || !concurrency || !seed)
        return fail(a.error());
    s.repeat = int(*repeat);
    s.concurrency = int(*concurrency);
    s.seed = std::uint64_t(*seed);
    if (const QString error = readOutputs(a, s); !error.isEmpty())
        return fail(error);
    s.json = a.isSet(u"json"_s);
    s.quiet = a.isSet(u"quiet"_s);
    *status = CliExit::Ok;
    return s;
}

// Writes BYTES to PATH atomically; an error message, or an empty string.
QString writeFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return tr("cannot write %1: %2").arg(path, f.errorString());
    return {};
}

void printSummary(const Setup& setup, const QList<RunRecord>& runs, const FaultServer& lab, CliIo& io)
{
    const RunReport::Totals totals = RunReport::totalsOf(runs);
    if (setup.json) {
        QJsonObject summary = RunReport::summaryJson(totals);
        if (setup.scenario)
            summary[u"ledger"_s] = lab.ledger().toJson();
        io.out << QJsonDocument(QJsonObject { { u"summary"_s, summary } }).toJson(QJsonDocument::Compact) << '\n';
        return;
    }
    io.out << RunReport::summaryLine(totals) << '\n';
    for (const RunRecord& r : runs) {
        if (!r.succeeded())
            io.out << tr("run %1: %2 — %3").arg(r.runId).arg(finalKindName(r.outcome), r.reason) << '\n';
    }
    if (setup.scenario)
        io.out << RunReport::ledgerLine(lab.ledger()) << '\n';
}

int runRun(const QStringList& args, CliIo& io)
{
    int status = CliExit::Ok;
    std::optional<Setup> setup = parse(args, io, &status);
    if (!setup)
        return status;
    if (setup->listRoutes) {
        io.out << ScenarioChoice::routeTable(*setup->scenario);
        return CliExit::Ok;
    }
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    engine.setConcurrencyLimit(setup->concurrency);
    engine.setBaseSeed(setup->seed);
    FaultServer lab;
    if (setup->scenario) {
        lab.setClockOrigin(clock.origin());
        if (!lab.start()) {
            io.err << "retrylab run: " << tr("the fault lab could not start: %1").arg(lab.errorString()) << '\n';
            return CliExit::Failed;
        }
        lab.loadScenario(*setup->scenario);
        setup->spec.url.setPort(lab.port());
    }

    QList<RunRecord> runs;
    QEventLoop loop;
    QObject::connect(&engine, &RetryEngine::attemptFinished, &engine, [&](const AttemptRecord& a) {
        if (setup->quiet)
            return;
        if (setup->json)
            io.out << QJsonDocument(attemptToJson(a)).toJson(QJsonDocument::Compact) << '\n';
        else
            io.out << RunReport::attemptLine(a) << '\n';
        io.out.flush();
    });
    QObject::connect(&engine, &RetryEngine::runFinished, &engine, [&](const RunRecord& r) { runs.append(r); });
    QObject::connect(&engine, &RetryEngine::idle, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    std::unique_ptr<SessionRecorder> recorder;
    if (!setup->sessionPath.isEmpty()) {
        recorder = std::make_unique<SessionRecorder>(setup->sessionPath);
        recorder->setClock(clock);
        recorder->setConcurrency(setup->concurrency);
        if (setup->scenario)
            recorder->setScenario(setup->scenario->source);
        QString error;
        if (!recorder->start(&error)) {
            io.err << "retrylab run: " << error << '\n';
            return CliExit::Failed;
        }
        recorder->attach(&engine);
        if (setup->scenario)
            recorder->attachLab(&lab);
    }
    for (int i = 0; i < setup->repeat; ++i)
        engine.submit(setup->spec, setup->policy);
    if (!engine.isIdle())
        loop.exec();

    printSummary(*setup, runs, lab, io);
    QStringList errors;
    if (recorder) {
        QString error;
        if (!recorder->finish(&error))
            errors << error;
    }
    if (!setup->exportPath.isEmpty())
        errors << writeFile(setup->exportPath, QJsonDocument(attemptLogToJson(runs)).toJson(QJsonDocument::Indented));
    if (!setup->ledgerPath.isEmpty())
        errors << writeFile(setup->ledgerPath, QJsonDocument(lab.ledger().toJson()).toJson(QJsonDocument::Indented));
    errors.removeAll(QString());
    io.out.flush();
    for (const QString& error : std::as_const(errors))
        io.err << "retrylab run: " << error << '\n';
    if (!errors.isEmpty())
        return CliExit::Failed;
    const bool allSucceeded = std::all_of(runs.cbegin(), runs.cend(), [](const RunRecord& r) { return r.succeeded(); });
    return allSucceeded ? CliExit::Ok : CliExit::Failed;
}

} // namespace

CliCommand runCommand()
{
    return CliCommand { u"run"_s, tr("send requests under a retry policy and record every attempt"),
        QString::fromUtf8(kUsage), runRun };
}
