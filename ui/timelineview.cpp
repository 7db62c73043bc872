// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineview.h"

#include "live/legendstrip.h"
#include "livesession.h"
#include "live/phasespans.h"
#include "live/placeholderlabel.h"
#include "live/timelinebandschart.h"
#include "policy/retrydecision.h"
#include "live/timelineitem.h"
#include "live/wholesessiondelta.h"
#include "sessions/chartexport.h"
#include "shell/elidedlabel.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QStyle>
#include <QToolTip>
#include <QWidgetAction>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {
constexpr double kDefaultSpan = 10.0; // seconds on the empty axis
constexpr double kMinSpan = 0.25; // the shortest span follow-live and Reset zoom show
constexpr double kFollowSpan = 60.0; // follow-live shows a session whole up to this long, then slides
constexpr int kDragThreshold = 4;
} // namespace

TimelineView::TimelineView(LiveSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 6, 16, 4));
    m_anchor = new QLineSeries;
    m_chart->addSeries(m_anchor);
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("Time since the session started (s)"));
    m_timeAxis->setTickType(QValueAxis::TicksDynamic);
    m_timeAxis->setTickAnchor(0);
    m_laneAxis = new QValueAxis;
    m_laneAxis->setReverse(true);
    m_laneAxis->setLabelsVisible(false);
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_laneAxis, Qt::AlignLeft);
    m_anchor->attachAxis(m_timeAxis);
    m_anchor->attachAxis(m_laneAxis);
    m_item = new TimelineItem(&m_model, m_chart);

    m_chartView = new QChartView(m_chart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setFrameShape(QFrame::NoFrame);
    m_chartView->viewport()->installEventFilter(this);
    m_chartView->setFocusPolicy(Qt::StrongFocus);

    m_laneBar = new QScrollBar(Qt::Vertical);
    auto* reset = m_reset = new QToolButton;
    reset->setText(tr("Reset zoom"));
    reset->setToolTip(tr("Show the whole session (double-click the chart does the same)"));
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_follow = new QToolButton;
    m_follow->setText(tr("Follow live"));
    m_follow->setToolTip(tr("Keep the newest attempts in view while runs are going"));
    m_follow->setCheckable(true);
    m_follow->setChecked(true);
    m_legend = new LegendStrip;
    auto* hint = m_hint = new ElidedLabel;
    hint->setText(tr("Wheel: zoom · Shift+wheel: scroll runs · drag: pan"));
    hint->setForegroundRole(QPalette::PlaceholderText);

    // The threshold sits in the Bands button's menu: the toolbar stays as narrow as the window's smallest size.
    auto* bands = new QToolButton;
    // An icon, not a word: the toolbar sets the tab's smallest width (tst_windowlayout at scale 2).
    bands->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));
    bands->setText(tr("Bands"));
    bands->setToolButtonStyle(Qt::ToolButtonIconOnly);
    bands->setAccessibleName(tr("Aggregate bands"));
    bands->setToolTip(tr("Bands: above how many runs the timeline draws attempts/s, goodput/s and runs waiting instead "
                         "of one lane per run"));
    bands->setPopupMode(QToolButton::InstantPopup);
    auto* bandsMenu = new QMenu(bands);
    auto* thresholdAction = new QWidgetAction(bandsMenu);
    m_threshold = new QSpinBox;
    m_threshold->setRange(1, 99'999);
    m_threshold->setValue(kDefaultBandThreshold);
    m_threshold->setPrefix(tr("Bands above "));
    m_threshold->setSuffix(tr(" runs"));
    m_threshold->setAccessibleName(tr("Aggregate bands above this many runs"));
    m_threshold->setToolTip(tr("With more runs than this, the timeline draws attempts/s, goodput/s and runs waiting per "
                               "time bucket instead of one lane per run"));
    thresholdAction->setDefaultWidget(m_threshold);
    bandsMenu->addAction(thresholdAction);
    bands->setMenu(bandsMenu);

    // Buttons, hint and scroll bar are controls: an exported picture leaves them out (the legend stays).
    for (QWidget* control : std::initializer_list<QWidget*> { reset, m_follow, hint, m_laneBar, static_cast<QWidget*>(bands) })
        ChartExport::markControl(control);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 0, 6, 0);
    bar->addWidget(reset);
    bar->addWidget(m_follow);
    bar->addWidget(bands);
    bar->addSpacing(12);
    bar->addWidget(m_legend, 1);
    bar->addStretch(0); // takes the room when the legend is hidden, so the buttons stay together
    bar->addWidget(hint);
    auto* content = new QWidget;
    auto* row = new QHBoxLayout(content);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(m_chartView, 1);
    row->addWidget(m_laneBar);
    m_stack = new QStackedWidget;
    m_stack->addWidget(new PlaceholderLabel(tr("Press Run to see attempts")));
    m_stack->addWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);

    connect(reset, &QToolButton::clicked, this, &TimelineView::resetZoom);
    connect(m_follow, &QToolButton::toggled, this, &TimelineView::setFollowLive);
    connect(m_threshold, &QSpinBox::valueChanged, this, [this] {
        updateBands();
        applyLayout();
    });
    connect(m_laneBar, &QScrollBar::valueChanged, this, [this](int value) {
        if (m_applying)
            return;
        m_follow->setChecked(false);
        m_layout.laneTop = value;
        applyLayout();
    });
    connect(m_chart, &QChart::plotAreaChanged, this, &TimelineView::onPlotAreaChanged);
    connect(m_timeAxis, &QValueAxis::rangeChanged, this, [this](qreal min, qreal max) {
        if (m_applying || max <= min)
            return;
        m_layout.t0 = min;
        m_layout.t1 = max;
        m_item->setLayout(m_layout);
    });
    connect(m_session, &LiveSession::refreshed, this, &TimelineView::onRefreshed);
    connect(m_session, &LiveSession::cleared, this, &TimelineView::onCleared);

    m_layout.t1 = kDefaultSpan;
    applyPalette();
    onRefreshed(wholeSessionDelta(*m_session));
    if (m_model.laneCount() == 0)
        applyLayout();
}

