// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class AttemptDetailPane;
class AttemptsTableModel;
class LiveSession;
struct LiveSessionDelta;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

// The Attempts tab: a sortable, filterable table of every attempt and, below it, the selected attempt's
// full detail. Emits attemptSelected so other views can highlight the same attempt.
class AttemptsPage : public QWidget
{
    Q_OBJECT
public:
    explicit AttemptsPage(LiveSession* session, QWidget* parent = nullptr);

    AttemptsTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    AttemptDetailPane* detail() const { return m_detail; }

public Q_SLOTS:
    // Selects (and scrolls to) attempt INDEX of run RUN_ID, e.g. when it is picked in the timeline.
    void selectAttempt(int runId, int index);

Q_SIGNALS:
    void attemptSelected(int runId, int index);

private:
    void onCurrentChanged();
    void fitColumns(const LiveSessionDelta& delta);

    LiveSession* m_session;
    AttemptsTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_table;
    AttemptDetailPane* m_detail;
    bool m_fitsRefusals = false; // the Result column was widened for a refused call's words
    bool m_fitsCopies = false; // the Decision column was widened for a hedged copy's words
};
