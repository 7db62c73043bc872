// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab policy list|show|validate|explain|table`: the policy core, scriptable.
#include "cli/clicommand.h"

#include "cli/cliargs.h"
#include "cli/policychoice.h"
#include "cli/policycode.h"
#include "cli/problemline.h"
#include "http/httptoken.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/decisiontable.h"
#include "policy/policydescription.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("cli", text);
}

const QString kUsage = uR"(Usage:
  retrylab policy list
  retrylab policy show NAME|FILE [--set PATH=VALUE]... [--json]
  retrylab policy validate FILE
  retrylab policy explain NAME|FILE [--set PATH=VALUE]... --method M (--status N | --error CLASS)
                          [--header 'K: V']... [--body TEXT] [--attempt N] [--idempotency-key]
                          [--after-lost-answer] [--elapsed-ms T] [--json]
  retrylab policy table NAME|FILE [--set PATH=VALUE]...
  retrylab policy export NAME|FILE [--set PATH=VALUE]... --to TARGET [--target-version V] [--out FILE]
                         [--allow-lossy]
  retrylab policy export NAME|FILE --to TARGET|all --check [--json]
  retrylab policy import --from TARGET FILE|- [--name NAME] [--out FILE] [--allow-lossy]
  retrylab policy targets

list      every built-in preset with a one-line description
show      a policy in full: limits, backoff, jitter, hints, rules in order, budgets (--json: the policy file)
validate  checks a policy file; exit 0 when valid, exit 2 listing every problem with its field path
explain   the decision for attempt N (1 = the first attempt) that just ended as described:
          {"decision":"retry"|"stop"|"success","delay_ms":{"min":…,"max":…}|null,
           "delay_source":"…"|null,"reason":"…"}; min and max span the jitter's range
table     the decision matrix, outcomes × methods, and the wait range before each retry
export    the policy as code or configuration for the library you use (`policy targets` lists them):
          exact where the target can be, through its own extension points where its options cannot;
          what even those cannot express is listed on stderr and in the code's header, and the export
          exits 3 writing nothing unless --allow-lossy. Counts are converted (retries vs attempts).
          --check only lists what would be lost (for every target with --to all; exit 3 when any is)
import    a client's configuration read into a policy (envoy retry_policy YAML, grpc service config,
          resilience4j YAML, a urllib3 Retry(...) call): the policy file on stdout, what could not be
          read on stderr, exit 3 unless --allow-lossy
targets   every export target with its versions and where it runs

Error classes: dns, refused, tls, connect-timeout, response-timeout, connection-lost, protocol.
A policy is a preset name (see `retrylab policy list`) or a path to a policy JSON file
(format: resources/docs/policy-format.md).

--set PATH=VALUE sets a field of it as the client is configured (repeatable): PATH as the policy file spells
it (limits.max_retries, backoff.base_ms, rules[2].action), VALUE as JSON (3, true, null, "text", ["GET"]) or
text when it is not JSON. It is checked as a policy file is; the output says what changed ("preset
curl-7.88, changed: limits.max_retries 7 → 3"), with show --json on stderr, so stdout stays a policy file.
)"_s;

// One problem on one line ("retrylab policy show: x.json: not valid JSON …"); several as a list under a
// count, each with its field path, as validate documents.
void printProblems(QTextStream& err, const QString& action, const QString& what, const QList<PolicyProblem>& problems,
    const QString& line)
{
    if (problems.size() == 1) {
        err << "retrylab policy " << action << ": " << line << '\n';
        return;
    }
    err << QCoreApplication::translate("cli", "%1: %n problem(s)\n", nullptr, int(problems.size())).arg(what);
    for (const PolicyProblem& problem : problems)
        err << "  " << (problem.path.isEmpty() ? problem.message : problem.path + u": "_s + problem.message) << '\n';
}

// NAMEORFILE with the --set of ARGS applied; the problems printed when there are any.
std::optional<PolicyChoice> resolvePolicy(const QString& action, const QString& nameOrFile, const CliArgs& args, CliIo& io)
{
    PolicyChoice::Problems problems;
    std::optional<PolicyChoice> choice = PolicyChoice::resolve(nameOrFile, args, &problems);
    if (!choice)
        printProblems(io.err, action, problems.what(), problems.list, problems.line());
    return choice;
}