TimelineView::~TimelineView() = default;

bool TimelineView::followLive() const
{
    return m_follow->isChecked();
}

bool TimelineView::isShowingPlaceholder() const
{
    return m_stack->currentIndex() == 0;
}

void TimelineView::applyPalette()
{
    m_palette = ChartPalette::fromPalette(palette());
    applyChartPalette(m_chart, m_palette);
    m_anchor->setPen(QPen(Qt::transparent));
    m_laneAxis->setGridLineVisible(false);
    m_laneAxis->setLineVisible(false);
    m_laneAxis->setLabelsVisible(false);
    m_labelDigits = 0; // margins for the lane labels are recomputed with the font
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_item->setFont(small);
    m_item->setPalette(m_palette);
    if (m_bands)
        m_bands->applyPalette(m_palette);
    m_layout.laneHeight = std::round(QFontMetricsF(small).height() * 1.9);
    m_layout.bandHeight = std::round(QFontMetricsF(small).height() * 1.35);
    applyLegend();
}

void TimelineView::applyLegend()
{
    using S = LegendStrip::Swatch;
    const ChartPalette& p = m_palette;
    if (m_bandMode) {
        m_legend->setEntries({ { S::Band, p.firstByte, tr("Attempts/s") },
            { S::Line, p.success, tr("Goodput/s") },
            { S::DashedLine, p.serverWait, tr("Runs waiting (right axis)") } });
        return;
    }
    QList<LegendStrip::Entry> entries { { S::Bar, p.connect, timelinePhaseName(TimelinePhase::Connect) },
        { S::Bar, p.tls, timelinePhaseName(TimelinePhase::Tls) },
        { S::Bar, p.firstByte, timelinePhaseName(TimelinePhase::FirstByte) },
        { S::Bar, p.download, timelinePhaseName(TimelinePhase::Download) },
        { S::Bar, p.queued, timelinePhaseName(TimelinePhase::Queued) } };
    // What a circuit breaker adds, listed once the session has any of it (most sessions have none).
    if (m_legendBreaker)
        entries << LegendStrip::Entry { S::Bar, p.verdictWait, timelinePhaseName(TimelinePhase::VerdictWait) };
    entries << LegendStrip::Entry { S::Hatch, p.backoffWait, tr("Wait: backoff") }
            << LegendStrip::Entry { S::Hatch, p.serverWait, tr("Wait: Retry-After") }
            << LegendStrip::Entry { S::Hatch, p.throttleWait, tr("Wait: throttle") }
            << LegendStrip::Entry { S::Circle, p.success, tr("Succeeded") }
            << LegendStrip::Entry { S::Square, p.failure, tr("Failed") };
    if (m_legendBreaker) {
        entries << LegendStrip::Entry { S::Refused, p.refused, tr("Not sent: refused by the breaker") }
                << LegendStrip::Entry { S::States, p.breakerClosed, tr("Breaker: closed, open, half-open"), p.breakerOpen,
                       p.breakerHalfOpen };
    }
    // Hedged copies, once the session has any: one row each in their request's lane.
    if (m_legendHedge) {
        entries << LegendStrip::Entry { S::CopyWon, p.firstByte, tr("Hedged copy: won"), p.success }
                << LegendStrip::Entry { S::CopyLost, p.firstByte, tr("Hedged copy: lost (cancelled)"), p.mutedText };
    }
    entries << LegendStrip::Entry { S::Tick, p.labReceived, tr("Lab: request received") }
            << LegendStrip::Entry { S::Triangle, p.labApplied, tr("Lab: operation applied") };
    m_legend->setEntries(entries);
}

