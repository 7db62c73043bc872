// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The cases of a conformance run as a table (the Conformance view): case, verdict, attempts, findings, and
// the first finding's sentence. A case still running is shown as such until its result arrives.

#include "conform/conformancerunner.h"

#include <QAbstractTableModel>

class ConformanceModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { CaseColumn, VerdictColumn, AttemptsColumn, FindingsColumn, FirstFindingColumn, ColumnCount };

    explicit ConformanceModel(QObject* parent = nullptr);

    // The cases about to run, in order: each row says "waiting" until setResult().
    void setPending(const QList<SuiteCase>& cases);
    void setRunning(int row);
    void setResult(int row, const CaseResult& result);
    // Results known at once (a judged session).
    void setResults(const QList<CaseResult>& results);
    void clear();

    const CaseResult* result(int row) const; // null while the case has not ended
    QList<CaseResult> results() const; // the cases that ended, in order
    int failedCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        SuiteCase suiteCase;
        std::optional<CaseResult> result;
        bool running = false;
    };
    QList<Row> m_rows;
};