int listPresets(CliIo& io)
{
    const QList<PresetInfo> presets = PresetCatalog::list();
    qsizetype width = 4;
    for (const PresetInfo& preset : presets)
        width = std::max(width, preset.name.size());
    for (const PresetInfo& preset : presets)
        io.out << preset.name.leftJustified(width + 2) << PresetCatalog::summaryOf(preset.description) << '\n';
    return CliExit::Ok;
}

int showPolicy(const QStringList& args, CliIo& io)
{
    CliArgs cli;
    cli.flag(u"json"_s);
    PolicyChoice::declareSettings(cli);
    if (!cli.parse(args) || cli.positional().size() != 1) {
        const QString given = cli.positional().isEmpty() ? QString() : tr(", not \"%1\"").arg(cli.positional().join(u' '));
        io.err << tr("retrylab policy show: %1\n").arg(cli.error().isEmpty() ? tr("give one preset name or file") + given : cli.error());
        return CliExit::Usage;
    }
    const std::optional<PolicyChoice> policy = resolvePolicy(u"show"_s, cli.positional().first(), cli, io);
    if (!policy)
        return CliExit::Usage;
    const QString changes = policy->changesLine();
    if (cli.isSet(u"json"_s)) {
        io.out << QString::fromUtf8(policyToJsonBytes(policy->policy));
        if (!changes.isEmpty()) // stdout is the policy file; what was changed goes beside it
            io.err << "retrylab policy show: " << changes << '\n';
    } else {
        if (!changes.isEmpty())
            io.out << changes << "\n\n";
        io.out << describePolicy(policy->policy);
    }
    return CliExit::Ok;
}

int validatePolicy(const QStringList& args, CliIo& io)
{
    if (args.size() != 1 || args.first().startsWith(u"--"_s)) {
        io.err << tr("retrylab policy validate: give one policy file\n");
        return CliExit::Usage;
    }
    QFile file(args.first());
    if (!file.open(QIODevice::ReadOnly)) {
        io.err << tr("retrylab policy validate: cannot read %1: %2\n").arg(args.first(), file.errorString());
        return CliExit::Usage;
    }
    const PolicyParseResult parsed = policyFromJsonBytes(file.read(4 * 1024 * 1024 + 1));
    if (!parsed.policy) {
        printProblems(io.err, u"validate"_s, args.first(), parsed.problems, policyProblemLine(args.first(), parsed.problems));
        return CliExit::Usage;
    }
    io.out << tr("%1: valid policy \"%2\"\n").arg(args.first(), parsed.policy->name);
    return CliExit::Ok;
}

