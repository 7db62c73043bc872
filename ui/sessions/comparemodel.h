// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary differences of two sessions (or a session and its replay under another policy): one row per
// measure — runs, succeeded, success rate, attempts, amplification, total time, time waiting, operations
// the server applied — with A, B and the change. directionRole says whether B is better (+1), worse (-1)
// or not meaningfully different (0) from A on that measure, so the view highlights only what matters:
// times within 5 % (or 10 ms), counts within 1 %, rates within half a point are "the same".

#include "replay/replaycomparison.h"

#include <QAbstractTableModel>

class CompareModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Measure, SideA, SideB, Change, ColumnCount };
    static constexpr int directionRole = Qt::UserRole + 1;
    static constexpr double kMinShare = 0.05; // a time differs when by 5 % …
    static constexpr double kMinMillis = 10; // … and by 10 ms

    explicit CompareModel(QObject* parent = nullptr);

    void setTotals(const ReplayTotals& a, const ReplayTotals& b);
    void clear();
    void setSideNames(const QString& a, const QString& b);
    // B better (+1), worse (-1), the same (0) on ROW's measure.
    int direction(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString measure;
        QString tip;
        double a = 0;
        double b = 0;
        bool known = true; // operations applied are unknown without the lab
        int better = 0; // +1 higher is better, -1 lower is better, 0 neither
        enum class Unit { Count, Percent, Ratio, Millis } unit = Unit::Count;
    };
    static bool meaningful(const Row& row);
    QString format(const Row& row, double value) const;
    QString changeText(const Row& row) const;

    QList<Row> m_rows;
    QString m_nameA;
    QString m_nameB;
};
