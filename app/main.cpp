// SPDX-License-Identifier: GPL-3.0-or-later
// Composition root: a subcommand runs headless on QCoreApplication; otherwise the window opens. Every
// argument is read before any GUI object exists, so bad input is a one-line error and exit 2 with or
// without a display, never Qt's abort.
#include "cli/clicommand.h"
#include "cli/guiarguments.h"

#include "engine/clock.h"
#include "engine/timerscheduler.h"

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

#ifdef RETRYLAB_WITH_GUI
#include "guimain.h"

#include <QApplication>
#endif

#include <cstdio>
#include <cstdlib>

namespace {

QStringList argumentsOf(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    return args;
}

int usageError(const QString& message)
{
    std::fprintf(stderr, "retrylab: %s\n", message.toLocal8Bit().constData());
    return CliExit::Usage;
}

#ifdef RETRYLAB_WITH_GUI

// While QApplication connects to the display, Qt's platform messages are held back: when the platform
// plugin cannot start (no X server at DISPLAY, a plugin missing), QGuiApplication ends with qFatal and
// abort(); this handler says so in one line and exits 2 instead. When it starts, they are passed on.
struct HeldMessage
{
    QtMsgType type;
    QByteArray category;
    QString text;
};
QtMessageHandler g_previousHandler = nullptr;
QList<HeldMessage> g_heldMessages;

void platformStartHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtFatalMsg) {
        QString reason = message.section(u'\n', 0, 0).trimmed();
        for (const HeldMessage& held : std::as_const(g_heldMessages)) {
            if (held.type != QtDebugMsg && held.type != QtInfoMsg) {
                reason = held.text.section(u'\n', 0, 0).trimmed(); // "could not connect to display :99"
                break;
            }
        }
        std::fprintf(stderr,
            "retrylab: cannot open the window (Qt: %s): set DISPLAY to a running display, run it with "
            "QT_QPA_PLATFORM=offscreen for a window without a screen, or use a headless command (retrylab --help)\n",
            reason.toLocal8Bit().constData());
        std::fflush(stderr);
        std::_Exit(CliExit::Usage);
    }
    if (context.category && qstrncmp(context.category, "qt.qpa", 6) == 0) {
        g_heldMessages.append({ type, QByteArray(context.category), message });
        return;
    }
    g_previousHandler(type, context, message);
}

int runWindow(int argc, char** argv, const QStringList& args)
{
    QString error;
    const std::optional<GuiArguments> gui = GuiArguments::parse(args, &error);
    if (!gui)
        return usageError(error + QCoreApplication::translate("cli", " (see retrylab --help)"));
    if (gui->helpAsked) {
        QTextStream out(stdout);
        QFile noInput;
        ElapsedClock clock;
        TimerScheduler scheduler(clock);
        CliIo io { out, out, noInput, clock, scheduler };
        return runCli({ QStringLiteral("--help") }, io);
    }
    if (const QString problem = gui->displayProblem(); !problem.isEmpty())
        return usageError(problem);
    if (const QString problem = gui->fileProblem(); !problem.isEmpty())
        return usageError(problem);

    g_previousHandler = qInstallMessageHandler(platformStartHandler);
    QApplication app(argc, argv);
    qInstallMessageHandler(g_previousHandler);
    for (const HeldMessage& held : std::as_const(g_heldMessages))
        g_previousHandler(held.type, QMessageLogContext(nullptr, 0, nullptr, held.category.constData()), held.text);
    g_heldMessages.clear();
    // The program's one real clock and scheduler (the command line's are made in main()).
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    return runGui(GuiStartOptions { gui->openPath, gui->screenshotPath, gui->autorun }, clock, scheduler);
}

#endif

} // namespace

int main(int argc, char** argv)
{
    const QStringList args = argumentsOf(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("retrylab"));
    QCoreApplication::setOrganizationName(QStringLiteral("Retrylab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RETRYLAB_VERSION));

    if (!isCliInvocation(args)) {
#ifdef RETRYLAB_WITH_GUI
        return runWindow(argc, argv, args);
#else
        return usageError(QCoreApplication::translate("cli", "this build has no window; see retrylab --help"));
#endif
    }

    // Headless commands run on Qt's own poll() event dispatcher, not GLib's: GLib signals its wakeup fd each
    // time a socket notifier is switched on or off, which Qt does around every buffered write, so a proxied
    // exchange cost six extra system calls; bench_proxy measured 40-44 us of lab CPU per exchange instead of
    // 48-49. Only this process: the variable is gone again before `observe` starts the user's command.
    const bool setByUser = qEnvironmentVariableIsSet("QT_NO_GLIB");
    if (!setByUser)
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    if (!setByUser)
        qunsetenv("QT_NO_GLIB");
    // The program's one real clock and scheduler: everything that runs requests gets them from here.
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    QFile inFile;
    (void)inFile.open(stdin, QIODevice::ReadOnly);
    QTextStream out(stdout);
    QTextStream err(stderr);
    CliIo io { out, err, inFile, clock, scheduler };
    const int status = runCli(args, io);
    out.flush();
    err.flush();
    return status;
}
