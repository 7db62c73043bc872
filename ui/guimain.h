// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Starts the desktop application (QApplication + main window) and returns its exit status.
int runGui(int argc, char** argv);
