// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every finished attempt of the live session, one row each, in the order they finished. Rows are read
// straight from LiveSession::attempts() (which only grows between clears); each refresh inserts the new
// rows with exactly one beginInsertRows. Strings are formatted in data(); Qt::UserRole gives sortable raw
// values for a QSortFilterProxyModel.

#include <QAbstractTableModel>

class LiveSession;
struct AttemptRecord;
struct LiveSessionDelta;

class AttemptsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Run, Attempt, Start, Method, Target, Result, Duration, Decision, Wait, DelaySourceColumn, Reason, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int RowRole = Qt::UserRole + 1; // the row in LiveSession::attempts()

    explicit AttemptsTableModel(LiveSession* session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const AttemptRecord* attemptAt(int row) const;
    // The row of attempt INDEX of run RUN_ID, or -1.
    int rowOf(int runId, int index) const;

    // Short words for an attempt's result ("503", "connection-lost") shared with the detail pane.
    static QString resultText(const AttemptRecord& attempt);

private:
    void onRefreshed(const LiveSessionDelta& delta);
    void onCleared();
    QVariant display(const AttemptRecord& a, int column) const;
    QVariant sortValue(const AttemptRecord& a, int column) const;

    LiveSession* m_session;
    int m_rows = 0;
};
