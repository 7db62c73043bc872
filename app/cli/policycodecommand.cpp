// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab policy export|import|targets`: a policy as code for the library a user runs, and a client's
// configuration read back into a policy (issue 30). The generators are core/codegen's.
#include "cli/policycode.h"

#include "cli/cliargs.h"
#include "cli/filechecks.h"
#include "cli/policychoice.h"
#include "codegen/codeexport.h"
#include "policy/policyjson.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("cli", text);
}

int usage(CliIo& io, const QString& action, const QString& message)
{
    io.err << "retrylab policy " << action << ": " << message << '\n';
    return CliExit::Usage;
}

// TEXT into PATH, or stdout when PATH is unset. False with the reason printed.
bool writeOutput(CliIo& io, const QString& action, const std::optional<QString>& path, const QString& text)
{
    if (!path) {
        io.out << text;
        io.out.flush();
        return true;
    }
    QSaveFile file(*path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        io.err << "retrylab policy " << action << ": " << withFileName(*path, file.errorString()) << '\n';
        return false;
    }
    return true;
}

void printLost(CliIo& io, const QString& who, const QList<LostBehaviour>& lost)
{
    for (const LostBehaviour& l : lost)
        io.err << "lost (" << who << "): " << l.path << ": " << l.what << '\n';
}

QJsonArray lostJson(const QList<LostBehaviour>& lost)
{
    QJsonArray out;
    for (const LostBehaviour& l : lost)
        out.append(QJsonObject { { u"path"_s, l.path }, { u"what"_s, l.what } });
    return out;
}

// --check: what each target would lose, one block per target; exit 3 when any loses something.
int checkTargets(CliIo& io, const QList<const CodeTarget*>& targets, const QString& version, const RetryPolicy& policy,
    bool json, bool allowLossy)
{
    QJsonArray report;
    bool anyLost = false;
    for (const CodeTarget* t : targets) {
        QString error;
        const std::optional<CodeExport> e = exportPolicy(*t, policy, targets.size() == 1 ? version : QString(), &error);
        if (!e)
            return usage(io, u"export"_s, error);
        const QString v = targets.size() == 1 && !version.isEmpty() ? version : t->versions.value(0);
        anyLost = anyLost || !e->exact();
        if (json) {
            report.append(QJsonObject { { u"target"_s, t->id }, { u"version"_s, v }, { u"exact"_s, e->exact() },
                { u"lost"_s, lostJson(e->lost) } });
            continue;
        }
        io.out << (e->exact() ? u"exact  "_s : u"lossy  "_s) << t->id << ' ' << v;
        io.out << (e->exact() ? QString() : tr(" (%1 lost)").arg(e->lost.size())) << '\n';
        for (const LostBehaviour& l : e->lost)
            io.out << "         " << l.path << ": " << l.what << '\n';
    }
    if (json)
        io.out << QString::fromUtf8(QJsonDocument(QJsonObject { { u"policy"_s, policy.name }, { u"targets"_s, report } })
                                        .toJson(QJsonDocument::Indented));
    return anyLost && !allowLossy ? CliExit::Lossy : CliExit::Ok;
}

} // namespace

int exportPolicyCode(const QStringList& args, CliIo& io)
{
    CliArgs cli;
    cli.option(u"to"_s).option(u"target-version"_s).option(u"out"_s).flag(u"allow-lossy"_s).flag(u"check"_s).flag(u"json"_s);
    PolicyChoice::declareSettings(cli);
    if (!cli.parse(args))
        return usage(io, u"export"_s, cli.error());
    if (cli.positional().size() != 1)
        return usage(io, u"export"_s, tr("give one preset name or policy file, then --to TARGET (%1, or all with --check)").arg(CodeTargets::ids().join(u", "_s)));
    const std::optional<QString> to = cli.value(u"to"_s);
    if (!to)
        return usage(io, u"export"_s, tr("--to is required: one of %1 (or all with --check)").arg(CodeTargets::ids().join(u", "_s)));
    const bool check = cli.isSet(u"check"_s);
    QList<const CodeTarget*> targets;
    if (*to == u"all") {
        if (!check)
            return usage(io, u"export"_s, tr("--to all goes with --check (one target's code at a time)"));
        for (const CodeTarget& t : CodeTargets::all())
            targets << &t;
    } else if (const CodeTarget* t = CodeTargets::find(*to)) {
        targets << t;
    } else {
        return usage(io, u"export"_s, tr("unknown target \"%1\": one of %2").arg(*to, CodeTargets::ids().join(u", "_s)));
    }
    const QString version = cli.value(u"target-version"_s).value_or(QString());
    if (!version.isEmpty() && targets.size() != 1)
        return usage(io, u"export"_s, tr("--target-version goes with one target"));
    if (!version.isEmpty() && !targets.first()->versions.contains(version))
        return usage(io, u"export"_s, tr("%1 is written for version %2, not \"%3\"").arg(targets.first()->id, targets.first()->versions.join(u" or "_s), version));
    const std::optional<QString> out = cli.value(u"out"_s);
    if (out && check)
        return usage(io, u"export"_s, tr("--check writes no code: drop --out"));
    if (cli.isSet(u"json"_s) && !check)
        return usage(io, u"export"_s, tr("--json goes with --check (the code itself is the output)"));
    if (out) {
        if (const QString problem = outputPathProblem(*out); !problem.isEmpty())
            return usage(io, u"export"_s, u"--out: "_s + problem);
    }
    PolicyChoice::Problems problems;
    const std::optional<PolicyChoice> policy = PolicyChoice::resolve(cli.positional().first(), cli, &problems);
    if (!policy)
        return usage(io, u"export"_s, problems.line());
    if (check)
        return checkTargets(io, targets, version, policy->policy, cli.isSet(u"json"_s), cli.isSet(u"allow-lossy"_s));

    const CodeTarget& target = *targets.first();
    QString error;
    const std::optional<CodeExport> e = exportPolicy(target, policy->policy, version, &error);
    if (!e)
        return usage(io, u"export"_s, error);
    const QString who = target.id + u' ' + (version.isEmpty() ? target.versions.value(0) : version);
    printLost(io, who, e->lost);
    if (!e->exact() && !cli.isSet(u"allow-lossy"_s)) {
        io.err << tr("retrylab policy export: %1 cannot express %2 behaviour(s) of %3, listed above; nothing written "
                     "(--allow-lossy writes the code with them listed in its header)\n")
                      .arg(who)
                      .arg(e->lost.size())
                      .arg(policy->policy.name);
        return CliExit::Lossy;
    }
    return writeOutput(io, u"export"_s, out, e->code) ? CliExit::Ok : CliExit::Failed;
}