QStringList TimelineView::legendLabels() const
{
    return m_legend->labels();
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        applyPalette();
        applyLayout();
    }
}

void TimelineView::onRefreshed(const LiveSessionDelta& delta)
{
    m_model.update(*m_session, delta);
    const bool breaker = m_model.hasBreakerMarks();
    const bool hedge = m_model.hasHedgedCopies();
    if (breaker != m_legendBreaker || hedge != m_legendHedge) {
        m_legendBreaker = breaker;
        m_legendHedge = hedge;
        applyLegend();
    }
    followIfLive();
    updateBands();
    applyLayout();
}

int TimelineView::bandThreshold() const
{
    return m_threshold->value();
}

void TimelineView::setBandThreshold(int runs)
{
    m_threshold->setValue(runs); // re-enters through valueChanged
}

bool TimelineView::isShowingBands() const
{
    return m_stack->currentIndex() == 2;
}

void TimelineView::updateBands()
{
    const bool bands = m_model.laneCount() > m_threshold->value();
    if (bands && !m_bands) {
        // Made the first time a session needs it (most never do); the stack's third page.
        m_bands = new TimelineBandsChart;
        m_bands->viewport()->installEventFilter(this);
        m_bands->applyPalette(m_palette);
        m_stack->addWidget(m_bands);
    }
    if (bands)
        m_bands->setAggregate(TimelineAggregate::of(*m_session));
    if (m_model.laneCount() > 0)
        m_stack->setCurrentIndex(bands ? 2 : 1);
    if (bands != m_bandMode) {
        m_bandMode = bands;
        applyLegend();
    }
    m_hint->setText(bands ? tr("%n run(s): aggregate bands per %1 s", nullptr, m_model.laneCount())
                                .arg(m_bands->aggregate().bucketS)
                          : tr("Wheel: zoom · Shift+wheel: scroll runs · drag: pan"));
}

void TimelineView::onCleared()
{
    m_model.clear();
    if (m_legendBreaker || m_legendHedge || m_bandMode) {
        m_legendBreaker = false;
        m_legendHedge = false;
        m_bandMode = false;
        applyLegend();
    }
    m_layout.t0 = 0;
    m_layout.t1 = kDefaultSpan;
    m_layout.laneTop = 0;
    m_selectedRun = 0;
    m_item->setSelection(-1, 0);
    m_stack->setCurrentIndex(0);
    m_follow->setChecked(true);
    applyLayout();
}

void TimelineView::onPlotAreaChanged()
{
    if (m_chart->plotArea() == m_layout.plot)
        return;
    m_layout.plot = m_chart->plotArea();
    followIfLive();
    applyLayout();
}

void TimelineView::followIfLive()
{
    if (!followLive() || m_model.laneCount() == 0)
        return;
    const double start = m_model.startMs() / 1000.0;
    const double end = (m_model.isActive() ? m_model.endMs() : m_model.contentEndMs()) / 1000.0;
    const double whole = std::max(0.0, end - start) * 1.06;
    if (whole <= kFollowSpan) {
        // A short session is shown whole (a 0.5 s batch fills the axis, it is not a sliver of 10 s).
        const double span = std::max(kMinSpan, whole);
        m_layout.t0 = std::max(0.0, start - span * 0.02);
        m_layout.t1 = m_layout.t0 + span;
    } else {
        // A long one: the newest kFollowSpan seconds, sliding with "now".
        m_layout.t1 = end + kFollowSpan * 0.03;
        m_layout.t0 = m_layout.t1 - kFollowSpan;
    }
    m_layout.laneTop = m_model.laneCount() - m_layout.visibleLanes();
}

