// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/filechecks.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("cli", text); }

} // namespace

QString outputPathProblem(const QString& path)
{
    if (path.isEmpty())
        return tr("an output file name is empty");
    const QFileInfo file(path);
    if (file.isDir())
        return tr("cannot write \"%1\": it is a folder").arg(path);
    const QFileInfo folder(file.absolutePath());
    if (!folder.exists())
        return tr("cannot write \"%1\": the folder \"%2\" does not exist").arg(path, QDir::toNativeSeparators(folder.filePath()));
    if (!folder.isDir())
        return tr("cannot write \"%1\": \"%2\" is not a folder").arg(path, QDir::toNativeSeparators(folder.filePath()));
    if (file.exists() && !file.isWritable())
        return tr("cannot write \"%1\": the file is read-only").arg(path);
    if (!file.exists() && !folder.isWritable())
        return tr("cannot write \"%1\": the folder \"%2\" is not writable").arg(path, QDir::toNativeSeparators(folder.filePath()));
    return {};
}

QString withFileName(const QString& path, const QString& error)
{
    return error.contains(path) ? error : path + QLatin1String(": ") + error;
}
