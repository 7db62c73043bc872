// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/policylistsection.h"

#include "editors/policylists/policyitemeditor.h"
#include "editors/policylists/policylistmodel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QStyledItemDelegate>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

// Numbers the rows ("3. …"), the order being what matters, and puts the "changed from the preset" dot
// of the form's labels in front of changed ones.
class NumberedRowDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const bool changed = index.data(PolicyListModel::ChangedRole).toBool();
        option->text = (changed ? u"• "_s : QString()) + QString::number(index.row() + 1) + u". "_s + option->text;
    }
};

} // namespace

PolicyListSection::PolicyListSection(
    const QString& path, PolicyListModel* model, PolicyItemEditor* editor, const QString& help, QWidget* parent)
    : QWidget(parent)
    , m_path(path)
    , m_model(model)
    , m_editor(editor)
    , m_view(new QListView(this))
    , m_help(new QLabel(help, this))
{
    m_view->setModel(m_model);
    m_view->setItemDelegate(new NumberedRowDelegate(m_view));
    setFocusProxy(m_view); // the form label's buddy
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setUniformItemSizes(true);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int line = fontMetrics().height();
    m_view->setIconSize(QSize(line, line)); // the warning icon of a row with a problem
    m_help->setWordWrap(true);
    m_help->setForegroundRole(QPalette::PlaceholderText);
    m_help->setVisible(!help.isEmpty());

    m_add = makeAction(tr("Add"), tr("Add an item after the selected one"), QKeySequence(Qt::Key_Insert));
    m_duplicate = makeAction(tr("Duplicate"), tr("Copy the selected item"), QKeySequence(Qt::CTRL | Qt::Key_D));
    m_remove = makeAction(tr("Remove"), tr("Remove the selected item"), QKeySequence(Qt::Key_Delete));
    m_up = makeAction(tr("Up"), tr("Move the selected item up (tried earlier)"), QKeySequence(Qt::ALT | Qt::Key_Up));
    m_down = makeAction(tr("Down"), tr("Move the selected item down (tried later)"), QKeySequence(Qt::ALT | Qt::Key_Down));
    connect(m_add, &QAction::triggered, this, &PolicyListSection::addItem);
    connect(m_duplicate, &QAction::triggered, this, &PolicyListSection::duplicateItem);
    connect(m_remove, &QAction::triggered, this, &PolicyListSection::removeItem);
    connect(m_up, &QAction::triggered, this, [this] { moveItem(-1); });
    connect(m_down, &QAction::triggered, this, [this] { moveItem(1); });

    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(0, 0, 0, 0);
    tools->setSpacing(2);
    for (QAction* action : { m_add, m_duplicate, m_remove, m_up, m_down }) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setFocusPolicy(Qt::TabFocus);
        tools->addWidget(button);
        if (action == m_add)
            m_addButton = button;
    }
    tools->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(3);
    layout->addWidget(m_view);
    layout->addLayout(tools);
    layout->addWidget(m_help);
    layout->addWidget(m_editor);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &PolicyListSection::onCurrentChanged);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &PolicyListSection::onModelDataChanged);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PolicyListSection::onModelReset);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &PolicyListSection::fitHeight);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &PolicyListSection::fitHeight);
    connect(m_editor, &PolicyItemEditor::edited, this, &PolicyListSection::edited);
    onModelReset();
}

