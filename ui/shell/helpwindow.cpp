// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/helpwindow.h"

#include <QAction>
#include <QDesktopServices>
#include <QFile>
#include <QHBoxLayout>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QUrl>

using namespace Qt::StringLiterals;

QList<HelpWindow::Page> HelpWindow::pages()
{
    return { { tr("User guide"), u":/retrylab/docs/user-guide.md"_s },
        { tr("Policy format"), u":/retrylab/docs/policy-format.md"_s },
        { tr("Scenario format"), u":/retrylab/docs/scenario-format.md"_s },
        { tr("Session format"), u":/retrylab/docs/session-format.md"_s },
        { tr("Exports"), u":/retrylab/docs/exports.md"_s },
        { tr("retrylab inspect"), u":/retrylab/docs/inspect.md"_s },
        { tr("Herd simulator"), u":/retrylab/docs/herd.md"_s },
        { tr("Policy as code"), u":/retrylab/docs/code-export.md"_s },
        { tr("Fleet on Locust"), u":/retrylab/docs/fleet.md"_s },
        { tr("Observing as a proxy"), u":/retrylab/docs/proxy.md"_s },
        { tr("Keyboard shortcuts"), QString() } };
}

QString HelpWindow::shortcutsMarkdown(const QList<QAction*>& actions)
{
    QString md = tr("# Keyboard shortcuts\n\n| Keys | Does |\n|---|---|\n");
    QStringList seen;
    for (const QAction* a : actions) {
        if (a->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        const QString row = u"| %1 | %2 |\n"_s.arg(keys.join(u", "_s), a->text().remove(u'&').remove(u'…'));
        if (!seen.contains(row))
            seen << row;
    }
    md += seen.join(QString());
    md += tr("\n## In the timeline\n\n| Gesture | Does |\n|---|---|\n"
             "| Wheel | zoom the time axis |\n| Shift+wheel | scroll the runs |\n| Drag | pan |\n"
             "| Double-click, Ctrl+0 | fit the whole session |\n| Click an attempt | select it in the Attempts table |\n"
             "\nSpin boxes and lists in the forms change with the wheel only once you have clicked into them.\n");
    return md;
}

HelpWindow::HelpWindow(QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_list(new QListWidget(this))
    , m_browser(new QTextBrowser(this))
{
    setWindowTitle(tr("Retrylab Help"));
    setObjectName(u"HelpWindow"_s);
    for (const Page& p : pages())
        m_list->addItem(p.title);
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &HelpWindow::openLink);
    connect(m_list, &QListWidget::currentRowChanged, this, &HelpWindow::showPage);
    auto* split = new QSplitter(this);
    split->addWidget(m_list);
    split->addWidget(m_browser);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    split->setSizes({ fontMetrics().horizontalAdvance(u'M') * 12, fontMetrics().horizontalAdvance(u'M') * 60 });
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    const int em = fontMetrics().horizontalAdvance(u'M');
    resize(72 * em, 40 * fontMetrics().height());
}

void HelpWindow::setActions(const QList<QAction*>& actions)
{
    m_actions = actions;
}

int HelpWindow::currentPage() const
{
    return m_list->currentRow();
}

void HelpWindow::showPage(int index)
{
    const QList<Page> all = pages();
    if (index < 0 || index >= all.size())
        return;
    if (m_list->currentRow() != index) {
        m_list->setCurrentRow(index); // re-enters through currentRowChanged
        return;
    }
    const Page& page = all.at(index);
    if (page.resource.isEmpty()) {
        m_browser->setMarkdown(shortcutsMarkdown(m_actions));
        return;
    }
    QFile file(page.resource);
    if (!file.open(QIODevice::ReadOnly)) {
        m_browser->setPlainText(tr("%1 is missing from this build.").arg(page.resource));
        return;
    }
    m_browser->setMarkdown(QString::fromUtf8(file.readAll()));
}

void HelpWindow::openLink(const QUrl& url)
{
    if (url.scheme() == u"http"_s || url.scheme() == u"https"_s) {
        QDesktopServices::openUrl(url);
        return;
    }
    // A link to another document ("policy-format.md", "../docs/exports.md#csv"): its page, if shipped.
    const QString name = url.path().section(u'/', -1);
    const QList<Page> all = pages();
    for (int i = 0; i < all.size(); ++i) {
        if (!all.at(i).resource.isEmpty() && all.at(i).resource.endsWith(u'/' + name)) {
            showPage(i);
            return;
        }
    }
}
