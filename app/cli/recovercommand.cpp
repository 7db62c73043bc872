// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab recover`: lists and restores sessions whose recording was interrupted (crash, kill -9).
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"

#include "session/journal/journalregistry.h"
#include "session/journal/sessionrecovery.h"

#include <QCoreApplication>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("recover", text); }

const char* const kUsage = R"(Usage: retrylab recover [--list] [--dir DIR]... [JOURNAL]... [-o FILE]

A session being recorded keeps a journal next to it (SESSION.journal) until it is saved. After a crash or
kill -9 the journal holds every attempt that finished; recover turns it back into the session file and
deletes the journal. Without arguments it looks at the journals this user's Retrylab registered; --dir adds
the journals found in DIR, and JOURNAL names one directly. Journals of a recording still in progress are
listed but left alone: in progress means the process that wrote the journal still runs (its pid, with the
same start time, in this boot; a killed recorder that is a zombie, or a pid now used by another process,
does not count), so a journal can be recovered the moment its recorder died. Lines that cannot be
recovered (the one torn by the kill, damaged ones) are listed as "not recovered".

Options:
  --list          only list interrupted sessions
  --dir DIR       also look for *.journal files in DIR (repeatable)
  -o, --output F  write the recovered session to F instead of where it was being recorded (one journal only)

Exit status: 0 nothing failed (also when there was nothing to recover), 1 a journal could not be restored,
2 bad arguments (a --dir or JOURNAL that does not exist, an -o folder that does not).
)";

int runRecover(const QStringList& rawArgs, CliIo& io)
{
    QStringList args = rawArgs;
    for (QString& a : args) {
        if (a == u"-o"_s)
            a = u"--output"_s;
    }
    CliArgs a;
    a.flag(u"list"_s).option(u"dir"_s, true).option(u"output"_s);
    if (!a.parse(args)) {
        io.err << "retrylab recover: " << a.error() << '\n';
        return CliExit::Usage;
    }
    // What the user named must exist (a typo is not "no interrupted sessions"); checked before anything.
    const auto refuse = [&io](const QString& message) {
        io.err << "retrylab recover: " << message << '\n';
        return CliExit::Usage;
    };
    for (const QString& dir : a.values(u"dir"_s)) {
        if (!QFileInfo(dir).isDir())
            return refuse(tr("--dir \"%1\": no such folder").arg(dir));
    }
    for (const QString& j : a.positional()) {
        if (!QFileInfo(j).isFile())
            return refuse(tr("\"%1\": no such journal file").arg(j));
    }
    if (const auto output = a.value(u"output"_s); output && !outputPathProblem(*output).isEmpty())
        return refuse(u"-o: "_s + outputPathProblem(*output));
    QStringList journals;
    const auto addUnique = [&](const QString& path) {
        const QString abs = QFileInfo(path).absoluteFilePath();
        if (!journals.contains(abs))
            journals << abs;
    };
    for (const QString& j : a.positional())
        addUnique(j);
    for (const QString& dir : a.values(u"dir"_s)) {
        for (const QString& j : JournalRegistry::journalsIn(dir))
            addUnique(j);
    }
    if (a.positional().isEmpty()) {
        for (const QString& j : JournalRegistry::journals())
            addUnique(j);
    }
    if (a.isSet(u"output"_s) && journals.size() > 1) {
        io.err << "retrylab recover: " << tr("-o needs exactly one journal, found %1").arg(journals.size()) << '\n';
        return CliExit::Usage;
    }
    int failures = 0;
    int found = 0;
    QStringList errors;
    const QList<SessionRecovery::Candidate> candidates = SessionRecovery::scan(journals, &errors);
    for (const QString& error : std::as_const(errors)) {
        io.err << "retrylab recover: " << error << '\n';
        ++failures;
    }
    for (const SessionRecovery::Candidate& c : candidates) {
        ++found;
        const QString target = a.value(u"output"_s).value_or(c.info.sessionPath);
        // Alive means the very process that wrote the journal still runs: not a zombie, not a pid reused.
        const QString state = c.info.processAlive
            ? tr("still recording (pid %1)").arg(c.info.pid)
            : tr("interrupted (recorder pid %1 %2)").arg(c.info.pid).arg(QString::fromLatin1(SessionJournalProcess::stateName(c.info.recorderState)));
        io.out << tr("%1: %2, %3 runs, %4 attempts, started %5 → %6")
                      .arg(c.journalPath, state).arg(c.info.runs).arg(c.info.attempts).arg(c.info.startedUtc, target)
               << '\n';
        if (a.isSet(u"list"_s) || !c.recoverable())
            continue;
        QString error;
        if (!SessionRecovery::restore(c.journalPath, target, nullptr, &error)) {
            io.err << "retrylab recover: " << error << '\n';
            ++failures;
            continue;
        }
        io.out << tr("recovered %1 (%2 attempts)").arg(target).arg(c.info.attempts) << '\n';
        for (const QString& problem : c.info.problems)
            io.out << u"  "_s << tr("not recovered: %1").arg(problem) << '\n';
    }
    if (!found && !failures)
        io.out << tr("no interrupted sessions") << '\n';
    io.out.flush();
    return failures ? CliExit::Failed : CliExit::Ok;
}

} // namespace

CliCommand recoverCommand()
{
    return CliCommand { u"recover"_s, tr("list and restore sessions interrupted by a crash or kill"),
        QString::fromUtf8(kUsage), runRecover };
}
