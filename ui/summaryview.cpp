// SPDX-License-Identifier: GPL-3.0-or-later
#include "summaryview.h"

#include "live/chartpalette.h"
#include "livesession.h"
#include "live/sharebars.h"
#include "live/placeholderlabel.h"
#include "live/summarytile.h"
#include "live/wholesessiondelta.h"

#include <QCoreApplication>
#include <QGridLayout>
#include <QGroupBox>
#include <QResizeEvent>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

QString readableMs(double ms)
{
    if (ms < 1000)
        return QCoreApplication::translate("SummaryView", "%1 ms").arg(ms, 0, 'f', 0);
    if (ms < 60000)
        return QCoreApplication::translate("SummaryView", "%1 s").arg(ms / 1000.0, 0, 'f', 2);
    const qint64 s = qint64(ms / 1000.0);
    return QCoreApplication::translate("SummaryView", "%1 min %2 s").arg(s / 60).arg(s % 60);
}

} // namespace

SummaryView::SummaryView(LiveSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* content = new QWidget;
    m_grid = new QGridLayout(content);
    m_grid->setSpacing(10);
    m_grid->setContentsMargins(12, 12, 12, 12);
    const QList<QPair<QString, QString>> tiles {
        { u"success"_s, tr("Success rate") }, { u"runs"_s, tr("Runs") },
        { u"attempts"_s, tr("Attempts per run") }, { u"amplification"_s, tr("Amplification") },
        { u"p50"_s, tr("Latency p50") }, { u"p95"_s, tr("Latency p95") }, { u"p99"_s, tr("Latency p99") },
        { u"waiting"_s, tr("Time spent waiting") },
    };
    for (const auto& [key, caption] : tiles)
        m_cells.append(addTile(key, caption));
    const auto group = [](const QString& title, ShareBars* bars) {
        auto* box = new QGroupBox(title);
        auto* layout = new QVBoxLayout(box);
        layout->addWidget(bars);
        layout->addStretch(1);
        return box;
    };
    m_outcomes = new ShareBars(tr("No run has finished yet"));
    m_attemptBars = new ShareBars(tr("No run has finished yet"));
    m_cells.append(group(tr("Outcome breakdown (finished runs)"), m_outcomes));
    m_cells.append(group(tr("Attempts per finished run"), m_attemptBars));
    m_cells.append(addTile(u"server"_s, tr("Fault lab: operations applied")));
    // A circuit breaker's figures, shown only for a session whose policy has one.
    m_cells.append(addTile(u"refused"_s, tr("Calls refused by the breaker")));
    m_cells.append(addTile(u"open"_s, tr("Time the circuit was open")));
    m_cells.at(kRefusedCell)->hide();
    m_cells.at(kOpenCell)->hide();
    // Hedging's figures, shown only for a session whose policy hedges.
    m_cells.append(addTile(u"hedges"_s, tr("Hedges sent")));
    m_cells.append(addTile(u"hedgeswon"_s, tr("Hedges won / wasted")));
    m_cells.append(addTile(u"twice"_s, tr("Operations applied twice")));
    for (int cell = kHedgesCell; cell <= kTwiceCell; ++cell)
        m_cells.at(cell)->hide();
    arrange(4);
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_stack = new QStackedWidget;
    m_stack->addWidget(new PlaceholderLabel(tr("Press Run to see attempts\n(success rate, latency and retries appear here)")));
    m_stack->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    m_timer.setSingleShot(true);
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, [this] { showSummary(m_builder.pacedSummary()); });
    connect(m_session, &LiveSession::refreshed, this, &SummaryView::onRefreshed);
    connect(m_session, &LiveSession::cleared, this, &SummaryView::onCleared);
    m_builder.update(*m_session, wholeSessionDelta(*m_session));
    refreshNow();
}

