// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

// What `retrylab [OPTIONS] [FILE]` asks the desktop window for. It is read before any GUI object exists,
// so a typo is a one-line error and exit 2 with or without a display, and so a missing display is told
// in words instead of Qt's abort. Qt's own options (-platform, -style, -reverse, …) are recognised and
// left in argv for QApplication.
struct GuiArguments
{
    QString openPath; // --open FILE, or FILE alone (a file manager's "Open with")
    QString screenshotPath; // --screenshot DIR: PNGs of the window and its views
    bool autorun = false; // --demo-autorun
    bool platformGiven = false; // -platform or -display among Qt's options
    bool helpAsked = false; // --help or -h among them: print the help instead

    // Reads ARGS (without the program name); nullopt with *error set when an argument is not understood.
    static std::optional<GuiArguments> parse(const QStringList& args, QString* error);
    // Why no window can be shown (no platform named and no display to connect to); empty when one may be.
    QString displayProblem() const;
    // Why a file named by the options cannot be used; empty when every one can.
    QString fileProblem() const;
    // The options, for `retrylab --help`.
    static QString helpText();
};
