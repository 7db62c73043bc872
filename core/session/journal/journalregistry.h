// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the app remembers the journals of sessions being recorded, so the next start (GUI or CLI) can
// find interrupted ones wherever they were written: one small marker file per journal under
// <AppLocalDataLocation>/journals/ (no shared file to lock between processes).

#include <QString>
#include <QStringList>

namespace JournalRegistry {
QString directory();
void add(const QString& journalPath);
void remove(const QString& journalPath);
// Every registered journal that still exists on disk (stale markers are dropped).
QStringList journals();
// Journals found in DIR (files ending in ".journal").
QStringList journalsIn(const QString& dir);
}
