// SPDX-License-Identifier: GPL-3.0-or-later
// Composition root: a subcommand runs headless on QCoreApplication; no arguments opens the GUI.
#include "cli/clicommand.h"

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#ifdef RETRYLAB_WITH_GUI
#include "guimain.h"
#endif

#include <cstdio>

namespace {

QStringList argumentsOf(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    return args;
}

} // namespace

int main(int argc, char** argv)
{
    const QStringList args = argumentsOf(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("retrylab"));
    QCoreApplication::setOrganizationName(QStringLiteral("Retrylab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RETRYLAB_VERSION));

#ifdef RETRYLAB_WITH_GUI
    if (!isCliInvocation(args))
        return runGui(argc, argv);
#endif

    QCoreApplication app(argc, argv);
    QFile inFile;
    (void)inFile.open(stdin, QIODevice::ReadOnly);
    QTextStream out(stdout);
    QTextStream err(stderr);
    CliIo io { out, err, inFile };
#ifndef RETRYLAB_WITH_GUI
    if (!isCliInvocation(args)) {
        err << "retrylab: this build has no GUI; see retrylab --help\n";
        return CliExit::Usage;
    }
#endif
    const int status = runCli(args, io);
    out.flush();
    err.flush();
    return status;
}
