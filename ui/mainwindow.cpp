// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include <QLabel>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Retrylab"));
    auto* label = new QLabel(tr("Retrylab"), this);
    label->setAlignment(Qt::AlignCenter);
    setCentralWidget(label);
    resize(1100, 720);
}
