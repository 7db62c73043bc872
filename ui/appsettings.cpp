// SPDX-License-Identifier: GPL-3.0-or-later
#include "appsettings.h"

#include "shell/windowfit.h"

#include <QFileInfo>
#include <QMainWindow>

using namespace Qt::StringLiterals;

AppSettings::AppSettings()
    : m_settings(u"Retrylab"_s, u"retrylab"_s)
{
}

void AppSettings::saveWindow(const QMainWindow& window)
{
    m_settings.setValue(u"window/geometry"_s, window.saveGeometry());
    m_settings.setValue(u"window/state"_s, window.saveState(layoutVersion));
}

bool AppSettings::restoreWindow(QMainWindow& window, const QRect& available) const
{
    const QByteArray geometry = m_settings.value(u"window/geometry"_s).toByteArray();
    if (geometry.isEmpty())
        return false;
    const QRect before = window.geometry();
    if (!window.restoreGeometry(geometry)) {
        window.setGeometry(before);
        return false;
    }
    // restoreGeometry() may shift the window to show its title bar; a size that fits is kept, moved inside.
    const std::optional<QRect> placed = WindowFit::placed(window.geometry(), available);
    if (!placed) {
        window.setWindowState(Qt::WindowNoState);
        window.setGeometry(before);
        return false;
    }
    if (*placed != window.geometry())
        window.setGeometry(*placed);
    window.restoreState(m_settings.value(u"window/state"_s).toByteArray(), layoutVersion);
    return true;
}

QStringList AppSettings::recent(const QString& key) const
{
    return m_settings.value(key).toStringList();
}

void AppSettings::addRecent(const QString& key, const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recent(key);
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    m_settings.setValue(key, files);
}

QStringList AppSettings::recentFiles() const
{
    return recent(u"recent/files"_s);
}

void AppSettings::addRecentFile(const QString& path)
{
    addRecent(u"recent/files"_s, path);
}

void AppSettings::clearRecentFiles()
{
    m_settings.remove(u"recent/files"_s);
}

QStringList AppSettings::recentSessions() const
{
    return recent(u"recent/sessions"_s);
}

void AppSettings::addRecentSession(const QString& path)
{
    addRecent(u"recent/sessions"_s, path);
}

void AppSettings::clearRecentSessions()
{
    m_settings.remove(u"recent/sessions"_s);
}

QString AppSettings::lastPreset() const
{
    return m_settings.value(u"policy/lastPreset"_s).toString();
}

void AppSettings::setLastPreset(const QString& name)
{
    m_settings.setValue(u"policy/lastPreset"_s, name);
}