QAction* PolicyListSection::makeAction(const QString& text, const QString& tip, const QKeySequence& key)
{
    auto* action = new QAction(text, this);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetShortcut);
    action->setToolTip(tr("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    m_view->addAction(action); // the shortcuts work while the list has the focus
    return action;
}

int PolicyListSection::currentRow() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void PolicyListSection::setCurrentRow(int row)
{
    m_view->setCurrentIndex(row >= 0 && row < m_model->rowCount() ? m_model->index(row) : QModelIndex());
    if (currentRow() != m_editor->row()) // setCurrentIndex() is silent when the index did not move
        onCurrentChanged();
}

void PolicyListSection::addItem()
{
    if (m_addMenu) { // a kind to pick first; the Insert key opens the menu under the button
        m_addMenu->popup(m_addButton->mapToGlobal(QPoint(0, m_addButton->height())));
        return;
    }
    const int row = currentRow() < 0 ? m_model->rowCount() : currentRow() + 1;
    restructure([&] { return m_model->insertRows(row, 1); }, row);
}

void PolicyListSection::setAddChoices(const QStringList& choices, std::function<int(int, int)> insert)
{
    m_insertChoice = std::move(insert);
    delete m_addMenu;
    m_addMenu = new QMenu(this);
    for (qsizetype i = 0; i < choices.size(); ++i) {
        QAction* action = m_addMenu->addAction(choices.at(i));
        connect(action, &QAction::triggered, this, [this, i] { addChoice(int(i)); });
    }
    // The button opens the menu itself; its action (and so the Insert key) still calls addItem().
    m_addButton->setMenu(m_addMenu);
    m_addButton->setPopupMode(QToolButton::InstantPopup);
}

void PolicyListSection::addChoice(int choice)
{
    if (!m_insertChoice)
        return;
    // As restructure(), but the row to select is known only once the insertion is done.
    m_restructuring = true;
    const int select = m_insertChoice(currentRow(), choice);
    m_restructuring = false;
    if (select < 0 || select >= m_model->rowCount())
        return;
    m_view->setCurrentIndex(m_model->index(select));
    onCurrentChanged();
    emit edited();
}

void PolicyListSection::addBelowList(QWidget* widget)
{
    auto* column = static_cast<QVBoxLayout*>(layout());
    column->insertWidget(column->indexOf(m_help), widget);
}

void PolicyListSection::duplicateItem()
{
    const int row = currentRow();
    restructure([&] { return m_model->duplicateRow(row); }, row + 1);
}

void PolicyListSection::removeItem()
{
    const int row = currentRow();
    if (row >= 0)
        restructure([&] { return m_model->removeRows(row, 1); }, qMin(row, m_model->rowCount() - 2));
}

void PolicyListSection::moveItem(int delta)
{
    const int row = currentRow();
    const int target = row + delta;
    if (row < 0 || target < 0 || target >= m_model->rowCount())
        return;
    // moveRows() takes the row the item goes in front of: one further when moving down.
    restructure([&] { return m_model->moveRows({}, row, 1, {}, delta > 0 ? target + 1 : target); }, target);
}

void PolicyListSection::restructure(const std::function<bool()>& change, int select)
{
    // The view moves its current index while rows come and go; the editor follows only once it is over.
    m_restructuring = true;
    const bool changed = change();
    m_restructuring = false;
    if (!changed)
        return;
    m_view->setCurrentIndex(select >= 0 ? m_model->index(select) : QModelIndex());
    onCurrentChanged();
    emit edited();
}

void PolicyListSection::onCurrentChanged()
{
    if (m_restructuring)
        return;
    const bool hadInputProblems = !m_editor->inputProblems().isEmpty();
    const int row = currentRow();
    m_editor->loadRow(row);
    showRowProblems();
    updateActions();
    if (hadInputProblems && row >= 0) // the unreadable text was dropped: the problems change
        emit edited();
}

void PolicyListSection::reloadItem()
{
    m_editor->loadRow(currentRow());
    showRowProblems();
}

void PolicyListSection::onModelDataChanged()
{
    // Edits made by the item editor itself are already shown; a new policy (the JSON tab) is loaded.
    if (!m_editor->showsModelItem())
        m_editor->loadRow(currentRow());
    else
        m_editor->refreshMarks();
}

void PolicyListSection::onModelReset()
{
    // A new list of another length: keep the selection's position where possible.
    const int row = qMin(qMax(m_editor->row(), 0), m_model->rowCount() - 1);
    m_view->setCurrentIndex(row >= 0 ? m_model->index(row) : QModelIndex());
    onCurrentChanged();
    fitHeight();
}

void PolicyListSection::fitHeight()
{
    // Every row up to eight (then it scrolls), and room for one more: the list never looks full when it is not.
    const int rowHeight = m_model->rowCount() > 0 ? m_view->sizeHintForRow(0) : fontMetrics().height() + 4;
    const int rows = qBound(3, m_model->rowCount() + 1, 8);
    m_view->setFixedHeight(rows * rowHeight + 2 * m_view->frameWidth());
}

void PolicyListSection::updateActions()
{
    const int row = currentRow();
    const int n = m_model->rowCount();
    m_duplicate->setEnabled(row >= 0);
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < n);
}

int PolicyListSection::rowOf(const QString& path, QString* rest) const
{
    if (!path.startsWith(m_path) || path.size() <= m_path.size() || path.at(m_path.size()) != u'[')
        return -1;
    const qsizetype close = path.indexOf(u']', m_path.size());
    if (close < 0)
        return -1;
    bool ok = false;
    const int row = path.mid(m_path.size() + 1, close - m_path.size() - 1).toInt(&ok);
    if (!ok || row < 0 || row >= m_model->rowCount())
        return -1;
    if (rest)
        *rest = path.mid(close + 1).startsWith(u'.') ? path.mid(close + 2) : path.mid(close + 1);
    return row;
}

QList<PolicyProblem> PolicyListSection::placeProblems(const QList<PolicyProblem>& problems)
{
    QList<PolicyProblem> unplaced;
    QList<QStringList> perRow(m_model->rowCount());
    m_problems.clear();
    for (const PolicyProblem& p : problems) {
        QString rest;
        const int row = rowOf(p.path, &rest);
        if (row < 0) {
            unplaced << p;
            continue;
        }
        m_problems << p;
        const QString where = rest.startsWith(u"when."_s) ? rest.mid(5) : rest;
        perRow[row] << (where.isEmpty() ? p.message : where + u": "_s + p.message);
    }
    m_model->setProblems(perRow);
    showRowProblems();
    return unplaced;
}

void PolicyListSection::showRowProblems()
{
    QList<PolicyProblem> relative;
    const int current = currentRow();
    for (const PolicyProblem& p : std::as_const(m_problems)) {
        QString rest;
        if (current >= 0 && rowOf(p.path, &rest) == current)
            relative << PolicyProblem { rest, p.message };
    }
    m_editor->showProblems(relative);
}

QList<PolicyProblem> PolicyListSection::inputProblems() const
{
    QList<PolicyProblem> out;
    const QString prefix = m_path + u'[' + QString::number(m_editor->row()) + u"]."_s;
    for (const PolicyProblem& p : m_editor->inputProblems())
        out << PolicyProblem { prefix + p.path, p.message };
    return out;
}
