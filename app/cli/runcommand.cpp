// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab run`: runs requests under a policy through the retry engine, one line per attempt as it ends,
// then a summary (and the lab's ledger with --scenario). The command's event loop is the program's only
// one: the CLI has not started QCoreApplication::exec(), so nothing is nested.
#include "cli/cliargs.h"
#include "cli/clicommand.h"

#include "engine/attemptlogjson.h"
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "engine/timerscheduler.h"
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "policy/presetcatalog.h"
#include "session/sessionrecorder.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("run", text); }

const char* const kUsage = R"(Usage: retrylab run --policy NAME|FILE (--scenario NAME|FILE | --url URL) [options]

Runs requests under a retry policy and prints one line per attempt as it ends, then a summary.
With --scenario the fault lab starts in-process on 127.0.0.1 and is the target (the request goes to the
scenario's first route; --method overrides its method); its ledger is printed at the end.

Options:
  --policy NAME|FILE        a built-in preset (retrylab policy list) or a policy JSON file
  --scenario NAME|FILE      a built-in fault-lab scenario or a scenario JSON file
  --url URL                 an http:// or https:// URL
  --method M                request method (default GET, or the scenario route's)
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
  --json                    print attempts and the summary as JSON lines
  --quiet                   print only the summary

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
    bool json = false;
    bool quiet = false;
};

int usageError(CliIo& io, const QString& message)
{
    io.err << "retrylab run: " << message << '\n';
    return CliExit::Usage;
}

QString scenarioPath(const FaultScenario& scenario, QByteArray* method)
{
    if (scenario.routes.isEmpty())
        return QStringLiteral("/");
    const FaultRoute& route = scenario.routes.first();
    for (const QByteArray& m : route.methods) {
        if (m != "*") {
            *method = m;
            break;
        }
    }
    QString path = route.path;
    path.replace(QStringLiteral("/**"), QStringLiteral("/x")).replace(QStringLiteral("/*"), QStringLiteral("/x"));
    return path.isEmpty() ? QStringLiteral("/") : path;
}

std::optional<Setup> parse(const QStringList& args, CliIo& io, int* status)
{
    *status = CliExit::Usage;
    CliArgs a;
    a.option(u"policy"_s).option(u"scenario"_s).option(u"url"_s).option(u"method"_s).option(u"header"_s, true);
    a.option(u"data"_s).option(u"idempotency-key"_s).option(u"repeat"_s).option(u"concurrency"_s).option(u"seed"_s);
    a.option(u"timeout"_s).option(u"connect-timeout"_s).option(u"deadline"_s).option(u"export"_s).option(u"session"_s);
    a.flag(u"json"_s).flag(u"quiet"_s);
    const auto fail = [&](const QString& m) { usageError(io, m); return std::optional<Setup>(); };
    if (!a.parse(args))
        return fail(a.error());
    if (!a.positional().isEmpty())
        return fail(tr("unexpected argument \"%1\"").arg(a.positional().first()));
    Setup s;
    const auto policyName = a.value(u"policy"_s);
    if (!policyName)
        return fail(tr("--policy is required"));
    const PolicyParseResult policy = PresetCatalog::resolve(*policyName);
    if (!policy.ok()) {
        QStringList lines;
        for (const PolicyProblem& p : policy.problems)
            lines << (p.path.isEmpty() ? p.message : p.path + u": "_s + p.message);
        return fail(tr("policy \"%1\": %2").arg(*policyName, lines.join(u"; "_s)));
    }
    s.policy = *policy.policy;
    const bool hasScenario = a.isSet(u"scenario"_s);
    if (hasScenario == a.isSet(u"url"_s))
        return fail(tr("give exactly one of --scenario and --url"));
    QByteArray method = "GET";
    if (hasScenario) {
        const ScenarioLoader::Result loaded = ScenarioCatalog::load(*a.value(u"scenario"_s));
        if (!loaded.ok())
            return fail(tr("scenario \"%1\": %2").arg(*a.value(u"scenario"_s), loaded.problemText()));
        s.scenario = *loaded.scenario;
        s.spec.url = QUrl(u"http://127.0.0.1"_s + scenarioPath(*s.scenario, &method));
    } else {
        const QUrl url(*a.value(u"url"_s), QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
            return fail(tr("--url must be an http:// or https:// URL with a host, not \"%1\"").arg(*a.value(u"url"_s)));
        s.spec.url = url;
    }
    s.spec.method = a.value(u"method"_s) ? a.value(u"method"_s)->toUpper() : QString::fromLatin1(method);
    static const QRegularExpression token(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
    if (!token.match(s.spec.method).hasMatch())
        return fail(tr("--method \"%1\" is not an HTTP method token").arg(s.spec.method));
    for (const QString& h : a.values(u"header"_s)) {
        const qsizetype colon = h.indexOf(u':');
        const QString name = colon > 0 ? h.left(colon).trimmed() : QString();
        if (name.isEmpty() || !token.match(name).hasMatch())
            return fail(tr("--header must look like 'Name: value', not \"%1\"").arg(h));
        s.spec.headers.append({ name.toLatin1(), h.mid(colon + 1).trimmed().toUtf8() });
    }
    if (const auto data = a.value(u"data"_s)) {
        if (data->startsWith(u'@')) {
            QFile f(data->mid(1));
            if (!f.open(QIODevice::ReadOnly))
                return fail(tr("cannot read --data file \"%1\": %2").arg(data->mid(1), f.errorString()));
            s.spec.body = f.readAll();
        } else {
            s.spec.body = data->toUtf8();
        }
    }
    if (const auto key = a.value(u"idempotency-key"_s)) {
        if (*key == QLatin1String("auto"))
            s.spec.keyMode = IdempotencyKeyMode::Auto;
        else if (*key == QLatin1String("none"))
            s.spec.keyMode = IdempotencyKeyMode::None;
        else if (key->isEmpty())
            return fail(tr("--idempotency-key needs a key, auto or none"));
        else {
            s.spec.keyMode = IdempotencyKeyMode::Value;
            s.spec.idempotencyKey = *key;
        }
    }
    const auto repeat = a.isSet(u"repeat"_s) ? a.integer(u"repeat"_s, 1, 1000000) : std::optional<qint64>(1);
    const auto concurrency = a.isSet(u"concurrency"_s) ? a.integer(u"concurrency"_s, 1, 10000) : std::optional<qint64>(1);
    const auto seed = a.isSet(u"seed"_s) ? a.integer(u"seed"_s, 0, std::numeric_limits<qint64>::max()) : std::optional<qint64>(0);
    if (!repeat || !concurrency || !seed)
        return fail(a.error());
    s.repeat = int(*repeat);
    s.concurrency = int(*concurrency);
    s.seed = std::uint64_t(*seed);
    for (const auto& [name, field] : { std::pair { u"timeout"_s, &RequestSpec::attemptTimeout },
             std::pair { u"connect-timeout"_s, &RequestSpec::connectTimeout }, std::pair { u"deadline"_s, &RequestSpec::deadline } }) {
        if (!a.isSet(name))
            continue;
        const auto ms = a.secondsAsMillis(name);
        if (!ms)
            return fail(a.error());
        s.spec.*field = Millis(*ms);
    }
    s.exportPath = a.value(u"export"_s).value_or(QString());
    s.sessionPath = a.value(u"session"_s).value_or(QString());
    s.json = a.isSet(u"json"_s);
    s.quiet = a.isSet(u"quiet"_s);
    *status = CliExit::Ok;
    return s;
}

QString attemptLine(const AttemptRecord& a)
{
    const double start = a.at.started ? toMs(*a.at.started) : 0.0;
    const double took = a.duration() ? toMs(*a.duration()) : 0.0;
    const QString result = a.error ? errorClassName(*a.error)
        : a.status                 ? QString::number(*a.status)
        : a.abortReason != AbortReason::None ? abortReasonName(a.abortReason)
                                   : u"-"_s;
    QString decision = u"cancelled"_s;
    QString wait;
    QString reason;
    if (a.decision) {
        decision = verdictName(a.decision->verdict);
        if (a.decision->verdict == Verdict::Retry)
            wait = u"  wait %1 → %2 ms (%3)"_s.arg(a.decision->ceiling.count()).arg(a.decision->delay.count())
                       .arg(delaySourceName(a.decision->source));
        reason = a.decision->reason;
    }
    return u"run %1 attempt %2  +%3 ms  %4 ms  %5  %6%7  %8"_s.arg(a.runId).arg(a.index)
        .arg(start, 0, 'f', 1).arg(took, 0, 'f', 1).arg(result, decision, wait, reason);
}

// "lab ledger: 9 requests received, 3 operations applied: 3 settlement".
QString ledgerLine(const LabLedger& ledger)
{
    QString line = tr("lab ledger: %1 requests received, %2 operations applied")
                       .arg(ledger.requestsReceived())
                       .arg(ledger.operationsApplied());
    QMap<QString, int> kinds;
    for (const LabOperation& op : ledger.operations())
        ++kinds[op.operation];
    QStringList parts;
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
        parts << u"%1 %2"_s.arg(it.value()).arg(it.key());
    if (!parts.isEmpty())
        line += u": "_s + parts.join(u", "_s);
    return line;
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const auto i = qsizetype(std::clamp(p * double(values.size() - 1) + 0.5, 0.0, double(values.size() - 1)));
    return values.at(i);
}

int runRun(const QStringList& args, CliIo& io)
{
    int status = CliExit::Ok;
    std::optional<Setup> setup = parse(args, io, &status);
    if (!setup)
        return status;
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
            io.out << attemptLine(a) << '\n';
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

    int attempts = 0;
    int ok = 0;
    Millis waited { 0 };
    QList<double> latencies;
    for (const RunRecord& r : std::as_const(runs)) {
        attempts += int(r.attempts.size());
        ok += r.succeeded();
        waited += r.totalWait;
        if (r.startedAt && r.finishedAt)
            latencies << toMs(*r.finishedAt - *r.startedAt);
    }
    const int n = int(runs.size());
    const double rate = n ? 100.0 * ok / n : 0.0;
    const double amplification = n ? double(attempts) / n : 0.0;
    if (setup->json) {
        QJsonObject summary { { u"runs"_s, n }, { u"attempts"_s, attempts }, { u"succeeded"_s, ok },
            { u"amplification"_s, amplification }, { u"p50_ms"_s, percentile(latencies, 0.5) },
            { u"p95_ms"_s, percentile(latencies, 0.95) }, { u"waiting_ms"_s, qint64(waited.count()) } };
        if (setup->scenario)
            summary[u"ledger"_s] = lab.ledger().toJson();
        io.out << QJsonDocument(QJsonObject { { u"summary"_s, summary } }).toJson(QJsonDocument::Compact) << '\n';
    } else {
        io.out << tr("%1 runs, %2 attempts, %3% succeeded, amplification %4, latency p50 %5 ms p95 %6 ms, waiting %7 ms")
                      .arg(n).arg(attempts).arg(rate, 0, 'f', 1).arg(amplification, 0, 'f', 2)
                      .arg(percentile(latencies, 0.5), 0, 'f', 1).arg(percentile(latencies, 0.95), 0, 'f', 1)
                      .arg(waited.count())
               << '\n';
        for (const RunRecord& r : std::as_const(runs)) {
            if (!r.succeeded())
                io.out << tr("run %1: %2 — %3").arg(r.runId).arg(finalKindName(r.outcome), r.reason) << '\n';
        }
        if (setup->scenario)
            io.out << ledgerLine(lab.ledger()) << '\n'
                   << "  " << QJsonDocument(lab.ledger().toJson()).toJson(QJsonDocument::Compact) << '\n';
    }
    if (recorder) {
        QString error;
        if (!recorder->finish(&error)) {
            io.err << "retrylab run: " << error << '\n';
            return CliExit::Failed;
        }
    }
    if (!setup->exportPath.isEmpty()) {
        QFile f(setup->exportPath);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || f.write(QJsonDocument(attemptLogToJson(runs)).toJson(QJsonDocument::Indented)) < 0) {
            io.err << "retrylab run: " << tr("cannot write %1: %2").arg(setup->exportPath, f.errorString()) << '\n';
            return CliExit::Failed;
        }
    }
    io.out.flush();
    return ok == n ? CliExit::Ok : CliExit::Failed;
}

} // namespace

CliCommand runCommand()
{
    return CliCommand { u"run"_s, tr("send requests under a retry policy and record every attempt"),
        QString::fromUtf8(kUsage), runRun };
}
