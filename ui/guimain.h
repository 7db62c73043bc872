// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class Clock;
class Scheduler;

// What the command line asked the window for; app/main.cpp reads it before any GUI object exists.
struct GuiStartOptions
{
    QString openPath; // a saved session or a policy, opened at start-up
    QString screenshotPath; // after the autorun batch, save the window's PNGs in this folder and quit
    bool autorun = false; // press "Run N×" once at start-up (RETRYLAB_AUTORUN=1 does too)
};

// Shows the main window on the QApplication main() constructed and returns its exit status. CLOCK and
// SCHEDULER are the program's real pair (app/main.cpp builds them; nothing else does).
int runGui(const GuiStartOptions& options, const Clock& clock, Scheduler& scheduler);
