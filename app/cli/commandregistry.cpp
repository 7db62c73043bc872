// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/clicommand.h"

#include <QCoreApplication>

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
               "  retrylab                 open the desktop lab (GUI)\n"
               "  retrylab COMMAND [ARGS]  run a command headless (no display needed)\n"
               "  retrylab help COMMAND    show a command's full help\n"
               "  retrylab --version       print the version\n"
               "\n"
               "Commands:\n")
               .arg(QStringLiteral(RETRYLAB_VERSION));
    for (const CliCommand& command : cliCommands())
        out << QStringLiteral("  %1%2\n").arg(command.name, -10).arg(command.summary);
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
    // Anything that does not look like a Qt/GUI option is a subcommand (possibly an unknown one).
    return !first.startsWith(QLatin1Char('-'));
}

int runCli(const QStringList& args, CliIo& io)
{
    if (args.isEmpty()) {
        printGeneralHelp(io.err);
        return CliExit::Usage;
    }
    const QString& first = args.first();
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        printGeneralHelp(io.out);
        return CliExit::Ok;
    }
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        io.out << "retrylab " << RETRYLAB_VERSION << '\n';
        return CliExit::Ok;
    }
    if (first == QLatin1String("help")) {
        if (args.size() < 2) {
            printGeneralHelp(io.out);
            return CliExit::Ok;
        }
        const CliCommand* command = findCliCommand(args.at(1));
        if (!command) {
            io.err << QCoreApplication::translate("cli", "retrylab: no such command '%1' (see retrylab --help)\n")
                          .arg(args.at(1));
            return CliExit::Usage;
        }
        io.out << command->usage;
        if (!command->usage.endsWith(QLatin1Char('\n')))
            io.out << '\n';
        return CliExit::Ok;
    }
    const CliCommand* command = findCliCommand(first);
    if (!command) {
        io.err << QCoreApplication::translate("cli", "retrylab: unknown command '%1' (see retrylab --help)\n").arg(first);
        return CliExit::Usage;
    }
    const QStringList rest = args.mid(1);
    if (rest.size() == 1 && (rest.first() == QLatin1String("--help") || rest.first() == QLatin1String("-h"))) {
        io.out << command->usage;
        if (!command->usage.endsWith(QLatin1Char('\n')))
            io.out << '\n';
        return CliExit::Ok;
    }
    return command->run(rest, io);
}
