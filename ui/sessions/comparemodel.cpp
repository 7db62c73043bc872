// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/comparemodel.h"

#include "policy/retrydecision.h"

#include <QFont>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

CompareModel::CompareModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_nameA(tr("A"))
    , m_nameB(tr("B"))
{
}

void CompareModel::setSideNames(const QString& a, const QString& b)
{
    m_nameA = a;
    m_nameB = b;
    emit headerDataChanged(Qt::Horizontal, SideA, SideB);
}

void CompareModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void CompareModel::setTotals(const ReplayTotals& a, const ReplayTotals& b)
{
    const auto rate = [](const ReplayTotals& t) { return t.runs ? double(t.succeeded) / t.runs : 0.0; };
    beginResetModel();
    m_rows = {
        { tr("Runs compared"), tr("Runs paired in order: the i-th run of A with the i-th run of B"), double(a.runs),
            double(b.runs), true, 0, Row::Unit::Count },
        { tr("Succeeded"), tr("Runs whose final answer was a success"), double(a.succeeded), double(b.succeeded), true, +1,
            Row::Unit::Count },
        { tr("Success rate"), tr("Succeeded runs / runs"), rate(a), rate(b), true, +1, Row::Unit::Percent },
        { tr("Attempts"), tr("Requests sent, retries included"), double(a.attempts), double(b.attempts), true, -1,
            Row::Unit::Count },
        { tr("Amplification"), tr("Attempts per run: the load the retries put on the server"), a.amplification,
            b.amplification, true, -1, Row::Unit::Ratio },
        { tr("Total time"), tr("From the first attempt's start to the last attempt's end"), double(a.totalMs),
            double(b.totalMs), true, -1, Row::Unit::Millis },
        { tr("Time waiting"), tr("Waits actually taken between attempts, all runs"), double(a.waitingMs),
            double(b.waitingMs), true, -1, Row::Unit::Millis },
        { tr("Operations applied"),
            tr("Operations the fault lab applied (more than the succeeded runs means something was applied twice)"),
            double(a.operationsApplied), double(b.operationsApplied), a.operationsApplied >= 0 && b.operationsApplied >= 0,
            0, Row::Unit::Count },
        { tr("Applied, success not seen"),
            tr("Operations the server applied beyond the runs that saw a success: the client gave up (or failed) on "
               "something that happened — a charge a user may send again"),
            double(a.operationsApplied - a.succeeded), double(b.operationsApplied - b.succeeded),
            a.operationsApplied >= 0 && b.operationsApplied >= 0, -1, Row::Unit::Count },
    };
    endResetModel();
}

bool CompareModel::meaningful(const Row& r)
{
    const double delta = std::abs(r.b - r.a);
    const double scale = std::max(std::abs(r.a), std::abs(r.b));
    switch (r.unit) {
    case Row::Unit::Count:
        return delta >= 1 && delta >= scale * 0.01;
    case Row::Unit::Percent:
        return delta >= 0.005; // half a point
    case Row::Unit::Ratio:
        return delta >= 0.01 && delta >= scale * 0.01;
    case Row::Unit::Millis:
        return delta >= kMinMillis && delta >= scale * kMinShare; // +3 ms of 745 ms is noise
    }
    return false;
}

int CompareModel::direction(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return 0;
    const Row& r = m_rows.at(row);
    if (!r.known || r.better == 0 || !meaningful(r))
        return 0;
    return (r.b > r.a) == (r.better > 0) ? +1 : -1;
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CompareModel::format(const Row& row, double value) const
{
    if (!row.known || value < 0)
        return tr("unknown");
    switch (row.unit) {
    case Row::Unit::Count:
        return QString::number(qint64(std::llround(value)));
    case Row::Unit::Percent:
        return tr("%1 %").arg(value * 100, 0, 'f', 1);
    case Row::Unit::Ratio:
        return tr("%1×").arg(value, 0, 'f', 2);
    case Row::Unit::Millis:
        return formatMillis(Millis(qint64(std::llround(value))));
    }
    return {};
}

QString CompareModel::changeText(const Row& row) const
{
    if (!row.known)
        return {};
    const double delta = row.b - row.a;
    if (delta == 0)
        return tr("same");
    const QString sign = delta > 0 ? u"+"_s : u"−"_s;
    QString text;
    switch (row.unit) {
    case Row::Unit::Percent:
        text = tr("%1%2 points").arg(sign).arg(std::abs(delta) * 100, 0, 'f', 1);
        break;
    case Row::Unit::Ratio:
        text = sign + QString::number(std::abs(delta), 'f', 2);
        break;
    case Row::Unit::Millis:
        text = sign + formatMillis(Millis(qint64(std::llround(std::abs(delta)))));
        break;
    case Row::Unit::Count:
        text = sign + QString::number(qint64(std::llround(std::abs(delta))));
        break;
    }
    if (row.unit != Row::Unit::Percent && row.a > 0) {
        const double share = std::abs(delta) / row.a * 100;
        text += tr(" (%1%2 %)").arg(sign).arg(share, 0, 'f', share < 9.95 ? 1 : 0);
    }
    return text;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Measure:
            return row.measure;
        case SideA:
            return format(row, row.a);
        case SideB:
            return format(row, row.b);
        case Change:
            return changeText(row);
        }
        break;
    case Qt::ToolTipRole:
        return row.tip;
    case Qt::FontRole:
        if (direction(index.row()) != 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == Measure ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case directionRole:
        return direction(index.row());
    default:
        break;
    }
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Change)
        return tr("B compared with A: better in green, worse in red, the same when the difference is noise");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Measure:
        return tr("Measure");
    case SideA:
        return m_nameA;
    case SideB:
        return m_nameB;
    case Change:
        return tr("Change");
    }
    return {};
}
