// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The totals of a herd experiment as a table: one row per policy (means over its runs), one column per
// figure. Display strings are formatted in data(); Qt::UserRole gives the raw number (NaN when there is
// none: recovered unknown, never collapsed), for sorting and for tests.

#include "sim/herdresult.h"

#include <QAbstractTableModel>

class HerdTotalsModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        PolicyColumn,
        ClientsColumn,
        RunsColumn,
        RequestsColumn,
        SuccessColumn,
        AmplificationColumn,
        ServerCallsColumn,
        DuplicatesColumn,
        CompletionColumn,
        P50Column,
        P90Column,
        P99Column,
        GoodputColumn,
        RecoveredColumn,
        CollapsedColumn,
        ColumnCount
    };

    explicit HerdTotalsModel(QObject* parent = nullptr);

    void setResult(const HerdResult& result);
    void clear();
    const HerdResult& result() const { return m_result; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A duration for people: "850 ms", "12.4 s", "3 min 05 s".
    static QString formatDuration(double ms);
    // A moment on the experiment's time axis, in the charts' unit: "62 s", "7.5 s".
    static QString formatMoment(double ms);

private:
    QVariant value(const HerdPolicyResult& r, int column) const;
    QString text(const HerdPolicyResult& r, int column) const;

    HerdResult m_result;
};
