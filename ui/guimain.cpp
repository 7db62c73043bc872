// SPDX-License-Identifier: GPL-3.0-or-later
#include "guimain.h"

#include "mainwindow.h"
#include "sessions/sessioncommands.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

using namespace Qt::StringLiterals;

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(u"Retrylab"_s);
    QApplication::setDesktopFileName(u"org.retrylab.Retrylab"_s);
    QApplication::setWindowIcon(QIcon(u":/retrylab/icons/org.retrylab.Retrylab.svg"_s));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "A desktop lab for HTTP API retry behaviour"));
    const QCommandLineOption autorun(u"demo-autorun"_s,
        QApplication::translate("main", "Press \"Run N×\" once at start-up (also RETRYLAB_AUTORUN=1)."));
    const QCommandLineOption screenshot(u"screenshot"_s,
        QApplication::translate("main", "After the autorun batch ends, save the window to FILE.png and quit (for docs)."),
        u"file"_s);
    const QCommandLineOption open(u"open"_s,
        QApplication::translate("main", "Open FILE at start-up: a saved session or a policy."), u"file"_s);
    parser.addOption(autorun);
    parser.addOption(screenshot);
    parser.addOption(open);
    parser.process(app);

    MainWindow window;
    window.show();
    const bool unattended = parser.isSet(autorun) || parser.isSet(screenshot) || qEnvironmentVariableIntValue("RETRYLAB_AUTORUN") == 1;
    // Sessions a crash interrupted are offered back first (nothing recorded is lost); not in unattended runs.
    if (!unattended)
        QTimer::singleShot(0, &window, [&window] { window.sessions()->recoverInterrupted(true); });
    if (parser.isSet(open))
        QTimer::singleShot(0, &window, [&window, path = parser.value(open)] { window.openFile(path); });
    if (parser.isSet(autorun) || qEnvironmentVariableIntValue("RETRYLAB_AUTORUN") == 1)
        QTimer::singleShot(0, &window, &MainWindow::runMany);
    if (parser.isSet(screenshot))
        window.saveScreenshotWhenIdle(parser.value(screenshot));
    return QApplication::exec();
}
