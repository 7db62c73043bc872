// SPDX-License-Identifier: GPL-3.0-or-later
#include "delaychartview.h"

#include "livesession.h"
#include "live/legendstrip.h"
#include "sessions/chartexport.h"
#include "live/placeholderlabel.h"
#include "live/timelinelayout.h"
#include "live/wholesessiondelta.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QEvent>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxEnvelopeRetries = 12;

QList<QPointF> newest(const QList<QPointF>& points, qsizetype max)
{
    return points.size() <= max ? points : points.mid(points.size() - max);
}

// A chart with its legend above it, as a strip that wraps rather than cuts long names.
QWidget* pageFor(QChart* chart, LegendStrip* legend)
{
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setFrameShape(QFrame::NoFrame);
    chart->legend()->hide();
    auto* page = new QWidget;
    auto* column = new QVBoxLayout(page);
    column->setContentsMargins(8, 6, 8, 0);
    column->setSpacing(2);
    column->addWidget(legend);
    column->addWidget(view, 1);
    return page;
}

// Counts per bin as the outline of a histogram: (k·w, 0) (k·w, n) ((k+1)·w, n) … on a value axis.
QList<QPointF> histogramOutline(const QList<int>& counts, const QList<int>& base, double width)
{
    QList<QPointF> out;
    out.reserve(counts.size() * 2 + 2);
    out.append(QPointF(0, base.value(0)));
    for (qsizetype k = 0; k < counts.size(); ++k) {
        const double y = counts.at(k) + base.value(k);
        out.append({ k * width, y });
        out.append({ (k + 1) * width, y });
    }
    out.append(QPointF(double(counts.size()) * width, base.value(counts.size() - 1)));
    return out;
}

} // namespace

DelayChartView::DelayChartView(LiveSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_palette = ChartPalette::fromPalette(palette());
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_scatterLegend = new LegendStrip;
    m_histLegend = new LegendStrip;
    m_tabs->addTab(pageFor(buildScatterChart(), m_scatterLegend), tr("Delay per retry"));
    m_tabs->addTab(pageFor(buildHistogramChart(), m_histLegend), tr("Histogram"));
    ChartExport::markControl(m_tabs->tabBar()); // an exported picture shows the chart, not the tabs
    m_stack = new QStackedWidget;
    m_stack->addWidget(new PlaceholderLabel(tr("Press Run to see attempts\n(each wait before a retry appears here)")));
    m_stack->addWidget(m_tabs);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    connect(m_tabs, &QTabWidget::currentChanged, this, &DelayChartView::push);
    connect(m_session, &LiveSession::refreshed, this, &DelayChartView::onRefreshed);
    connect(m_session, &LiveSession::cleared, this, &DelayChartView::onCleared);
    applyPalette();
    onRefreshed(wholeSessionDelta(*m_session));
}

QChart* DelayChartView::buildScatterChart()
{
    m_scatterChart = new QChart;
    m_backoff = new QScatterSeries;
    m_backoff->setName(tr("Delay chosen by the backoff"));
    m_server = new QScatterSeries;
    m_server->setName(tr("Delay the server asked for (Retry-After, hints, throttle)"));
    m_ceiling = new QLineSeries;
    m_ceiling->setName(tr("Policy ceiling (before jitter)"));
    m_bandLow = new QLineSeries(this);
    m_bandHigh = new QLineSeries(this);
    m_band = new QAreaSeries(m_bandHigh, m_bandLow);
    m_band->setName(tr("Jitter range of the policy"));
    m_retryAxis = new QValueAxis;
    m_retryAxis->setTitleText(tr("Retry number (the wait after attempt n)"));
    m_retryAxis->setTickType(QValueAxis::TicksDynamic);
    m_retryAxis->setTickAnchor(1);
    m_retryAxis->setTickInterval(1);
    m_retryAxis->setLabelFormat(u"%.0f"_s);
    m_delayAxis = new QValueAxis;
    m_delayAxis->setTitleText(tr("Delay (s)"));
    m_scatterChart->addAxis(m_retryAxis, Qt::AlignBottom);
    m_scatterChart->addAxis(m_delayAxis, Qt::AlignLeft);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_band, m_ceiling, m_backoff, m_server }) {
        m_scatterChart->addSeries(s);
        s->attachAxis(m_retryAxis);
        s->attachAxis(m_delayAxis);
    }
    return m_scatterChart;
}

