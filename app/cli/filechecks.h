// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Checks of the files a command is given, shared by the commands.

// Why PATH cannot be written as an output file; empty when it can. Commands check every output path
// with it before they send or read anything, so a typo in a folder name never costs a run: the folder
// must exist and be writable, and PATH itself must not be a folder or a read-only file.
QString outputPathProblem(const QString& path);

// ERROR about the input file PATH, naming the file when ERROR does not already ("s.json: line 2, …").
QString withFileName(const QString& path, const QString& error);