void TimelineView::setFollowLive(bool follow)
{
    if (m_follow->isChecked() != follow)
        m_follow->setChecked(follow); // re-enters through toggled
    else if (follow) {
        followIfLive();
        applyLayout();
    }
}

void TimelineView::resetZoom()
{
    if (m_model.laneCount() == 0) {
        m_layout.t0 = 0;
        m_layout.t1 = kDefaultSpan;
    } else {
        const double start = m_model.startMs() / 1000.0;
        const double span = std::max(kMinSpan, m_model.contentEndMs() / 1000.0 - start);
        m_layout.t0 = start - span * 0.02;
        m_layout.t1 = start + span * 1.05;
    }
    m_layout.laneTop = 0;
    applyLayout();
}

void TimelineView::applyLayout()
{
    m_applying = true;
    m_layout.bands = std::min(kMaxBands, m_model.breakers().count());
    m_layout = m_layout.clampedLanes(m_model.laneCount()).clampedTime(0); // no time before the session
    if (m_layout.t1 <= m_layout.t0)
        m_layout.t1 = m_layout.t0 + 0.001;
    const double step = niceTickStep(m_layout.t1 - m_layout.t0, std::max(2, int(m_layout.plot.width() / 110)));
    m_timeAxis->setTickInterval(step);
    m_timeAxis->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(step)));
    m_timeAxis->setRange(m_layout.t0, m_layout.t1);
    m_laneAxis->setRange(m_layout.laneTop, m_layout.laneTop + std::max(1.0, m_layout.visibleLanes()));
    rebuildLaneLabels();
    const int visible = int(std::floor(m_layout.visibleLanes()));
    m_laneBar->setRange(0, std::max(0, m_model.laneCount() - visible));
    m_laneBar->setPageStep(std::max(1, visible));
    m_laneBar->setValue(int(std::round(m_layout.laneTop)));
    m_laneBar->setVisible(m_model.laneCount() > visible);
    // "Now" — the live edge, or the playhead of a recording — while something runs (one clock: LiveSession's).
    m_item->setNowMs(m_model.isActive() ? m_session->nowMs() : 0);
    m_item->setLayout(m_layout);
    if (m_bands)
        m_bands->setTimeRange(m_layout.t0, m_layout.t1);
    m_applying = false;
    if (!m_syncing && (m_layout.t0 != m_emittedT0 || m_layout.t1 != m_emittedT1)) {
        m_emittedT0 = m_layout.t0;
        m_emittedT1 = m_layout.t1;
        emit timeRangeChanged(m_layout.t0, m_layout.t1);
    }
}

void TimelineView::setLegendVisible(bool visible)
{
    m_legend->setVisible(visible);
}

void TimelineView::setCompact(bool compact)
{
    m_hint->setVisible(!compact);
    // Two timelines in one view must not share a shortcut (Qt would run neither).
    m_reset->setShortcut(compact ? QKeySequence() : QKeySequence(Qt::CTRL | Qt::Key_0));
}

void TimelineView::setTimeRange(double t0, double t1)
{
    if (t1 <= t0 || (t0 == m_layout.t0 && t1 == m_layout.t1))
        return;
    m_follow->setChecked(false);
    m_layout.t0 = t0;
    m_layout.t1 = t1;
    m_syncing = true;
    applyLayout();
    m_syncing = false;
    m_emittedT0 = m_layout.t0;
    m_emittedT1 = m_layout.t1;
}

double TimelineView::contentStartSeconds() const
{
    return m_model.laneCount() ? m_model.startMs() / 1000.0 : 0.0;
}

double TimelineView::contentEndSeconds() const
{
    return m_model.laneCount() ? m_model.contentEndMs() / 1000.0 : 0.0;
}

double TimelineView::nowSeconds() const
{
    return m_model.isActive() ? m_session->nowMs() / 1000.0 : 0.0;
}