int importPolicyCode(const QStringList& args, CliIo& io)
{
    CliArgs cli;
    cli.option(u"from"_s).option(u"out"_s).option(u"name"_s).flag(u"allow-lossy"_s);
    if (!cli.parse(args))
        return usage(io, u"import"_s, cli.error());
    QStringList importable;
    for (const CodeTarget& t : CodeTargets::all())
        if (t.import)
            importable << t.id;
    const std::optional<QString> from = cli.value(u"from"_s);
    if (!from || cli.positional().size() != 1)
        return usage(io, u"import"_s, tr("give --from TARGET (%1) and one file (- for standard input)").arg(importable.join(u", "_s)));
    const CodeTarget* target = CodeTargets::find(*from);
    if (!target || !target->import)
        return usage(io, u"import"_s, tr("cannot read \"%1\": import reads %2").arg(*from, importable.join(u", "_s)));
    const std::optional<QString> out = cli.value(u"out"_s);
    if (out) {
        if (const QString problem = outputPathProblem(*out); !problem.isEmpty())
            return usage(io, u"import"_s, u"--out: "_s + problem);
    }
    const QString path = cli.positional().first();
    constexpr qint64 kLimit = 4 * 1024 * 1024;
    QByteArray text;
    if (path == u"-") {
        text = io.in.read(kLimit + 1);
    } else {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return usage(io, u"import"_s, withFileName(path, file.errorString()));
        text = file.read(kLimit + 1);
    }
    if (text.size() > kLimit)
        return usage(io, u"import"_s, withFileName(path, tr("larger than 4 MiB: not a client's configuration")));
    CodeImport imported = target->import(text);
    if (!imported.policy) {
        QStringList problems = imported.problems;
        if (problems.isEmpty())
            problems << tr("not %1's configuration").arg(target->title);
        return usage(io, u"import"_s, withFileName(path, problems.join(u"; "_s)));
    }
    RetryPolicy& policy = *imported.policy;
    if (const std::optional<QString> name = cli.value(u"name"_s))
        policy.name = *name;
    if (const QList<PolicyProblem> problems = validate(policy); !problems.isEmpty()) {
        QStringList lines;
        for (const PolicyProblem& p : problems)
            lines << p.path + u": "_s + p.message;
        return usage(io, u"import"_s, withFileName(path, tr("the policy read from it is not valid: %1").arg(lines.join(u"; "_s))));
    }
    printLost(io, target->id, imported.lost);
    if (!imported.lost.isEmpty() && !cli.isSet(u"allow-lossy"_s)) {
        io.err << tr("retrylab policy import: %1 holds %2 setting(s) a Retrylab policy cannot, listed above; nothing written "
                     "(--allow-lossy writes the policy without them)\n")
                      .arg(path)
                      .arg(imported.lost.size());
        return CliExit::Lossy;
    }
    return writeOutput(io, u"import"_s, out, QString::fromUtf8(policyToJsonBytes(policy))) ? CliExit::Ok : CliExit::Failed;
}

int listCodeTargets(CliIo& io)
{
    qsizetype width = 0;
    for (const CodeTarget& t : CodeTargets::all())
        width = std::max(width, t.id.size());
    for (const CodeTarget& t : CodeTargets::all())
        io.out << t.id.leftJustified(width + 2) << t.title << " (" << t.versions.join(u", "_s) << "; " << t.runtime
               << (t.import ? tr("; import too") : QString()) << ")\n";
    return CliExit::Ok;
}
