// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/policylistmodel.h"

#include "editors/policyfield.h"

#include <QApplication>
#include <QFont>
#include <QStyle>

using namespace Qt::StringLiterals;

PolicyListModel::PolicyListModel(QObject* parent)
    : QAbstractListModel(parent)
{
}

int PolicyListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : itemCount();
}

QVariant PolicyListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const QStringList problems = m_problems.value(row);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        // Only the item: the view numbers the rows and dots the changed ones (both depend on the position).
        return summary(row);
    case Qt::ToolTipRole: {
        QStringList lines = problems;
        if (changed(row))
            lines << tr("Changed from the preset");
        lines << details(row);
        return lines.join(u'\n');
    }
    case Qt::FontRole: {
        if (!changed(row))
            return {};
        QFont font = QApplication::font("QAbstractItemView");
        font.setBold(true);
        return font;
    }
    case Qt::ForegroundRole:
        return problems.isEmpty() ? QVariant() : QVariant(problemColour(QApplication::palette()));
    case Qt::BackgroundRole:
        return problems.isEmpty() ? QVariant() : QVariant(problemBase(QApplication::palette()));
    case Qt::DecorationRole:
        return problems.isEmpty() ? QVariant() : QVariant(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning));
    case ProblemsRole:
        return problems;
    case ChangedRole:
        return changed(row);
    default:
        return {};
    }
}

Qt::ItemFlags PolicyListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> PolicyListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(ProblemsRole, "problems");
    names.insert(ChangedRole, "changed");
    return names;
}

bool PolicyListModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || row > itemCount() || count <= 0)
        return false;
    beginInsertRows({}, row, row + count - 1);
    insertDefaults(row, count);
    m_problems.clear();
    endInsertRows();
    // Rows below the new ones are numbered and compared with the reference anew.
    allRowsChanged();
    return true;
}

bool PolicyListModel::duplicateRow(int row)
{
    if (row < 0 || row >= itemCount())
        return false;
    beginInsertRows({}, row + 1, row + 1);
    insertCopy(row);
    m_problems.clear();
    endInsertRows();
    allRowsChanged();
    return true;
}

bool PolicyListModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count <= 0 || row + count > itemCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    removeItems(row, count);
    m_problems.clear();
    endRemoveRows();
    allRowsChanged();
    return true;
}

bool PolicyListModel::moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
    const QModelIndex& destinationParent, int destinationChild)
{
    const int n = itemCount();
    if (sourceParent.isValid() || destinationParent.isValid() || count <= 0 || sourceRow < 0 || sourceRow + count > n
        || destinationChild < 0 || destinationChild > n
        || (destinationChild >= sourceRow && destinationChild <= sourceRow + count))
        return false;
    if (!beginMoveRows({}, sourceRow, sourceRow + count - 1, {}, destinationChild))
        return false;
    if (destinationChild < sourceRow) {
        for (int i = 0; i < count; ++i)
            moveItem(sourceRow + i, destinationChild + i);
    } else {
        for (int i = 0; i < count; ++i)
            moveItem(sourceRow, destinationChild - 1);
    }
    m_problems.clear();
    endMoveRows();
    allRowsChanged();
    return true;
}

void PolicyListModel::setProblems(const QList<QStringList>& perRow)
{
    QList<QStringList> trimmed = perRow.mid(0, itemCount());
    while (!trimmed.isEmpty() && trimmed.last().isEmpty())
        trimmed.removeLast();
    if (trimmed == m_problems)
        return;
    m_problems = trimmed;
    allRowsChanged();
}

void PolicyListModel::allRowsChanged()
{
    if (itemCount() > 0)
        emit dataChanged(index(0), index(itemCount() - 1));
}