void TimelineView::rebuildLaneLabels()
{
    // The left margin fits "Run N" for the largest run id; changes only when the id gains a digit.
    const int digits = int(QString::number(std::max(1, m_model.runIdOfLane(m_model.laneCount() - 1))).size());
    if (digits == m_labelDigits)
        return;
    m_labelDigits = digits;
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    const double width = QFontMetricsF(small).horizontalAdvance(tr("Run %1").arg(QString(std::max(3, digits), u'9')));
    m_item->setLabelWidth(width);
    m_chart->setMargins(QMargins(int(width) + 12, 6, 16, 4));
}

QPointF TimelineView::toPlot(const QPoint& viewportPos) const
{
    return m_chart->mapFromScene(m_chartView->mapToScene(viewportPos));
}

QPoint TimelineView::viewportPosFor(double seconds, int lane) const
{
    const QPointF chartPos(m_layout.xForTime(seconds), m_layout.yForLane(lane) + m_layout.laneHeight / 2);
    return m_chartView->mapFromScene(m_chart->mapToScene(chartPos));
}

QPoint TimelineView::viewportPosForBand(double seconds, int band) const
{
    const QPointF chartPos(m_layout.xForTime(seconds), m_layout.yForBand(band) + m_layout.bandHeight / 2);
    return m_chartView->mapFromScene(m_chart->mapToScene(chartPos));
}

std::optional<TimelineHit> TimelineView::hitAt(const QPoint& viewportPos) const
{
    const QPointF p = toPlot(viewportPos);
    if (!m_layout.lanesArea().contains(p))
        return std::nullopt;
    const double at = m_layout.laneForY(p.y());
    const int lane = int(std::floor(at));
    // Six pixels either side; an outcome is drawn just after its moment (its circle, about 12 px wide). Where
    // in the lane picks one of a hedged request's copies.
    const double tolerance = 12 * m_layout.secondsPerPixel() * 1000.0;
    return m_model.hitTest(lane, m_layout.timeForX(p.x()) * 1000.0, tolerance, at - lane);
}

QPoint TimelineView::viewportPosForCopy(double seconds, int lane, int attempt) const
{
    const auto [top, bottom] = copyRowInLane(TimelineModel::copyRow(attempt), m_model.copyRows(lane));
    const QPointF chartPos(m_layout.xForTime(seconds), m_layout.yForLane(lane) + m_layout.laneHeight * (top + bottom) / 2);
    return m_chartView->mapFromScene(m_chart->mapToScene(chartPos));
}

QString TimelineView::toolTipAt(const QPoint& pos) const
{
    const QPointF p = toPlot(pos);
    if (const int band = m_layout.bandForY(p.y()); band >= 0 && m_layout.plot.contains(p)) {
        const double ms = m_layout.timeForX(p.x()) * 1000.0;
        return ms <= m_model.bandEndMs() ? m_model.describeBreaker(band, m_model.breakers().segmentAt(band, ms), *m_session)
                                         : QString();
    }
    const auto hit = hitAt(pos);
    return hit ? m_model.describe(*hit, *m_session) : QString();
}

void TimelineView::selectAttempt(int runId, int index)
{
    const int lane = m_session->runIndex(runId);
    if (lane < 0)
        return;
    m_selectedRun = runId;
    m_selectedAttempt = index;
    m_item->setSelection(lane, index);
    const auto span = m_model.attemptSpan(lane, index);
    if (!span)
        return;
    m_follow->setChecked(false);
    const double a = span->first / 1000.0;
    const double b = span->second / 1000.0;
    if (a < m_layout.t0 || b > m_layout.t1) {
        const double width = std::max(m_layout.t1 - m_layout.t0, (b - a) * 1.5);
        m_layout.t0 = (a + b) / 2 - width / 2;
        m_layout.t1 = m_layout.t0 + width;
    }
    if (lane < m_layout.laneTop || lane + 1 > m_layout.laneTop + m_layout.visibleLanes())
        m_layout.laneTop = lane + 0.5 - m_layout.visibleLanes() / 2;
    applyLayout();
}

void TimelineView::clearSelection()
{
    m_selectedRun = 0;
    m_item->setSelection(-1, 0);
}

