// SPDX-License-Identifier: GPL-3.0-or-later
#include "previews/decisiontablemodel.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QPalette>

using namespace Qt::StringLiterals;

DecisionTableModel::DecisionTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DecisionTableModel::setTable(const DecisionTable& table)
{
    beginResetModel();
    m_table = table;
    endResetModel();
}

int DecisionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.outcomes.size());
}

int DecisionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.methods.size());
}

QString DecisionTableModel::cellText(const DecisionCell& cell)
{
    if (cell.verdict == Verdict::Stop && cell.finalKind != FinalKind::None)
        return tr("stop");
    return verdictName(cell.verdict);
}

QVariant DecisionTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QList<DecisionCell>& row = m_table.cells.value(index.row());
    if (index.column() >= row.size())
        return {};
    const DecisionCell& cell = row.at(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return cellText(cell);
    case Qt::ToolTipRole:
        return u"%1 × %2: %3"_s.arg(m_table.outcomes.at(index.row()), m_table.methods.at(index.column()), cell.reason);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignCenter);
    case Qt::BackgroundRole: {
        // A light tint of the palette's base towards green (retry) or red (stop), so dark themes work too.
        const QPalette palette = QGuiApplication::palette();
        const QColor base = palette.color(QPalette::Base);
        const bool dark = base.lightness() < 128;
        QColor tint;
        if (cell.verdict == Verdict::Retry)
            tint = dark ? QColor(0x2e, 0x7d, 0x32) : QColor(0xa5, 0xd6, 0xa7);
        else if (cell.verdict == Verdict::Stop)
            tint = dark ? QColor(0x8e, 0x24, 0x24) : QColor(0xef, 0x9a, 0x9a);
        else
            return {};
        const float t = dark ? 0.45f : 0.55f;
        return QBrush(QColor::fromRgbF(base.redF() * (1 - t) + tint.redF() * t, base.greenF() * (1 - t) + tint.greenF() * t,
            base.blueF() * (1 - t) + tint.blueF() * t));
    }
    default:
        return {};
    }
}

QVariant DecisionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal)
        return m_table.methods.value(section);
    return m_table.outcomes.value(section);
}
