// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Summary: success rate, runs, attempts per run, amplification, run latency p50/p95/p99, time
// spent waiting, the outcome breakdown and what the fault lab's server applied; for a session whose
// policy has a circuit breaker, the calls it refused and how long it was open; for one whose policy hedges,
// the hedges sent, won and wasted and the operations the lab applied twice. Numbers come from
// SessionSummaryBuilder; the view redraws at most four times a second (people read, not watch, them), the
// whole-session passes (breakers, hedging) paced by their cost while a batch grows.

#include "live/sessionsummary.h"

#include <QTimer>
#include <QWidget>

class LiveSession;
class QGridLayout;
class ShareBars;
class QStackedWidget;
class SummaryTile;
struct LiveSessionDelta;

class SummaryView : public QWidget
{
    Q_OBJECT
public:
    explicit SummaryView(LiveSession* session, QWidget* parent = nullptr);

    SessionSummary summary() const { return m_builder.summary(); }
    // The text each tile shows, by caption key: "success", "runs", "attempts", "amplification", "p50",
    // "p95", "p99", "waiting", "server", with a breaker "refused" and "open", with hedging "hedges",
    // "hedgeswon" and "twice" (for tests).
    QString tileText(const QString& key) const;
    int outcomeRowCount() const;
    int attemptsRowCount() const;
    bool isShowingPlaceholder() const;
    bool isShowingBreaker() const; // the breaker's figures (only for a session with one)
    bool isShowingHedges() const; // hedging's figures (only for a session whose policy hedges)

public Q_SLOTS:
    void refreshNow();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(int columns);
    void showSummary(const SessionSummary& s); // every figure, as S says
    void showBreakers(const SessionSummary& s);
    void showHedges(const SessionSummary& s);
    SummaryTile* tileFor(const QString& key) const;
    void onRefreshed(const LiveSessionDelta& delta);
    void onCleared();
    SummaryTile* addTile(const QString& key, const QString& caption);

    LiveSession* m_session;
    SessionSummaryBuilder m_builder;
    QTimer m_timer;
    QStackedWidget* m_stack = nullptr;
    ShareBars* m_outcomes = nullptr;
    ShareBars* m_attemptBars = nullptr;
    QList<QPair<QString, SummaryTile*>> m_tiles;
    QGridLayout* m_grid = nullptr;
    QList<QWidget*> m_cells; // the 8 figures, the two breakdowns, the lab's tile, the breaker's two, hedging's three
    static constexpr int kRefusedCell = 11;
    static constexpr int kOpenCell = 12;
    static constexpr int kHedgesCell = 13; // hedges sent, won / wasted, operations applied twice
    static constexpr int kTwiceCell = 15;
    bool m_showBreaker = false;
    bool m_showHedges = false;
    int m_columns = 0;
};
