// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every finished attempt of the live session, one row each, in the order they finished (a hedged request's
// copies as they ended: copy 2 that won before copy 1 it outran; rows are found by run and index, never by
// position). A hedged copy's Decision says what it was and how it ended ("copy 1 — lost to copy 2"). Rows are read
// straight from the LiveSession's store (which only grows between clears); each refresh inserts the new
// rows with exactly one beginInsertRows. Strings are formatted in data() from a record rebuilt for the few
// rows on screen; Qt::UserRole gives sortable raw values for a QSortFilterProxyModel, read from the packed
// row without a record for the numeric columns (sorting a million rows builds no records for those).

#include "engine/attemptrecord.h"
#include "run/hedgewords.h"

#include <QAbstractTableModel>

#include <array>

class LiveSession;
struct AttemptRecord;
struct LiveSessionDelta;

class AttemptsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Run, Attempt, Start, Method, Target, Result, Duration, Decision, Wait, DelaySourceColumn, Reason, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int RowRole = Qt::UserRole + 1; // the attempt's position in the LiveSession

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
    HedgeWords::CopyContext copyContext(const AttemptRecord& a) const; // a hedged copy's run, as the session says
    QVariant sortValue(const AttemptRecord& a, int column) const;
    QVariant fieldSortValue(int row, int column) const; // invalid: the column needs the record

    struct CachedRow
    {
        int row = -1;
        AttemptRecord record;
    };
    static constexpr int kCachedRows = 64; // more than a screen of rows
    LiveSession* m_session;
    int m_rows = 0;
    mutable std::array<CachedRow, kCachedRows> m_cache;
    mutable int m_nextSlot = 0;
};