QChart* DelayChartView::buildHistogramChart()
{
    m_histChart = new QChart;
    // Stacked as areas on a value axis in seconds, so the bins' edges are labelled like any axis.
    m_histBackoffTop = new QLineSeries(this);
    m_histBackoffBase = new QLineSeries(this);
    m_histServerTop = new QLineSeries(this);
    m_histServerBase = new QLineSeries(this);
    m_histBackoff = new QAreaSeries(m_histBackoffTop, m_histBackoffBase);
    m_histBackoff->setName(tr("Chosen by the backoff"));
    m_histServer = new QAreaSeries(m_histServerTop, m_histServerBase);
    m_histServer->setName(tr("Asked for by the server (Retry-After, hints, throttle)"));
    m_binAxis = new QValueAxis;
    m_binAxis->setTitleText(tr("Delay (s)"));
    m_countAxis = new QValueAxis;
    m_countAxis->setTitleText(tr("Waits"));
    m_countAxis->setLabelFormat(u"%.0f"_s);
    m_histChart->addAxis(m_binAxis, Qt::AlignBottom);
    m_histChart->addAxis(m_countAxis, Qt::AlignLeft);
    for (QAreaSeries* area : { m_histBackoff, m_histServer }) {
        m_histChart->addSeries(area);
        area->attachAxis(m_binAxis);
        area->attachAxis(m_countAxis);
    }
    return m_histChart;
}

void DelayChartView::applyPalette()
{
    m_palette = ChartPalette::fromPalette(palette());
    const ChartPalette& p = m_palette;
    for (QChart* chart : { m_scatterChart, m_histChart })
        applyChartPalette(chart, p);
    // Markers without an outline: Qt Charts paints each marker as a graphics item, and stroking an
    // antialiased outline around 1 500 of them was half of the chart's repaint (bench_ui, delays only:
    // event-loop stall p99 15.8 -> 8.9 ms). The markers spread across their retry number, so they stay apart.
    m_backoff->setColor(p.firstByte);
    m_backoff->setPen(QPen(Qt::NoPen));
    m_backoff->setMarkerSize(9);
    m_server->setColor(p.serverWait);
    m_server->setPen(QPen(Qt::NoPen));
    m_server->setMarkerSize(10);
    m_server->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_ceiling->setPen(QPen(p.envelope, 2, Qt::DashLine));
    QColor band = p.firstByte;
    band.setAlphaF(p.dark ? 0.32f : 0.22f);
    m_band->setBrush(band);
    m_band->setPen(QPen(Qt::NoPen));
    m_histBackoff->setBrush(p.firstByte);
    m_histBackoff->setPen(QPen(p.firstByte.darker(115), 1));
    m_histServer->setBrush(p.serverWait);
    m_histServer->setPen(QPen(p.serverWait.darker(115), 1));
    updateLegends();
}

void DelayChartView::updateLegends()
{
    const ChartPalette& p = m_palette;
    using S = LegendStrip::Swatch;
    QColor band = p.firstByte;
    band.setAlphaF(p.dark ? 0.32f : 0.22f);
    m_scatterLegend->setEntries({ { S::Circle, p.firstByte, m_backoff->name() }, { S::Square, p.serverWait, m_server->name() },
        { S::DashedLine, p.envelope, m_ceiling->name() }, { S::Band, p.firstByte, m_band->name() } });
    m_histLegend->setEntries({ { S::Bar, p.firstByte, m_histBackoff->name() }, { S::Bar, p.serverWait, m_histServer->name() } });
}

QStringList DelayChartView::legendNames() const
{
    return m_scatterLegend->labels() + m_histLegend->labels();
}

void DelayChartView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        push();
    }
}

void DelayChartView::onRefreshed(const LiveSessionDelta& delta)
{
    const WaitStore& waits = m_session->waits();
    for (qsizetype i = delta.waitsBefore; i < delta.waitsAfter && i < waits.size(); ++i)
        m_data.add(waits.at(i));
    if (m_session->lastPolicy() && (!m_policy || !(*m_policy == *m_session->lastPolicy()))) {
        m_policy = m_session->lastPolicy();
        m_envelopeRetries = 0; // redraw the envelope for the new policy
        const QString name = m_policy->name.isEmpty() ? tr("policy") : m_policy->name;
        m_ceiling->setName(tr("Ceiling of %1 (before jitter)").arg(name));
        m_band->setName(tr("Jitter range of %1").arg(name));
        updateLegends();
    }
    const bool changed = delta.waitsAfter > delta.waitsBefore || delta.runsAfter > delta.runsBefore;
    if (!m_session->runs().isEmpty())
        m_stack->setCurrentIndex(1);
    if (changed || delta.runsAfter == 0)
        schedulePush();
}

