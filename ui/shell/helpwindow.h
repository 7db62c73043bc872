// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Help ▸ User Guide, Format References and Keyboard Shortcuts in one window: the documents shipped in
// resources/docs (compiled in, so the help is the installed version's), and the shortcut list built from
// the window's own actions, so it cannot drift from them.

#include <QList>
#include <QString>
#include <QWidget>

class QAction;
class QListWidget;
class QTextBrowser;

class HelpWindow final : public QWidget
{
    Q_OBJECT
public:
    struct Page
    {
        QString title;
        QString resource; // ":/retrylab/docs/user-guide.md"; empty for the shortcuts page
    };
    static QList<Page> pages(); // the user guide first, then the format references, then the shortcuts
    static QString shortcutsMarkdown(const QList<QAction*>& actions);

    explicit HelpWindow(QWidget* parent = nullptr);

    void setActions(const QList<QAction*>& actions); // what the shortcuts page lists
    void showPage(int index);
    void showUserGuide() { showPage(0); }
    void showShortcuts() { showPage(int(pages().size()) - 1); }
    int currentPage() const;
    QTextBrowser* browser() const { return m_browser; }

private:
    void openLink(const QUrl& url);

    QListWidget* m_list;
    QTextBrowser* m_browser;
    QList<QAction*> m_actions;
};
