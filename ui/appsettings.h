// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSettings>
#include <QStringList>

class QMainWindow;
class QRect;

// What the desktop app remembers between sessions (QSettings, organisation "Retrylab"): the main window's
// geometry and dock layout, recently opened or saved policy files, and the last preset picked.
class AppSettings
{
public:
    static constexpr int maxRecentFiles = 8;
    static constexpr int layoutVersion = 2; // bump when the dock layout changes incompatibly (2: closable docks)

    AppSettings();

    void saveWindow(const QMainWindow& window);
    // Restores the saved geometry and dock layout when the saved geometry lies within AVAILABLE (the
    // screen's available area); false when nothing was stored or it does not fit (the screen or the scale
    // factor changed): the caller keeps its own size and layout.
    bool restoreWindow(QMainWindow& window, const QRect& available) const;

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