namespace {

// TEXT as the tooltip for E over VIEWPORT, or none when it is empty (leaving the last one up would mislead).
void showToolTip(const QHelpEvent* e, const QString& text, QWidget* viewport)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPos(), text, viewport);
}

} // namespace

// The bands zoom and pan the time axis as the lanes do (the two share it), and tell a bucket's values on
// hover; QChartView's own mouse handling is not wanted.
bool TimelineView::bandsEvent(QEvent* event)
{
    switch (event->type()) {
    case QEvent::MouseButtonDblClick:
        resetZoom();
        return true;
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        const std::optional<double> at = m_bands->timeAt(e->position().toPoint());
        const int delta = e->angleDelta().y();
        if (!at || delta == 0)
            return true;
        m_follow->setChecked(false);
        m_layout = m_layout.zoomedX(std::pow(1.0015, delta), m_layout.xForTime(*at));
        applyLayout();
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() == Qt::LeftButton) {
            m_lastDragPos = e->position().toPoint();
            m_dragging = true;
            m_bands->viewport()->setCursor(Qt::ClosedHandCursor);
        }
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (!m_dragging || !(e->buttons() & Qt::LeftButton))
            return true;
        const QPoint pos = e->position().toPoint();
        const double seconds = (pos.x() - m_lastDragPos.x()) * m_bands->secondsPerPixel();
        m_lastDragPos = pos;
        if (seconds == 0 || m_layout.secondsPerPixel() <= 0)
            return true;
        m_follow->setChecked(false);
        m_layout = m_layout.panned(seconds / m_layout.secondsPerPixel(), 0);
        applyLayout();
        return true;
    }
    case QEvent::MouseButtonRelease:
        m_dragging = false;
        m_bands->viewport()->unsetCursor();
        return true;
    case QEvent::ToolTip: {
        auto* e = static_cast<QHelpEvent*>(event);
        showToolTip(e, m_bands->describeAt(e->pos()), m_bands->viewport());
        return true;
    }
    default:
        return false;
    }
}

bool TimelineView::eventFilter(QObject* watched, QEvent* event)
{
    if (m_bands && watched == m_bands->viewport())
        return bandsEvent(event);
    if (watched != m_chartView->viewport())
        return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        const QPoint delta = e->angleDelta();
        m_follow->setChecked(false);
        if (e->modifiers() & Qt::ShiftModifier || std::abs(delta.x()) > std::abs(delta.y()))
            m_layout.laneTop -= (delta.y() + delta.x()) / 120.0 * 3;
        else
            m_layout = m_layout.zoomedX(std::pow(1.0015, delta.y()), toPlot(e->position().toPoint()).x());
        applyLayout();
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton)
            return false;
        m_pressPos = m_lastDragPos = e->position().toPoint();
        m_dragging = false;
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (!(e->buttons() & Qt::LeftButton))
            return false;
        const QPoint pos = e->position().toPoint();
        if (!m_dragging && (pos - m_pressPos).manhattanLength() < kDragThreshold)
            return true;
        if (!m_dragging)
            m_chartView->viewport()->setCursor(Qt::ClosedHandCursor);
        m_dragging = true;
        m_follow->setChecked(false);
        const QPoint d = pos - m_lastDragPos;
        m_lastDragPos = pos;
        m_layout = m_layout.panned(d.x(), d.y());
        applyLayout();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton)
            return false;
        m_chartView->viewport()->unsetCursor();
        if (!m_dragging) {
            const auto hit = hitAt(e->position().toPoint());
            const bool attempt = hit && (hit->mark.kind == TimelineMark::Kind::Phase || hit->mark.kind == TimelineMark::Kind::Refused);
            if (attempt && hit->lane < m_session->runs().size()) {
                const int runId = m_session->runs().runId(hit->lane);
                m_selectedRun = runId;
                m_selectedAttempt = hit->mark.attempt;
                m_item->setSelection(hit->lane, hit->mark.attempt);
                emit attemptSelected(runId, hit->mark.attempt);
            }
        }
        m_dragging = false;
        return true;
    }
    case QEvent::MouseButtonDblClick:
        resetZoom();
        return true;
    case QEvent::ToolTip: {
        auto* e = static_cast<QHelpEvent*>(event);
        showToolTip(e, toolTipAt(e->pos()), m_chartView->viewport());
        return true;
    }
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}
