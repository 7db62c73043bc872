// SPDX-License-Identifier: GPL-3.0-or-later
#include "guimain.h"

#include "mainwindow.h"
#include "sessions/recoveryprompt.h"

#include <QApplication>
#include <QTimer>

using namespace Qt::StringLiterals;

int runGui(const GuiStartOptions& options, const Clock& clock, Scheduler& scheduler)
{
    QApplication::setApplicationDisplayName(u"Retrylab"_s);
    QApplication::setDesktopFileName(u"org.retrylab.Retrylab"_s);
    QApplication::setWindowIcon(QIcon(u":/retrylab/icons/org.retrylab.Retrylab.svg"_s));

    MainWindow window(clock, scheduler);
    window.show();
    const bool autorun = options.autorun || qEnvironmentVariableIntValue("RETRYLAB_AUTORUN") == 1;
    const bool unattended = autorun || !options.screenshotPath.isEmpty();
    // Sessions a crash interrupted are offered back first (nothing recorded is lost); not in unattended runs.
    if (!unattended)
        QTimer::singleShot(0, &window, [&window] { window.recovery()->recoverInterrupted(true); });
    if (!options.openPath.isEmpty())
        QTimer::singleShot(0, &window, [&window, path = options.openPath] { window.openFile(path); });
    if (autorun)
        QTimer::singleShot(0, &window, &MainWindow::runMany);
    if (!options.screenshotPath.isEmpty())
        window.saveScreenshotWhenIdle(options.screenshotPath);
    return QApplication::exec();
}