void DelayChartView::onCleared()
{
    m_data.clear();
    m_policy.reset();
    m_envelopeRetries = 0;
    m_ceiling->setName(tr("Policy ceiling (before jitter)"));
    m_band->setName(tr("Jitter range of the policy"));
    updateLegends();
    m_stack->setCurrentIndex(0);
    push();
}

void DelayChartView::schedulePush()
{
    m_pacer.request();
}

void DelayChartView::push()
{
    m_pacer.pushing(!m_session->runs().isEmpty());
    const int policyRetries = m_policy ? std::clamp(m_policy->maxRetries(), 1, kMaxEnvelopeRetries) : 1;
    const int retries = std::max(m_data.maxRetry(), policyRetries);
    if (retries != m_envelopeRetries) {
        const DelayEnvelope e = m_policy ? delayEnvelope(*m_policy, retries) : DelayEnvelope {};
        m_ceiling->replace(e.ceiling);
        m_bandLow->replace(e.bandLow);
        m_bandHigh->replace(e.bandHigh);
        m_envelopeMax = e.maxSeconds;
        m_envelopeRetries = retries;
    }
    if (m_tabs->currentIndex() == 0) {
        m_backoff->replace(newest(m_data.backoffPoints(), kMaxShownPoints));
        m_server->replace(newest(m_data.serverPoints(), kMaxShownPoints));
        m_retryAxis->setRange(0.5, retries + 0.5);
        const double top = std::max({ m_data.maxDelaySeconds(), m_envelopeMax, 0.1 }) * 1.08;
        const double step = niceTickStep(top, 6);
        m_delayAxis->setTickType(QValueAxis::TicksDynamic);
        m_delayAxis->setTickAnchor(0);
        m_delayAxis->setTickInterval(step);
        m_delayAxis->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(step)));
        m_delayAxis->setRange(0, std::ceil(top / step) * step);
    } else {
        const DelayHistogram h = delayHistogram(m_data.backoffDelays(), m_data.serverDelays(), 16);
        const QList<int> none(h.backoff.size(), 0);
        m_histBackoffTop->replace(histogramOutline(h.backoff, none, h.binWidth));
        m_histBackoffBase->replace(histogramOutline(none, none, h.binWidth));
        m_histServerTop->replace(histogramOutline(h.server, h.backoff, h.binWidth));
        m_histServerBase->replace(histogramOutline(none, h.backoff, h.binWidth));
        m_histBins = int(h.backoff.size());
        m_histTotal = 0;
        int top = 1;
        for (qsizetype i = 0; i < h.backoff.size(); ++i) {
            top = std::max(top, h.backoff.at(i) + h.server.at(i));
            m_histTotal += h.backoff.at(i) + h.server.at(i);
        }
        const double span = std::max(1, m_histBins) * (h.binWidth > 0 ? h.binWidth : 1.0);
        const double xStep = std::max(h.binWidth, niceTickStep(span, 8));
        m_binAxis->setTickType(QValueAxis::TicksDynamic);
        m_binAxis->setTickAnchor(0);
        m_binAxis->setTickInterval(xStep);
        m_binAxis->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(xStep)));
        m_binAxis->setRange(0, std::ceil(span / xStep - 1e-9) * xStep);
        const double step = std::max(1.0, niceTickStep(top, 5));
        m_countAxis->setTickType(QValueAxis::TicksDynamic);
        m_countAxis->setTickAnchor(0);
        m_countAxis->setTickInterval(step);
        m_countAxis->setRange(0, std::ceil(top * 1.08 / step) * step);
    }
}

int DelayChartView::backoffPointCount() const { return int(m_backoff->count()); }
int DelayChartView::serverPointCount() const { return int(m_server->count()); }
int DelayChartView::pointCount() const { return backoffPointCount() + serverPointCount(); }
int DelayChartView::envelopePointCount() const { return int(m_ceiling->count()); }
int DelayChartView::histogramBinCount() const { return m_histBins; }
int DelayChartView::histogramTotal() const { return m_histTotal; }

bool DelayChartView::isShowingPlaceholder() const
{
    return m_stack->currentIndex() == 0;
}
