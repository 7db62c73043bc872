// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

// The desktop lab's main window. Until the live views land it shows the policy presets and what each one
// decides, read straight from the core, so the GUI already answers "what would this SDK do?".
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};
