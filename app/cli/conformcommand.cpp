// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab conform`: does a client do what its retry policy says? A command run once per suite case
// against the lab, or a recorded session, judged attempt by attempt (core/conform).
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"
#include "cli/policychoice.h"

#include "conform/conformancereport.h"
#include "conform/conformrefusal.h"
#include "conform/sessionjudging.h"
#include "engine/clock.h"
#include "engine/scheduler.h"
#include "session/session.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("conform", text); }

const char* const kUsage = R"(Usage: retrylab conform --policy NAME|FILE [--set PATH=VALUE]… --suite NAME|FILE [--case NAME]…
                        [--case-timeout S] [--tolerance S[:S]] [--json] [--junit FILE] -- COMMAND [ARGS…]
       retrylab conform --policy NAME|FILE [--set PATH=VALUE]… --session FILE [--tolerance S[:S]] [--json]
                        [--junit FILE]
       retrylab conform --list

Judges a client against a retry policy, attempt by attempt. With --suite, COMMAND runs once per case of the
suite, each time against its own fault lab on 127.0.0.1, with these in its environment:
  RETRYLAB_URL              the URL to request (the case's lab; every path answers)
  RETRYLAB_BASE_URL         the lab's base URL
  RETRYLAB_CASE             the case's name
  RETRYLAB_METHOD           the method the case suggests (GET, POST…)
  RETRYLAB_IDEMPOTENCY_KEY  a fresh key, when the case suggests sending one (absent otherwise)
COMMAND makes one logical request however it likes, its client retrying as it does, and exits with a
non-zero status when the request failed. Every request the lab sees in a case is an attempt of that
request. After each answer the policy says what it would do (retry or stop, and the range of its wait);
every difference is a finding naming the rule: retried where the policy stops, stopped where it retries,
a wait outside the policy's range (with the tolerance shown), the idempotency key changed or missing, the
attempt limit or deadline passed, the exit status not reporting the outcome.

A case with many calls (the breakers suite) also sets these, and COMMAND makes the calls from one client:
  RETRYLAB_CALLS            how many calls
  RETRYLAB_INTERVAL_MS      call n starts (n - 1) x this after call 1, whether or not earlier calls ended
  RETRYLAB_CALL_HEADER      the field carrying n on every request of call n (X-Retrylab-Call)
The policy's circuit breaker is replayed along the calls: a call that reached the lab while it was open,
a breaker that opened too early or too late (with the window's counts), too many or too few probes, and a
hedged copy sent too soon or beyond the policy's last are findings.

With --session, the runs of a recorded session (retrylab observe --session, retrylab import) are judged
instead; nothing is run.

Options:
  --policy NAME|FILE  a preset (retrylab policy list) or a policy file
  --set PATH=VALUE    a field of the policy set as the client is configured (repeatable), by its path in
                      the policy file: curl --retry 3 is --policy curl-7.88 --set limits.max_retries=3;
                      VALUE is JSON, or text when it is not (the report says what changed)
  --suite NAME|FILE   a built-in suite (standard, seeds, breakers: see --list) or a suite file
                      (resources/docs/suite-format.md)
  --case NAME         run only this case (repeatable)
  --case-timeout S    stop COMMAND after S seconds in every case (default: each case's own, 30 s unless set)
  --tolerance S[:S]   how far a wait may fall outside the policy's range: EARLY:LATE in seconds, or one
                      value for both (default 0.25:0.5; a tenth of the bound when that is more)
  --json              the report as JSON on stdout instead of the table
  --junit FILE        also write the report as JUnit XML (one testcase per case)
  --list              the built-in suites and their cases

Exit status: 0 when every case conforms, 1 when some do not (or could not run), 2 for bad input (an unknown
option, a policy, suite or session that cannot be read, no COMMAND).
)";

int usage(CliIo& io, const QString& message)
{
    io.err << "retrylab conform: " << message << '\n';
    return CliExit::Usage;
}

int listSuites(CliIo& io)
{
    for (const QString& name : SuiteLoader::builtInNames()) {
        const SuiteLoader::Result r = SuiteLoader::load(name);
        if (!r.ok())
            continue;
        io.out << name << " — " << r.suite->description << '\n';
        for (const SuiteCase& c : r.suite->cases)
            io.out << "  " << c.name.leftJustified(30) << ' ' << c.method.leftJustified(6) << ' ' << c.description << '\n';
    }
    return CliExit::Ok;
}

int finish(CliIo& io, const ConformanceReport& report, bool json, const std::optional<QString>& junit)
{
    if (json)
        io.out << QString::fromUtf8(QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented));
    else
        io.out << report.table();
    io.out.flush();
    if (junit) {
        QSaveFile file(*junit);
        if (!file.open(QIODevice::WriteOnly) || file.write(report.toJUnit()) < 0 || !file.commit()) {
            io.err << "retrylab conform: " << withFileName(*junit, file.errorString()) << '\n';
            return CliExit::Failed;
        }
    }
    return report.allConform() ? CliExit::Ok : CliExit::Failed;
}

int runConform(const QStringList& args, CliIo& io)
{
    const qsizetype dashes = args.indexOf(u"--"_s);
    const QStringList own = dashes < 0 ? args : args.first(dashes);
    const QStringList command = dashes < 0 ? QStringList() : args.sliced(dashes + 1);
    CliArgs a;
    a.option(u"policy"_s).option(u"suite"_s).option(u"session"_s).option(u"case"_s, true).option(u"case-timeout"_s)
        .option(u"tolerance"_s).option(u"junit"_s).flag(u"json"_s).flag(u"list"_s);
    PolicyChoice::declareSettings(a);
    if (!a.parse(own))
        return usage(io, a.error());
    if (!a.positional().isEmpty())
        return usage(io, tr("unexpected argument \"%1\" (the command goes after --)").arg(a.positional().first()));
    if (a.isSet(u"list"_s))
        return listSuites(io);
    const std::optional<QString> policyName = a.value(u"policy"_s);
    if (!policyName)
        return usage(io, tr("--policy is required: the policy the client is judged against"));
    const bool bySession = a.isSet(u"session"_s);
    if (bySession == a.isSet(u"suite"_s))
        return usage(io, tr("give --suite (and a command after --) or --session FILE"));
    if (bySession && !command.isEmpty())
        return usage(io, tr("--session judges recorded traffic: no command is run"));
    if (!bySession && command.isEmpty())
        return usage(io, tr("give the client command after --: retrylab conform --policy P --suite S -- COMMAND [ARGS…]"));
    if (bySession && (a.isSet(u"case"_s) || a.isSet(u"case-timeout"_s)))
        return usage(io, tr("--case and --case-timeout go with --suite"));
    PolicyChoice::Problems problems;
    const std::optional<PolicyChoice> policy = PolicyChoice::resolve(*policyName, a, &problems);
    if (!policy)
        return usage(io, problems.line());
    // A strategy the judge does not read would be judged as if it were not there: refused by name instead.
    if (const QString refusal = conformRefusal(policy->policy); !refusal.isEmpty())
        return usage(io, refusal);
    JudgeOptions options;
    if (const std::optional<QString> tolerance = a.value(u"tolerance"_s)) {
        QString error;
        const std::optional<WaitTolerance> t = parseWaitTolerance(*tolerance, options.tolerance, &error);
        if (!t)
            return usage(io, u"--tolerance: "_s + error);
        options.tolerance = *t;
    }
    const std::optional<QString> junit = a.value(u"junit"_s);
    if (junit) {
        if (const QString problem = outputPathProblem(*junit); !problem.isEmpty())
            return usage(io, u"--junit: "_s + problem);
    }
    ConformanceReport report;
    report.policy = policy->policy.name;
    report.policyChanges = policy->changes;
    report.tolerance = options.tolerance;
    report.startedUtc = QDateTime::currentDateTimeUtc();
    const bool json = a.isSet(u"json"_s);

    if (bySession) {
        const QString path = *a.value(u"session"_s);
        QString error;
        const std::unique_ptr<Session> session = SessionFile::open(path, {}, &error);
        if (!session)
            return usage(io, withFileName(path, error));
        report.suite = tr("session %1").arg(QFileInfo(path).fileName());
        report.cases = judgeSession(*session, policy->policy, options);
        if (report.cases.isEmpty())
            return usage(io, withFileName(path, tr("the session holds no run to judge")));
        return finish(io, report, json, junit);
    }

    const SuiteLoader::Result suite = SuiteLoader::load(*a.value(u"suite"_s));
    if (!suite.ok())
        return usage(io, tr("suite %1: %2").arg(*a.value(u"suite"_s), suite.problems.join(u"; "_s)));
    QString error;
    std::optional<QList<SuiteCase>> cases = suite.suite->select(a.values(u"case"_s), &error);
    if (!cases)
        return usage(io, error);
    if (a.isSet(u"case-timeout"_s)) {
        const std::optional<qint64> ms = a.secondsAsMillis(u"case-timeout"_s);
        if (!ms)
            return usage(io, a.error());
        for (SuiteCase& c : *cases)
            c.timeout = std::chrono::milliseconds(*ms);
    }
    report.suite = suite.suite->name;
    report.command = command;

    ConformanceRunner runner(io.clock, io.scheduler, policy->policy, options);
    QEventLoop loop;
    QObject::connect(&runner, &ConformanceRunner::caseStarted, &loop, [&](int index, const QString& name, const QUrl& url) {
        io.err << tr("[%1/%2] %3 at %4").arg(index + 1).arg(cases->size()).arg(name, url.toString()) << '\n';
        io.err.flush();
    });
    QObject::connect(&runner, &ConformanceRunner::caseFinished, &loop, [&](int, const CaseResult& r) {
        if (r.commandNotFound) { // the same for every case
            runner.stop();
            return;
        }
        const qsizetype requests = r.run.record.attempts.size();
        if (r.judgement.calls)
            io.err << tr("       %1 (%2 calls, %3 requests)").arg(caseVerdict(r)).arg(r.judgement.calls->planned).arg(requests);
        else
            io.err << tr("       %1 (%2 attempts)").arg(caseVerdict(r)).arg(requests);
        io.err << '\n';
        io.err.flush();
    });
    QObject::connect(&runner, &ConformanceRunner::finished, &loop, &QEventLoop::quit);
    runner.start(*cases, command);
    loop.exec();
    report.cases = runner.results();
    if (!report.cases.isEmpty() && report.cases.last().commandNotFound) {
        io.err << "retrylab conform: " << report.cases.first().startError << '\n';
        return 127;
    }
    return finish(io, report, json, junit);
}

} // namespace

CliCommand conformCommand()
{
    return CliCommand { u"conform"_s, tr("judge a client against a retry policy, case by case (suites, JSON, JUnit)"),
        QString::fromUtf8(kUsage), runConform };
}
