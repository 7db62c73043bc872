// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Splits a command line into words as bash would before running it: blanks separate words; '…' keeps
// everything literally; "…" keeps everything but \" \\ \$ \` and a backslash-newline; $'…' reads the
// ANSI-C escapes (\n \t \r \\ \' \" \xHH \uHHHH…), as browsers' "Copy as cURL (bash)" writes bodies; a
// backslash outside quotes escapes the next character, and a backslash-newline continues the line.
// No expansion ($VAR, globs, ~) and no operators (|, ;, &&): a pasted command is data, never run.

#include <QString>
#include <QStringList>

namespace ShellWords {
struct Result
{
    QStringList words;
    QString error; // empty when the text was read (e.g. "a quote is not closed")
};
Result split(QStringView text);
}
