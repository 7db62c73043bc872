// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/charts/herdchartstack.h"

#include "herd/charts/herdchart.h"
#include "herd/charts/herdpolicycolor.h"
#include "herd/herdtotalsmodel.h"

#include "live/chartpalette.h"
#include "live/legendstrip.h"
#include "live/placeholderlabel.h"

#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>

#include <QEvent>
#include <QLocale>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

double sampleValue(const HerdSample& s, int measure)
{
    switch (HerdChartStack::Measure(measure)) {
    case HerdChartStack::Offered: return s.offered;
    case HerdChartStack::Goodput: return s.goodput;
    case HerdChartStack::Attempts: return s.attempts;
    case HerdChartStack::Queue: return s.queue;
    case HerdChartStack::BreakerOpen: return s.breakerOpen;
    case HerdChartStack::MeasureCount: break;
    }
    return NAN;
}

double seconds(Millis ms)
{
    return double(ms.count()) / 1000.0;
}

} // namespace

HerdChartStack::HerdChartStack(QWidget* parent)
    : QWidget(parent)
    , m_legend(new LegendStrip)
    , m_placeholder(new PlaceholderLabel(tr("Pick an experiment, or build one, and press Run: the charts of each policy appear here.")))
    , m_page(new QWidget)
    , m_stack(new QStackedWidget(this))
    , m_align(new QTimer(this))
{
    setObjectName(u"HerdChartStack"_s);
    const QString titles[MeasureCount] = { tr("Offered load (new requests/s)"), tr("Goodput (successes/s)"),
        tr("Attempts reaching the server (/s)"), tr("Queue (requests waiting)"), tr("Breaker open (% of processes)") };
    auto* column = new QVBoxLayout(m_page);
    column->setContentsMargins(6, 4, 6, 0);
    column->setSpacing(0);
    column->addWidget(m_legend);
    const int least = fontMetrics().height() * 5;
    for (int m = 0; m < MeasureCount; ++m) {
        auto* chart = new HerdChart(titles[m], m == BreakerOpen, m_page);
        chart->setMinimumHeight(least);
        chart->setTimeLabelsVisible(false);
        connect(chart, &HerdChart::resized, m_align, qOverload<>(&QTimer::start));
        column->addWidget(chart, 1);
        m_charts.append(chart);
    }
    m_charts.last()->setTimeLabelsVisible(true);
    m_charts.last()->setMinimumHeight(least + fontMetrics().height());

    // A short window scrolls the charts rather than squeezing them flat.
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    // Plot areas are aligned once the charts have their sizes: coalesced, after the layouts ran.
    m_align->setSingleShot(true);
    m_align->setInterval(0);
    connect(m_align, &QTimer::timeout, this, &HerdChartStack::alignPlotAreas);
    applyPalette();
}

void HerdChartStack::setPlaceholderText(const QString& text)
{
    m_placeholder->setText(text);
}

QList<HerdChartBand> HerdChartStack::triggerBands(const HerdExperiment& e)
{
    QList<HerdChartBand> bands;
    const QLocale locale;
    const HerdServerModel& s = e.server;
    if (s.outage) {
        QString answer;
        switch (s.outageAnswer) {
        case HerdOutageAnswer::Status: answer = QString::number(s.outageStatus); break;
        case HerdOutageAnswer::Reset: answer = tr("resets"); break;
        case HerdOutageAnswer::Refuse: answer = tr("refused"); break;
        case HerdOutageAnswer::Hang: answer = tr("no answer"); break;
        }
        bands.append({ seconds(s.outage->start), seconds(s.outage->end()), tr("outage (%1)").arg(answer) });
    }
    if (s.cut)
        bands.append({ seconds(s.cut->start), seconds(s.cut->end()),
            tr("capacity cut to %1 %").arg(locale.toString(s.cutFraction * 100.0, 'f', 0)) });
    if (s.latencySpike)
        bands.append({ seconds(s.latencySpike->start), seconds(s.latencySpike->end()),
            tr("latency +%1").arg(HerdTotalsModel::formatDuration(s.latencySpikeMs)) });
    if (e.clients.loop == HerdClientModel::Loop::Open && e.clients.spike)
        bands.append({ seconds(e.clients.spike->start), seconds(e.clients.spike->end()),
            tr("load spike %1/s").arg(locale.toString(e.clients.spikeRate, 'f', 0)) });
    return bands;
}