// Four columns when they fit, else two: the eight figures, the breaker's two, then the breakdowns and the lab's
// count.
void SummaryView::arrange(int columns)
{
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (QWidget* w : std::as_const(m_cells))
        m_grid->removeWidget(w);
    for (int c = 0; c < 4; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    for (int r = 0; r < m_grid->rowCount(); ++r)
        m_grid->setRowStretch(r, 0);
    for (int i = 0; i < 8; ++i)
        m_grid->addWidget(m_cells.at(i), i / columns, i % columns);
    const int row = 8 / columns;
    // The breaker's two figures go right under the eight (they are figures too), before the breakdowns; hidden
    // without a breaker, their row takes no room.
    m_grid->addWidget(m_cells.at(kRefusedCell), row, 0);
    m_grid->addWidget(m_cells.at(kOpenCell), row, 1);
    // Hedging's three on a row of their own (two rows in two columns), also hidden without hedging.
    for (int i = 0; i <= kTwiceCell - kHedgesCell; ++i)
        m_grid->addWidget(m_cells.at(kHedgesCell + i), row + 1 + i / columns, i % columns);
    const int after = row + 1 + (kTwiceCell - kHedgesCell) / columns + 1;
    if (columns == 4) {
        m_grid->addWidget(m_cells.at(8), after, 0, 1, 2);
        m_grid->addWidget(m_cells.at(9), after, 2);
        m_grid->addWidget(m_cells.at(10), after, 3);
    } else {
        m_grid->addWidget(m_cells.at(8), after, 0, 1, 2);
        m_grid->addWidget(m_cells.at(9), after + 1, 0);
        m_grid->addWidget(m_cells.at(10), after + 1, 1);
    }
    m_grid->setRowStretch(m_grid->rowCount(), 1); // figures at the top, room below
}

void SummaryView::resizeEvent(QResizeEvent* event)
{
    int widest = 0;
    for (const QWidget* w : std::as_const(m_cells))
        widest = std::max(widest, w->minimumSizeHint().width());
    const int fourColumns = 4 * widest + 3 * m_grid->spacing() + 24 + 20; // margins and a scroll bar
    arrange(event->size().width() >= fourColumns ? 4 : 2);
    QWidget::resizeEvent(event);
}

SummaryTile* SummaryView::addTile(const QString& key, const QString& caption)
{
    auto* tile = new SummaryTile(caption);
    m_tiles.append({ key, tile });
    return tile;
}

void SummaryView::onRefreshed(const LiveSessionDelta& delta)
{
    m_builder.update(*m_session, delta);
    if (!m_timer.isActive())
        m_timer.start();
}

void SummaryView::onCleared()
{
    m_builder.clear();
    refreshNow();
}

QString SummaryView::tileText(const QString& key) const
{
    for (const auto& [k, tile] : m_tiles) {
        if (k == key)
            return tile->value() + u'\n' + tile->detail();
    }
    return {};
}

int SummaryView::outcomeRowCount() const
{
    return m_outcomes->rowCount();
}

int SummaryView::attemptsRowCount() const
{
    return m_attemptBars->rowCount();
}

bool SummaryView::isShowingBreaker() const
{
    return m_showBreaker;
}

bool SummaryView::isShowingHedges() const
{
    return m_showHedges;
}

bool SummaryView::isShowingPlaceholder() const
{
    return m_stack->currentIndex() == 0;
}

void SummaryView::refreshNow()
{
    showSummary(m_builder.summary());
}

void SummaryView::showSummary(const SessionSummary& s)
{
    m_timer.stop();
    m_stack->setCurrentIndex(s.runs > 0 ? 1 : 0);
    const ChartPalette palette = ChartPalette::fromPalette(this->palette());
    const auto tile = [this](const QString& key) {
        for (const auto& [k, t] : std::as_const(m_tiles)) {
            if (k == key)
                return t;
        }
        return static_cast<SummaryTile*>(nullptr);
    };
    const bool anyFinished = s.finishedRuns > 0;
    const QString none = u"–"_s;
    tile(u"success"_s)->setValue(anyFinished ? tr("%1 %").arg(s.successRate * 100.0, 0, 'f', 1) : none,
                                 tr("%1 of %2 finished runs succeeded").arg(s.succeededRuns).arg(s.finishedRuns));
    tile(u"success"_s)->setValueColor(!anyFinished ? QColor() : s.successRate >= 0.99 ? palette.success
                                          : s.successRate < 0.9                         ? palette.failure
                                                                                       : QColor());
    tile(u"runs"_s)->setValue(QString::number(s.runs),
                              tr("%1 finished · %2 running").arg(s.finishedRuns).arg(s.runs - s.finishedRuns));
    tile(u"attempts"_s)->setValue(anyFinished ? QString::number(s.attemptsPerRun, 'f', 2) : none,
                                  tr("at most %1 · %2 attempts in all").arg(s.maxAttemptsPerRun).arg(s.attempts));
    tile(u"amplification"_s)->setValue(s.runs ? tr("×%1").arg(s.amplification, 0, 'f', 2) : none,
        s.amplificationFromServer ? tr("the server received %1 requests for %2 runs").arg(s.serverRequests).arg(s.runs)
                                  : tr("%1 attempts for %2 runs").arg(s.attempts).arg(s.runs));
    tile(u"p50"_s)->setValue(anyFinished ? readableMs(s.p50Ms) : none,
                             tr("run latency: first attempt to final answer, waits included"));
    tile(u"p95"_s)->setValue(anyFinished ? readableMs(s.p95Ms) : none, tr("95 % of runs finished within this"));
    tile(u"p99"_s)->setValue(anyFinished ? readableMs(s.p99Ms) : none, tr("99 % of runs finished within this"));
    const double share = s.runTimeMs > 0 ? s.waitingMs / s.runTimeMs * 100.0 : 0.0;
    tile(u"waiting"_s)->setValue(anyFinished ? readableMs(s.waitingMs) : none,
                                 tr("%1 % of the finished runs' time was spent waiting to retry").arg(share, 0, 'f', 0));
    QString server = tr("%1 requests received").arg(s.serverRequests);
    if (s.duplicateApplications > 0)
        server += u'\n' + tr("%1 applied again under an idempotency key already used").arg(s.duplicateApplications);
    tile(u"server"_s)->setValue(QString::number(s.operationsApplied), server);
    tile(u"server"_s)->setValueColor(s.duplicateApplications > 0 ? palette.failure : QColor());
    QList<ShareBars::Row> outcomes;
    for (const auto& [kind, count] : s.outcomes) {
        const QColor color = kind == FinalKind::Success ? palette.success
            : kind == FinalKind::Cancelled              ? palette.mutedText
            : kind == FinalKind::CircuitOpen            ? palette.refused // its last call never sent
            : kind == FinalKind::RateLimited            ? palette.serverWait
                                                        : palette.failure;
        outcomes.append({ finalKindLabel(kind), count, color });
    }
    m_outcomes->setRows(outcomes);
    QList<ShareBars::Row> attempts;
    for (const auto& [n, count] : s.attemptCounts)
        attempts.append({ n == 1 ? tr("1 attempt") : tr("%1 attempts").arg(n), count, n == 1 ? palette.firstByte : palette.serverWait });
    m_attemptBars->setRows(attempts);
    showBreakers(s);
    showHedges(s);
}

void SummaryView::showHedges(const SessionSummary& s)
{
    if (m_showHedges != s.hasHedges) {
        m_showHedges = s.hasHedges;
        for (int cell = kHedgesCell; cell <= kTwiceCell; ++cell)
            m_cells.at(cell)->setVisible(s.hasHedges);
    }
    if (!s.hasHedges)
        return;
    const ChartPalette palette = ChartPalette::fromPalette(this->palette());
    SummaryTile* sent = tileFor(u"hedges"_s);
    SummaryTile* won = tileFor(u"hedgeswon"_s);
    SummaryTile* twice = tileFor(u"twice"_s);
    const HedgeSummary& h = s.hedges;
    sent->setValue(QString::number(h.hedgesSent),
        tr("copies beyond the first, for %n hedged request(s)", nullptr, h.hedgedRequests));
    won->setValue(tr("%1 / %2").arg(h.hedgesWon).arg(h.hedgesWasted),
        tr("won: the copy's answer was the request's\nwasted: sent, its answer not used (the load hedging added)"));
    won->setValueColor(h.hedgesWasted > h.hedgesWon ? palette.failure : QColor());
    if (h.appliedTwice < 0) {
        twice->setValue(u"–"_s, tr("unknown: only the fault lab sees what the server applied"));
        twice->setValueColor(QColor());
    } else {
        twice->setValue(QString::number(h.appliedTwice),
            h.appliedTwice > 0 ? tr("requests whose operation the lab applied more than once: their copies were not idempotent")
                               : tr("no request's operation was applied more than once"));
        twice->setValueColor(h.appliedTwice > 0 ? palette.failure : QColor());
    }
}

SummaryTile* SummaryView::tileFor(const QString& key) const
{
    for (const auto& [k, t] : m_tiles) {
        if (k == key)
            return t;
    }
    return nullptr;
}

void SummaryView::showBreakers(const SessionSummary& s)
{
    const ChartPalette palette = ChartPalette::fromPalette(this->palette());
    const auto tile = [this](const QString& key) {
        for (const auto& [k, t] : std::as_const(m_tiles)) {
            if (k == key)
                return t;
        }
        return static_cast<SummaryTile*>(nullptr);
    };
    if (m_showBreaker != s.hasBreaker) {
        m_showBreaker = s.hasBreaker;
        m_cells.at(kRefusedCell)->setVisible(s.hasBreaker);
        m_cells.at(kOpenCell)->setVisible(s.hasBreaker);
    }
    if (!s.hasBreaker)
        return;
    // Where the totals come from: the one breaker named, or a line each (at most three).
    const auto name = [](const BreakerSummary& b) -> QString { return b.policy + u" · "_s + b.scope; };
    QString refusedBy;
    QString openBy;
    if (s.breakers.size() == 1) {
        const BreakerSummary& b = s.breakers.first();
        refusedBy = tr("never sent, refused by %1").arg(name(b));
        openBy = tr("open or half-open; opened %1×, now %2").arg(b.opened).arg(stateName(b.last));
    } else {
        QStringList refused { tr("never sent") };
        QStringList open { tr("open or half-open, all breakers together") };
        for (const BreakerSummary& b : s.breakers.mid(0, 3)) {
            refused << tr("%1: %2").arg(name(b)).arg(b.refused);
            open << tr("%1: %2, opened %3×, now %4")
                        .arg(name(b), readableMs(double(b.openFor.count()) / 1e6))
                        .arg(b.opened)
                        .arg(stateName(b.last));
        }
        if (s.breakers.size() > 3) {
            refused << tr("and %n more breaker(s)", nullptr, int(s.breakers.size() - 3));
            open << refused.last();
        }
        if (s.breakers.isEmpty()) { // a breaker that never changed state and never refused anything
            refused = QStringList { tr("never sent: the breaker refused no call") };
            open = QStringList { tr("the breaker never opened") };
        }
        refusedBy = refused.join(u'\n');
        openBy = open.join(u'\n');
    }
    tile(u"refused"_s)->setValue(QString::number(s.refusedByBreaker), refusedBy);
    tile(u"refused"_s)->setValueColor(s.refusedByBreaker > 0 ? palette.refused : QColor());
    tile(u"open"_s)->setValue(readableMs(s.breakerOpenMs), openBy);
    tile(u"open"_s)->setValueColor(s.breakerOpenMs > 0 ? palette.breakerOpen : QColor());
}
