// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/decisiontable.h"

#include <QAbstractTableModel>

// What a policy decides for the first failed attempt: outcomes (rows) × methods (columns), each cell the
// verdict with its reason as the tooltip. Read-only; reset as a whole when the policy changes.
class DecisionTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit DecisionTableModel(QObject* parent = nullptr);

    void setTable(const DecisionTable& table);
    const DecisionTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "retry", "stop · server-error", "success": what a cell shows.
    static QString cellText(const DecisionCell& cell);

private:
    DecisionTable m_table;
};
