// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/herdtotalsmodel.h"

#include "herd/charts/herdpolicycolor.h"

#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

// Means over runs: a whole number when every run agreed, else one decimal.
QString count(double value)
{
    const QLocale locale;
    if (std::abs(value - std::round(value)) < 1e-9)
        return locale.toString(qlonglong(std::llround(value)));
    return locale.toString(value, 'f', 1);
}

} // namespace

HerdTotalsModel::HerdTotalsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void HerdTotalsModel::setResult(const HerdResult& result)
{
    beginResetModel();
    m_result = result;
    endResetModel();
}

void HerdTotalsModel::clear()
{
    setResult(HerdResult());
}

int HerdTotalsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_result.results.size());
}

int HerdTotalsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString HerdTotalsModel::formatDuration(double ms)
{
    const QLocale locale;
    if (!std::isfinite(ms))
        return u"—"_s;
    if (ms < 1000)
        return tr("%1 ms").arg(locale.toString(ms, 'f', ms < 10 ? 1 : 0));
    if (ms < 60'000)
        return tr("%1 s").arg(locale.toString(ms / 1000.0, 'f', ms < 10'000 ? 2 : 1));
    const qint64 s = std::llround(ms / 1000.0);
    return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString HerdTotalsModel::formatMoment(double ms)
{
    const double s = ms / 1000.0;
    return tr("%1 s").arg(QLocale().toString(s, 'f', std::abs(s - std::round(s)) < 1e-9 ? 0 : 1));
}

QVariant HerdTotalsModel::value(const HerdPolicyResult& r, int column) const
{
    const HerdTotals& t = r.totals;
    switch (column) {
    case PolicyColumn: return r.label;
    case ClientsColumn: return r.clients;
    case RunsColumn: return r.runs;
    case RequestsColumn: return t.requests;
    case SuccessColumn: return t.successRate();
    case AmplificationColumn: return t.amplification();
    case ServerCallsColumn: return t.serverCalls;
    case DuplicatesColumn: return t.duplicates;
    case CompletionColumn: return t.completionMs;
    case P50Column: return t.latencyP50Ms;
    case P90Column: return t.latencyP90Ms;
    case P99Column: return t.latencyP99Ms;
    case GoodputColumn: return r.goodput;
    case RecoveredColumn: return r.recovered ? double(*r.recovered) : std::nan("");
    case CollapsedColumn: return r.collapsedAt ? double(r.collapsedAt->count()) : std::nan("");
    default: return {};
    }
}

QString HerdTotalsModel::text(const HerdPolicyResult& r, int column) const
{
    const QLocale locale;
    const HerdTotals& t = r.totals;
    switch (column) {
    case PolicyColumn: return r.label;
    case ClientsColumn: return locale.toString(r.clients);
    case RunsColumn: return locale.toString(r.runs);
    case RequestsColumn: return count(t.requests);
    case SuccessColumn: return tr("%1 %").arg(locale.toString(t.successRate() * 100.0, 'f', 1));
    case AmplificationColumn: return tr("%1×").arg(locale.toString(t.amplification(), 'f', 2));
    case ServerCallsColumn: return count(t.serverCalls);
    case DuplicatesColumn: return count(t.duplicates);
    case CompletionColumn: return formatDuration(t.completionMs);
    case P50Column: return formatDuration(t.latencyP50Ms);
    case P90Column: return formatDuration(t.latencyP90Ms);
    case P99Column: return formatDuration(t.latencyP99Ms);
    case GoodputColumn: return tr("%1/s").arg(locale.toString(r.goodput, 'f', r.goodput < 10 ? 2 : 1));
    case RecoveredColumn: return r.recovered ? (*r.recovered ? tr("yes") : tr("no")) : u"—"_s;
    case CollapsedColumn: return r.collapsedAt ? formatMoment(double(r.collapsedAt->count())) : u"—"_s;
    default: return {};
    }
}

QVariant HerdTotalsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HerdPolicyResult& r = m_result.results.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return text(r, index.column());
    case Qt::UserRole: return value(r, index.column());
    case Qt::TextAlignmentRole:
        return index.column() == PolicyColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (index.column() == PolicyColumn) {
            const bool dark = QGuiApplication::palette().color(QPalette::Base).lightnessF() < 0.5;
            return herdPolicyColor(index.row(), dark);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == RecoveredColumn && !r.recovered)
            return tr("Only an open-loop experiment with an outage, a cut or a spike says whether goodput came back");
        if (index.column() == CollapsedColumn && r.collapsedAt)
            return tr("From %1 on, goodput stayed under 20 % of the offered load").arg(formatMoment(double(r.collapsedAt->count())));
        return {};
    default: return {};
    }
}

QVariant HerdTotalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const kHeaders[ColumnCount][2] = {
        { QT_TR_NOOP("Policy"), QT_TR_NOOP("The policy's label") },
        { QT_TR_NOOP("Clients"), QT_TR_NOOP("Clients (closed loop) or requests (open loop)") },
        { QT_TR_NOOP("Runs"), QT_TR_NOOP("Runs averaged, each with its own seed") },
        { QT_TR_NOOP("Requests"), QT_TR_NOOP("Logical requests started (mean over the runs)") },
        { QT_TR_NOOP("Success"), QT_TR_NOOP("Logical requests that ended in success") },
        { QT_TR_NOOP("Amplification"), QT_TR_NOOP("Attempts sent per logical request") },
        { QT_TR_NOOP("Server calls"), QT_TR_NOOP("What the server worked on: requests it served, or writes (optimistic row)") },
        { QT_TR_NOOP("Duplicates"), QT_TR_NOOP("Logical requests the server applied more than once") },
        { QT_TR_NOOP("Completion"), QT_TR_NOOP("When the last logical request ended") },
        { QT_TR_NOOP("p50"), QT_TR_NOOP("Median latency of the logical requests that ended, first attempt to last answer") },
        { QT_TR_NOOP("p90"), QT_TR_NOOP("90th percentile latency") },
        { QT_TR_NOOP("p99"), QT_TR_NOOP("99th percentile latency") },
        { QT_TR_NOOP("Goodput"), QT_TR_NOOP("Successes per second over the measured duration (first run)") },
        { QT_TR_NOOP("Recovered"), QT_TR_NOOP("After the trigger ended, goodput came back to 80 % of the offered load (first run)") },
        { QT_TR_NOOP("Collapsed at"), QT_TR_NOOP("From when goodput stayed under 20 % of the offered load (first run)") },
    };
    if (role == Qt::DisplayRole)
        return tr(kHeaders[section][0]);
    if (role == Qt::ToolTipRole)
        return tr(kHeaders[section][1]);
    return {};
}
