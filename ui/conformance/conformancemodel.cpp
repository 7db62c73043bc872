// SPDX-License-Identifier: GPL-3.0-or-later
#include "conformance/conformancemodel.h"

#include "conform/conformancereport.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

ConformanceModel::ConformanceModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ConformanceModel::setPending(const QList<SuiteCase>& cases)
{
    beginResetModel();
    m_rows.clear();
    for (const SuiteCase& c : cases)
        m_rows.append(Row { c, std::nullopt, false });
    endResetModel();
}

void ConformanceModel::setRunning(int row)
{
    if (row < 0 || row >= m_rows.size())
        return;
    m_rows[row].running = true;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ConformanceModel::setResult(int row, const CaseResult& result)
{
    if (row < 0 || row >= m_rows.size())
        return;
    m_rows[row].result = result;
    m_rows[row].running = false;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ConformanceModel::setResults(const QList<CaseResult>& results)
{
    beginResetModel();
    m_rows.clear();
    for (const CaseResult& r : results)
        m_rows.append(Row { r.suiteCase, r, false });
    endResetModel();
}

void ConformanceModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

const CaseResult* ConformanceModel::result(int row) const
{
    if (row < 0 || row >= m_rows.size() || !m_rows.at(row).result)
        return nullptr;
    return &*m_rows.at(row).result;
}

QList<CaseResult> ConformanceModel::results() const
{
    QList<CaseResult> list;
    for (const Row& r : m_rows) {
        if (r.result)
            list << *r.result;
    }
    return list;
}

int ConformanceModel::failedCount() const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Row& r) { return r.result && !r.result->conforms(); }));
}

int ConformanceModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int ConformanceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ConformanceModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    const CaseResult* r = row.result ? &*row.result : nullptr;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case CaseColumn:
            return row.suiteCase.name;
        case VerdictColumn:
            return r ? caseVerdict(*r) : row.running ? tr("running…") : tr("waiting");
        case AttemptsColumn:
            return r ? QVariant(int(r->run.record.attempts.size())) : QVariant();
        case FindingsColumn:
            return r ? QVariant(int(r->judgement.findings.size())) : QVariant();
        case FirstFindingColumn:
            if (!r)
                return row.suiteCase.description;
            if (!r->startError.isEmpty())
                return r->startError;
            return r->judgement.findings.isEmpty() ? tr("conforms") : r->judgement.findings.first().sentence();
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = row.suiteCase.description;
        if (r) {
            for (const ConformanceFinding& f : r->judgement.findings)
                tip += u'\n' + f.sentence();
        }
        return tip;
    }
    if (role == Qt::ForegroundRole && index.column() == VerdictColumn && r) {
        // The Attempts table's shades (green for a success, red for a stop), for light and dark themes.
        const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
        return r->conforms() ? QColor(dark ? 0x9ccc65 : 0x2e7d32) : QColor(dark ? 0xff8a80 : 0xc62828);
    }
    if (role == Qt::TextAlignmentRole && (index.column() == AttemptsColumn || index.column() == FindingsColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ConformanceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CaseColumn:
        return tr("Case");
    case VerdictColumn:
        return tr("Verdict");
    case AttemptsColumn:
        return tr("Attempts");
    case FindingsColumn:
        return tr("Findings");
    case FirstFindingColumn:
        return tr("What was found");
    }
    return {};
}