void HerdChartStack::showResult(const HerdResult& result, const HerdExperiment& experiment)
{
    m_result = result;
    m_experiment = experiment;
    m_hasResult = true;
    const bool dark = ChartPalette::fromPalette(palette()).dark;
    QList<QColor> colors;
    QStringList names;
    QList<LegendStrip::Entry> entries;
    double span = seconds(experiment.duration);
    for (qsizetype i = 0; i < result.results.size(); ++i) {
        const HerdPolicyResult& r = result.results.at(i);
        colors << herdPolicyColor(int(i), dark);
        names << r.label;
        entries.append({ LegendStrip::Swatch::Line, colors.last(), r.label });
        span = std::max(span, seconds(r.series.resolution) * double(r.series.samples.size()));
    }
    const QList<HerdChartBand> bands = triggerBands(experiment);
    if (!bands.isEmpty())
        entries.append({ LegendStrip::Swatch::Band, ChartPalette::fromPalette(palette()).failure, tr("trigger window") });
    QList<HerdChartMarker> markers;
    for (qsizetype i = 0; i < result.results.size(); ++i) {
        const HerdPolicyResult& r = result.results.at(i);
        if (r.collapsedAt) {
            markers.append({ seconds(*r.collapsedAt), colors.at(i),
                tr("collapsed at %1").arg(HerdTotalsModel::formatMoment(double(r.collapsedAt->count()))) });
        }
    }
    if (!markers.isEmpty())
        entries.append({ LegendStrip::Swatch::DashedLine, ChartPalette::fromPalette(palette()).mutedText, tr("collapse") });
    m_legend->setEntries(entries);

    bool anyBreaker = false;
    for (int m = 0; m < MeasureCount; ++m) {
        QList<QList<QPointF>> lines;
        for (const HerdPolicyResult& r : result.results) {
            QList<QPointF> points;
            points.reserve(r.series.samples.size());
            const double step = seconds(r.series.resolution);
            for (qsizetype k = 0; k < r.series.samples.size(); ++k) {
                const double v = sampleValue(r.series.samples.at(k), m);
                if (std::isfinite(v)) // the breaker share is NaN without a breaker: no point, not zero
                    points.append({ double(k) * step, v });
            }
            if (m == BreakerOpen && !points.isEmpty())
                anyBreaker = true;
            lines.append(points);
        }
        HerdChart* chart = m_charts.at(m);
        chart->setTimeRange(span);
        chart->setLines(lines, colors, names);
        chart->overlay()->setBands(bands, m == Offered);
        chart->overlay()->setMarkers(markers, m == Goodput);
    }
    // Without a breaker the last chart goes, and the queue's takes the time labels.
    m_charts.at(BreakerOpen)->setVisible(anyBreaker);
    m_charts.at(Queue)->setTimeLabelsVisible(!anyBreaker);
    m_charts.at(BreakerOpen)->setTimeLabelsVisible(anyBreaker);
    const int least = fontMetrics().height() * 5;
    m_charts.at(Queue)->setMinimumHeight(anyBreaker ? least : least + fontMetrics().height());
    m_stack->setCurrentIndex(1);
    m_align->start();
}

void HerdChartStack::clear()
{
    m_hasResult = false;
    m_result = HerdResult();
    m_experiment = HerdExperiment();
    for (HerdChart* chart : std::as_const(m_charts)) {
        chart->setLines({}, {}, {});
        chart->overlay()->setBands({}, false);
        chart->overlay()->setMarkers({}, false);
    }
    m_legend->setEntries({});
    m_stack->setCurrentIndex(0);
}

void HerdChartStack::alignPlotAreas()
{
    // Qt Charts sizes each plot by its own labels ("0.5" is narrower than "1,500", and only the bottom chart
    // has time labels reaching past the plot's right edge): each chart gets extra margins that bring its plot
    // to the widest left edge and the widest right margin of them all, so one moment is one x in every chart.
    // Margins, not QChart::setPlotArea(): a fixed plot area leaves its background where the layout had put it.
    QList<HerdChart*> shown;
    for (HerdChart* chart : std::as_const(m_charts)) {
        if (chart->isVisibleTo(this) && chart->width() > 0)
            shown.append(chart);
    }
    QList<QRectF> natural;
    double left = 0;
    double right = 0;
    for (HerdChart* chart : std::as_const(shown)) {
        const QRectF area = chart->plotAreaWithMargins({});
        natural.append(area);
        left = std::max(left, area.left());
        right = std::max(right, chart->chart()->size().width() - area.right());
    }
    for (qsizetype i = 0; i < shown.size(); ++i) {
        const QRectF& area = natural.at(i);
        const int extraLeft = int(std::lround(left - area.left()));
        const int extraRight = int(std::lround(right - (shown.at(i)->chart()->size().width() - area.right())));
        if (extraLeft != 0 || extraRight != 0)
            shown.at(i)->plotAreaWithMargins(QMargins(extraLeft, 0, extraRight, 0));
    }
}

void HerdChartStack::applyPalette()
{
    const ChartPalette palette = ChartPalette::fromPalette(this->palette());
    for (HerdChart* chart : std::as_const(m_charts))
        chart->applyPalette(palette);
    if (m_hasResult) // the policies' colours are lighter on a dark palette: drawn again
        showResult(HerdResult(m_result), HerdExperiment(m_experiment));
}

void HerdChartStack::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}
