// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/recentfilesmenu.h"

#include <QMenu>

RecentFilesMenu::RecentFilesMenu(QMenu* menu, std::function<QStringList()> list, std::function<void()> clear,
    Texts texts, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
    , m_list(std::move(list))
    , m_clear(std::move(clear))
    , m_texts(std::move(texts))
{
    rebuild();
}

void RecentFilesMenu::rebuild()
{
    m_menu->clear();
    const QStringList files = m_list();
    for (const QString& path : files)
        connect(m_menu->addAction(path), &QAction::triggered, this, [this, path] { Q_EMIT chosen(path); });
    if (files.isEmpty()) {
        m_menu->addAction(m_texts.empty)->setEnabled(false);
        return;
    }
    m_menu->addSeparator();
    m_menu->addAction(m_texts.clear, this, [this] {
        m_clear();
        rebuild();
    });
}
