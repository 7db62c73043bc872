// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSettings>
#include <QStringList>

class QMainWindow;

// What the desktop app remembers between sessions (QSettings, organisation "Retrylab"): the main window's
// geometry and dock layout, recently opened or saved policy files, and the last preset picked.
class AppSettings
{
public:
    static constexpr int maxRecentFiles = 8;
    static constexpr int layoutVersion = 1; // bump when the dock layout changes incompatibly

    AppSettings();

    void saveWindow(const QMainWindow& window);
    // False when nothing was stored yet (the caller keeps its default size and layout).
    bool restoreWindow(QMainWindow& window) const;

    QStringList recentFiles() const;
    void addRecentFile(const QString& path);
    void clearRecentFiles();

    // Recently opened or saved session files (separate from policy files).
    QStringList recentSessions() const;
    void addRecentSession(const QString& path);
    void clearRecentSessions();

    QString lastPreset() const;
    void setLastPreset(const QString& name);

private:
    QStringList recent(const QString& key) const;
    void addRecent(const QString& key, const QString& path);

    mutable QSettings m_settings;
};
