// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/journal/journalregistry.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace {

QString markerFor(const QString& journalPath)
{
    const QByteArray key = QFileInfo(journalPath).absoluteFilePath().toUtf8();
    return JournalRegistry::directory() + u'/'
        + QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex()) + u".path"_s;
}

} // namespace

namespace JournalRegistry {

QString directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + u"/journals"_s;
}

void add(const QString& journalPath)
{
    QDir().mkpath(directory());
    QFile marker(markerFor(journalPath));
    if (marker.open(QIODevice::WriteOnly | QIODevice::Truncate))
        marker.write(QFileInfo(journalPath).absoluteFilePath().toUtf8());
}

void remove(const QString& journalPath)
{
    QFile::remove(markerFor(journalPath));
}

QStringList journals()
{
    QStringList out;
    const QDir dir(directory());
    const QStringList markers = dir.entryList({ u"*.path"_s }, QDir::Files, QDir::Name);
    for (const QString& name : markers) {
        QFile marker(dir.filePath(name));
        if (!marker.open(QIODevice::ReadOnly))
            continue;
        const QString path = QString::fromUtf8(marker.readAll());
        marker.close();
        if (QFileInfo::exists(path))
            out << path;
        else
            QFile::remove(dir.filePath(name));
    }
    return out;
}

QStringList journalsIn(const QString& path)
{
    QStringList out;
    const QDir dir(path);
    const QStringList names = dir.entryList({ u"*.journal"_s }, QDir::Files, QDir::Name);
    for (const QString& name : names)
        out << QFileInfo(dir.filePath(name)).absoluteFilePath();
    return out;
}

} // namespace JournalRegistry
