// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A "recent files" submenu: the paths a list function gives, newest first, each opening when chosen, and a
// Clear entry. The window uses one for policies and one for sessions.

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QMenu;

class RecentFilesMenu final : public QObject
{
    Q_OBJECT
public:
    struct Texts
    {
        QString empty; // shown, disabled, when the list is empty
        QString clear; // the entry that empties it
    };
    // LIST reads the paths (e.g. AppSettings().recentSessions()); CLEAR forgets them.
    RecentFilesMenu(QMenu* menu, std::function<QStringList()> list, std::function<void()> clear, Texts texts,
        QObject* parent = nullptr);

    QMenu* menu() const { return m_menu; }
    void rebuild(); // after the list changed

Q_SIGNALS:
    void chosen(const QString& path);

private:
    QMenu* m_menu;
    std::function<QStringList()> m_list;
    std::function<void()> m_clear;
    Texts m_texts;
};