int explainDecision(const QStringList& args, CliIo& io)
{
    CliArgs cli;
    cli.option(u"method"_s).option(u"status"_s).option(u"error"_s).option(u"header"_s, true).option(u"body"_s);
    cli.option(u"attempt"_s).option(u"elapsed-ms"_s).flag(u"idempotency-key"_s).flag(u"after-lost-answer"_s).flag(u"json"_s);
    PolicyChoice::declareSettings(cli);
    const auto usage = [&io](const QString& message) {
        io.err << tr("retrylab policy explain: %1\n").arg(message);
        return CliExit::Usage;
    };
    if (!cli.parse(args))
        return usage(cli.error());
    if (cli.positional().size() != 1)
        return usage(tr("give one preset name or policy file"));
    if (!cli.isSet(u"method"_s))
        return usage(tr("--method is required"));
    if (cli.isSet(u"status"_s) == cli.isSet(u"error"_s))
        return usage(tr("give exactly one of --status N or --error CLASS"));

    ExplainQuery query;
    query.method = cli.value(u"method"_s)->toUpper();
    if (!isHttpToken(query.method))
        return usage(tr("--method \"%1\" is not an HTTP method (RFC 9110: a token, no spaces or separators)").arg(query.method));
    query.request.hasIdempotencyKey = cli.isSet(u"idempotency-key"_s);
    query.request.answerLostEarlier = cli.isSet(u"after-lost-answer"_s);
    if (cli.isSet(u"status"_s)) {
        const std::optional<qint64> status = cli.integer(u"status"_s, 100, 599);
        if (!status)
            return usage(cli.error());
        query.outcome = AttemptOutcome::answered(int(*status));
    } else {
        const std::optional<ErrorClass> error = errorClassFromName(*cli.value(u"error"_s));
        if (!error)
            return usage(tr("--error must be one of %1").arg(errorClassNames().join(u", "_s)));
        query.outcome = AttemptOutcome::failed(*error);
    }
    for (const QString& header : cli.values(u"header"_s)) {
        const qsizetype colon = header.indexOf(QLatin1Char(':'));
        if (colon <= 0 || !isHttpToken(header.left(colon).trimmed()))
            return usage(tr("--header must look like 'Name: value', not \"%1\"").arg(header));
        query.outcome.headers << qMakePair(header.left(colon).trimmed().toLatin1(), header.mid(colon + 1).trimmed().toUtf8());
    }
    if (const std::optional<QString> body = cli.value(u"body"_s))
        query.outcome.body = body->toUtf8();
    query.attempt = int(cli.integer(u"attempt"_s, 1, 1'000'000).value_or(1));
    if (!cli.error().isEmpty())
        return usage(cli.error());
    query.elapsed = Millis(cli.integer(u"elapsed-ms"_s, 0, qint64(1) << 50).value_or(0));
    if (!cli.error().isEmpty())
        return usage(cli.error());
    query.now = QDateTime::currentDateTimeUtc();

    const std::optional<PolicyChoice> policy = resolvePolicy(u"explain"_s, cli.positional().first(), cli, io);
    if (!policy)
        return CliExit::Usage;
    const RetryDecision d = explain(policy->policy, query);
    if (cli.isSet(u"json"_s)) {
        QJsonObject o = explanationJson(d);
        if (!policy->changes.isEmpty())
            o.insert(u"policy_changes"_s, policy->changes.toJson());
        io.out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
        return CliExit::Ok;
    }
    io.out << verdictName(d.verdict);
    if (d.verdict == Verdict::Retry) {
        io.out << ' ' << tr("after %1").arg(d.delayLow == d.delayHigh ? formatMillis(d.delayLow)
                                                                      : formatMillis(d.delayLow) + u"–"_s + formatMillis(d.delayHigh));
        io.out << " (" << delaySourceName(d.source) << ')';
    }
    if (d.finalKind != FinalKind::None && d.finalKind != FinalKind::Success)
        io.out << " [" << finalKindName(d.finalKind) << ']';
    io.out << "\n  " << d.reason << '\n';
    if (const QString changes = policy->changesLine(); !changes.isEmpty())
        io.out << "  " << tr("policy: %1").arg(changes) << '\n';
    return CliExit::Ok;
}

int printTable(const QStringList& args, CliIo& io)
{
    CliArgs cli;
    PolicyChoice::declareSettings(cli);
    if (!cli.parse(args) || cli.positional().size() != 1) {
        io.err << tr("retrylab policy table: %1\n").arg(cli.error().isEmpty() ? tr("give one preset name or policy file") : cli.error());
        return CliExit::Usage;
    }
    const std::optional<PolicyChoice> policy = resolvePolicy(u"table"_s, cli.positional().first(), cli, io);
    if (!policy)
        return CliExit::Usage;
    if (const QString changes = policy->changesLine(); !changes.isEmpty())
        io.out << changes << "\n\n";
    io.out << decisionTableText(buildDecisionTable(policy->policy, QDateTime::currentDateTimeUtc()));
    return CliExit::Ok;
}

int runPolicy(const QStringList& args, CliIo& io)
{
    if (args.isEmpty()) {
        io.err << tr("retrylab policy: give an action: list, show, validate, explain, table, export, import or targets (see retrylab help policy)\n");
        return CliExit::Usage;
    }
    const QString& verb = args.first();
    const QStringList rest = args.mid(1);
    if (verb == u"list")
        return rest.isEmpty() ? listPresets(io) : (io.err << tr("retrylab policy list: takes no arguments\n"), CliExit::Usage);
    if (verb == u"show")
        return showPolicy(rest, io);
    if (verb == u"validate")
        return validatePolicy(rest, io);
    if (verb == u"explain")
        return explainDecision(rest, io);
    if (verb == u"table")
        return printTable(rest, io);
    if (verb == u"export")
        return exportPolicyCode(rest, io);
    if (verb == u"import")
        return importPolicyCode(rest, io);
    if (verb == u"targets")
        return rest.isEmpty() ? listCodeTargets(io) : (io.err << tr("retrylab policy targets: takes no arguments\n"), CliExit::Usage);
    io.err << tr("retrylab policy: unknown action \"%1\" (list, show, validate, explain, table, export, import, targets)\n").arg(verb);
    return CliExit::Usage;
}

} // namespace

CliCommand policyCommand()
{
    return CliCommand { u"policy"_s, tr("list, show, validate and explain retry policies and presets; export them as code, import configs"), kUsage, runPolicy };
}
