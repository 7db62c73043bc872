// SPDX-License-Identifier: GPL-3.0-or-later
#include "guimain.h"

#include "mainwindow.h"

#include <QApplication>

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("Retrylab"));
    QApplication::setDesktopFileName(QStringLiteral("org.retrylab.Retrylab"));
    MainWindow window;
    window.show();
    return QApplication::exec();
}
