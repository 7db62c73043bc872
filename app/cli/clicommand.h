// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cliio.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

// A headless subcommand: `retrylab NAME args…`. `run` receives the arguments after NAME.
struct CliCommand
{
    QString name;
    QString summary; // one line, shown by `retrylab --help`
    QString usage; // full help text, shown by `retrylab help NAME`
    std::function<int(const QStringList& args, CliIo& io)> run;
};

// Every subcommand, in the order `--help` lists them. Defined in commandregistry.cpp.
const QList<CliCommand>& cliCommands();
const CliCommand* findCliCommand(const QString& name);

// Runs `retrylab ARGS…` (ARGS without the program name) headlessly; returns the exit status.
int runCli(const QStringList& args, CliIo& io);

// True when ARGS name a headless action (a subcommand, help or version) rather than the GUI.
bool isCliInvocation(const QStringList& args);

// The individual commands (one file each).
CliCommand policyCommand();
CliCommand inspectCommand();
CliCommand serveCommand();
CliCommand runCommand();
CliCommand exportCommand();
CliCommand recoverCommand();
CliCommand replayCommand();
CliCommand importCommand();
CliCommand observeCommand();
CliCommand conformCommand();
CliCommand herdCommand();
CliCommand caCommand();
CliCommand fleetCommand();
