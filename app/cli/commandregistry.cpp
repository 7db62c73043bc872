// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/clicommand.h"

#include "cli/guiarguments.h"

#include <QCoreApplication>
#include <QFileInfo>

const QList<CliCommand>& cliCommands()
{
    static const QList<CliCommand> commands = [] {
        QList<CliCommand> list;
        list << policyCommand();
        list << inspectCommand();
        list << serveCommand();
        list << runCommand();
        list << exportCommand();
        list << recoverCommand();
        list << replayCommand();
        list << observeCommand();
        list << importCommand();
        list << conformCommand();
        list << herdCommand();
        list << caCommand();
        list << fleetCommand();
        return list;
    }();
    return commands;
}

const CliCommand* findCliCommand(const QString& name)
{
    for (const CliCommand& command : cliCommands()) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

namespace {

void printGeneralHelp(QTextStream& out)
{
    out << QCoreApplication::translate("cli",
               "Retrylab %1 — see, not guess, what an HTTP client does when an API fails.\n"
               "\n"
               "Usage:\n"
               "  retrylab [FILE]          open the desktop lab (GUI), with a saved session or policy\n"
               "  retrylab COMMAND [ARGS]  run a command headless (no display needed)\n"
               "  retrylab help COMMAND    show a command's full help\n"
               "  retrylab --version       print the version\n"
               "\n"
               "Commands:\n")
               .arg(QStringLiteral(RETRYLAB_VERSION));
    for (const CliCommand& command : cliCommands())
        out << QStringLiteral("  %1%2\n").arg(command.name, -10).arg(command.summary);
    out << '\n' << GuiArguments::helpText();
    out << QCoreApplication::translate("cli",
        "\nExit status: 0 success, 1 the command ran and something failed, 2 bad arguments or input.\n");
}

} // namespace

bool isCliInvocation(const QStringList& args)
{
    if (args.isEmpty())
        return false;
    const QString& first = args.first();
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("--version")
        || first == QLatin1String("-v") || first == QLatin1String("help"))
        return true;
    if (first.startsWith(QLatin1Char('-')))
        return false; // a window option, or Qt's
    // A word is a command (possibly a mistyped one), unless it names a file to open in the window
    // (`retrylab session.json`, as a file manager's "Open with" runs it).
    return findCliCommand(first) || !QFileInfo(first).isFile();
}

namespace {

int refuseExtra(CliIo& io, const QString& what, const QStringList& extra)
{
    io.err << QCoreApplication::translate("cli", "retrylab: %1 takes no further arguments, not \"%2\"\n")
                  .arg(what, extra.join(u' '));
    return CliExit::Usage;
}

void printUsage(const CliCommand& command, QTextStream& out)
{
    out << command.usage;
    if (!command.usage.endsWith(QLatin1Char('\n')))
        out << '\n';
}

// "--help" or "-h" anywhere before "--" asks for the command's help (`retrylab policy show --help`).
bool asksForHelp(const QStringList& args)
{
    for (const QString& arg : args) {
        if (arg == QLatin1String("--"))
            return false;
        if (arg == QLatin1String("--help") || arg == QLatin1String("-h"))
            return true;
    }
    return false;
}

} // namespace

int runCli(const QStringList& args, CliIo& io)
{
    if (args.isEmpty()) {
        printGeneralHelp(io.err);
        return CliExit::Usage;
    }
    const QString& first = args.first();
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        if (args.size() > 1)
            return refuseExtra(io, first, args.mid(1));
        printGeneralHelp(io.out);
        return CliExit::Ok;
    }
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        if (args.size() > 1)
            return refuseExtra(io, first, args.mid(1));
        io.out << "retrylab " << RETRYLAB_VERSION << '\n';
        return CliExit::Ok;
    }
    if (first == QLatin1String("help")) {
        if (args.size() < 2) {
            printGeneralHelp(io.out);
            return CliExit::Ok;
        }
        if (args.size() > 2)
            return refuseExtra(io, QStringLiteral("help ") + args.at(1), args.mid(2));
        const CliCommand* command = findCliCommand(args.at(1));
        if (!command) {
            io.err << QCoreApplication::translate("cli", "retrylab: no such command '%1' (see retrylab --help)\n")
                          .arg(args.at(1));
            return CliExit::Usage;
        }
        printUsage(*command, io.out);
        return CliExit::Ok;
    }
    const CliCommand* command = findCliCommand(first);
    if (!command) {
        io.err << QCoreApplication::translate("cli", "retrylab: unknown command '%1' (see retrylab --help)\n").arg(first);
        return CliExit::Usage;
    }
    const QStringList rest = args.mid(1);
    if (asksForHelp(rest)) {
        printUsage(*command, io.out);
        return CliExit::Ok;
    }
    return command->run(rest, io);
}
