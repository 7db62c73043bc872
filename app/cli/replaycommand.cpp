// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab replay SESSION [--policy P] [--offline|--live [--base-url URL]] [--compare] [--export FILE]`.
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"
#include "cli/policychoice.h"

#include "engine/retryengine.h"
#include "replay/replaycomparison.h"
#include "replay/replayrunner.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("replay", text); }

const char* const kUsage = R"(Usage: retrylab replay SESSION [--policy P [--set PATH=VALUE]…] [--offline | --live [--base-url URL]] [--compare]
                       [--json] [--export FILE]

Runs a recorded session's requests again and compares the result with the recording.
  --offline (default)  what-if: the recorded answers (statuses, Retry-After and rate-limit headers, resets,
                       timeouts, think times) are served by the fault lab on 127.0.0.1; nothing is sent out
  --live               the same requests to the recorded URLs, or to --base-url: its scheme, host and port,
                       and its path (if any) put in front of each recorded path; no query
  --policy P           a preset or policy file for every run (default: each run's recorded policy and seed;
                       then decisions and delays must match the recording attempt for attempt)
  --set PATH=VALUE     a field of --policy's policy set as the client is configured (repeatable), by its
                       path in the policy file: --set limits.max_retries=3; VALUE is JSON, or text when
                       it is not (the comparison says what changed)
  --compare            print the per-run comparison (outcome, attempts, total and waiting time, operations applied)
  --json               print the comparison as JSON
  --export FILE        save the replay as a session (the folder is checked before anything is sent)
  --concurrency C      runs in progress at once (default: as recorded)

Exit status: 0 replayed (and, under the recorded policy offline, the same decisions), 1 otherwise, 2 bad
arguments or a SESSION that cannot be read (nothing is sent).
)";

int runReplay(const QStringList& args, CliIo& io)
{
    CliArgs a;
    a.option(u"policy"_s).flag(u"offline"_s).flag(u"live"_s).option(u"base-url"_s).flag(u"compare"_s).flag(u"json"_s);
    a.option(u"export"_s).option(u"concurrency"_s);
    PolicyChoice::declareSettings(a);
    const auto usage = [&](const QString& m) { io.err << "retrylab replay: " << m << '\n'; return CliExit::Usage; };
    if (!a.parse(args))
        return usage(a.error());
    if (a.positional().size() != 1)
        return usage(tr("give exactly one SESSION file"));
    if (a.isSet(u"offline"_s) && a.isSet(u"live"_s))
        return usage(tr("give at most one of --offline and --live"));
    ReplayOptions options;
    options.live = a.isSet(u"live"_s);
    if (const auto base = a.value(u"base-url"_s)) {
        if (!options.live)
            return usage(tr("--base-url needs --live"));
        if (base->trimmed().isEmpty())
            return usage(tr("--base-url needs a URL, e.g. http://staging.test/api"));
        const TargetUrl::Parsed url = ReplayRunner::parseBaseUrl(*base);
        if (!url.ok())
            return usage(u"--base-url "_s + url.problem);
        options.baseUrl = url.url;
    }
    PolicyChanges changes; // what --set changed in --policy's policy
    if (a.isSet(u"policy"_s) || a.isSet(u"set"_s)) {
        PolicyChoice::Problems problems;
        const std::optional<PolicyChoice> policy = PolicyChoice::resolve(a.value(u"policy"_s).value_or(QString()), a, &problems);
        if (!policy)
            return usage(problems.line());
        if (const QString refusal = engineRefusal(policy->policy); !refusal.isEmpty())
            return usage(refusal);
        options.policy = policy->policy;
        options.policyChanges = changes = policy->changes;
    }
    if (a.isSet(u"concurrency"_s)) {
        const auto c = a.integer(u"concurrency"_s, 1, 10000);
        if (!c)
            return usage(a.error());
        options.concurrency = int(*c);
    }
    if (const auto path = a.value(u"export"_s)) {
        if (const QString problem = outputPathProblem(*path); !problem.isEmpty())
            return usage(u"--export: "_s + problem);
    }
    QString error;
    const std::unique_ptr<Session> recorded = SessionFile::open(a.positional().first(), {}, &error);
    if (!recorded)
        return usage(withFileName(a.positional().first(), error)); // a missing, truncated or foreign file is bad input

    ReplayRunner runner(*recorded, options, io.clock, io.scheduler);
    QEventLoop loop;
    QObject::connect(&runner, &ReplayRunner::finished, &loop, &QEventLoop::quit);
    if (!runner.start(&error)) {
        io.err << "retrylab replay: " << error << '\n';
        return CliExit::Failed;
    }
    if (runner.isRunning())
        loop.exec();
    const ReplayComparison comparison = ReplayComparison::compare(*recorded, runner.result());
    const bool deterministic = !options.live && !options.policy;
    const QString difference = deterministic ? ReplayComparison::firstDecisionDifference(*recorded, runner.result()) : QString();
    if (a.isSet(u"json"_s)) {
        QJsonObject o = comparison.toJson();
        if (deterministic)
            o[u"same_decisions"_s] = difference.isEmpty();
        if (!changes.isEmpty())
            o[u"policy_changes"_s] = changes.toJson();
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        const QString text = comparison.toText();
        io.out << (a.isSet(u"compare"_s) ? text : text.section(u'\n', -3));
        if (!changes.isEmpty())
            io.out << tr("policy: %1").arg(changes.text()) << '\n';
        if (deterministic) {
            io.out << (difference.isEmpty() ? tr("same decisions and delays as recorded, attempt for attempt")
                                            : tr("differs from the recording: %1").arg(difference))
                   << '\n';
        }
    }
    if (const auto path = a.value(u"export"_s)) {
        if (!SessionFile::save(runner.result(), *path, {}, &error)) {
            io.err << "retrylab replay: " << error << '\n';
            return CliExit::Failed;
        }
    }
    io.out.flush();
    return difference.isEmpty() ? CliExit::Ok : CliExit::Failed;
}

} // namespace

CliCommand replayCommand()
{
    return CliCommand { u"replay"_s, tr("replay a session offline (what-if) or live and compare"),
        QString::fromUtf8(kUsage), runReplay };
}
