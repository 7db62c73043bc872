// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/guiarguments.h"

#include <QCoreApplication>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("cli", text); }

// Options QGuiApplication and QApplication read themselves (Qt 6.4, QGuiApplication and QApplication
// class documentation), with a value or without. Qt accepts them with one dash or two.
const QStringList kQtOptionsWithValue { u"platform"_s, u"platformpluginpath"_s, u"platformtheme"_s, u"plugin"_s,
    u"qmljsdebugger"_s, u"qwindowgeometry"_s, u"qwindowicon"_s, u"qwindowtitle"_s, u"session"_s, u"display"_s,
    u"geometry"_s, u"style"_s, u"stylesheet"_s };
const QStringList kQtFlags { u"reverse"_s, u"widgetcount"_s, u"nograb"_s, u"dograb"_s, u"sync"_s };

} // namespace

std::optional<GuiArguments> GuiArguments::parse(const QStringList& args, QString* error)
{
    GuiArguments result;
    const auto fail = [error](const QString& message) {
        *error = message;
        return std::optional<GuiArguments>();
    };
    QStringList files;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args.at(i);
        if (!arg.startsWith(u'-') || arg == u"-"_s) {
            files << arg;
            continue;
        }
        if (arg == u"--help"_s || arg == u"-h"_s) {
            result.helpAsked = true;
            continue;
        }
        const QString bare = arg.startsWith(u"--"_s) ? arg.mid(2) : arg.mid(1);
        if (kQtFlags.contains(bare))
            continue;
        if (kQtOptionsWithValue.contains(bare)) {
            if (++i >= args.size())
                return fail(tr("%1 needs a value").arg(arg));
            result.platformGiven = result.platformGiven || bare == u"platform"_s || bare == u"display"_s;
            continue;
        }
        if (!arg.startsWith(u"--"_s))
            return fail(tr("unknown option %1").arg(arg));
        QString name = bare;
        std::optional<QString> value;
        if (const qsizetype eq = name.indexOf(u'='); eq >= 0) {
            value = name.mid(eq + 1);
            name.truncate(eq);
        }
        if (name == u"demo-autorun"_s) {
            if (value)
                return fail(tr("--demo-autorun takes no value"));
            result.autorun = true;
            continue;
        }
        if (name != u"open"_s && name != u"screenshot"_s)
            return fail(tr("unknown option --%1").arg(name));
        if (!value) {
            if (i + 1 >= args.size())
                return fail(name == u"open"_s ? tr("--open needs a file") : tr("--screenshot needs a folder"));
            value = args.at(++i);
        }
        QString& target = name == u"open"_s ? result.openPath : result.screenshotPath;
        if (!target.isEmpty())
            return fail(tr("--%1 given more than once").arg(name));
        if (value->isEmpty())
            return fail(name == u"open"_s ? tr("--open needs a file") : tr("--screenshot needs a folder"));
        target = *value;
    }
    if (files.size() + (result.openPath.isEmpty() ? 0 : 1) > 1)
        return fail(tr("one file at a time: %1").arg((result.openPath.isEmpty() ? files : QStringList { result.openPath } + files)
                                                          .join(u", "_s)));
    if (!files.isEmpty())
        result.openPath = files.first();
    return result;
}

QString GuiArguments::displayProblem() const
{
    if (platformGiven || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        return {};
    return tr("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): run it with "
              "QT_QPA_PLATFORM=offscreen for a window without a screen, or use a headless command (retrylab --help)");
}

QString GuiArguments::fileProblem() const
{
    if (!openPath.isEmpty()) {
        const QFileInfo file(openPath);
        if (!file.exists())
            return tr("cannot open \"%1\": no such file").arg(openPath);
        if (!file.isFile())
            return tr("cannot open \"%1\": not a file").arg(openPath);
        if (!file.isReadable())
            return tr("cannot open \"%1\": not readable").arg(openPath);
    }
    if (!screenshotPath.isEmpty()) {
        // The folder is created (with its parents); the nearest one that exists must be writable.
        QFileInfo folder(screenshotPath);
        if (folder.exists() && !folder.isDir())
            return tr("--screenshot \"%1\": not a folder").arg(screenshotPath);
        while (!folder.exists())
            folder = QFileInfo(folder.absolutePath());
        if (!folder.isDir() || !folder.isWritable())
            return tr("--screenshot \"%1\": cannot create it in \"%2\"").arg(screenshotPath, folder.absoluteFilePath());
    }
    return {};
}

QString GuiArguments::helpText()
{
    return tr("Window options:\n"
              "  --open FILE              open a saved session or a policy (also: retrylab FILE)\n"
              "  --demo-autorun           press \"Run N×\" once at start-up (also RETRYLAB_AUTORUN=1)\n"
              "  --screenshot DIR         after the autorun batch, save the window and its views as PNG files\n"
              "                           in DIR (created) and quit\n"
              "  Qt's options (-platform NAME, -style NAME, -reverse, …) are passed to Qt. Without a display,\n"
              "  QT_QPA_PLATFORM=offscreen runs the window with no screen.\n");
}
