// SPDX-License-Identifier: GPL-3.0-or-later
#include "previews/delaypreview.h"

#include "live/chartpalette.h"
#include "live/timelinelayout.h"
#include "previews/delaydistribution.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QChartView* viewOf(QChart* chart, QWidget* parent)
{
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(110);
    return view;
}

QChart* newChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

} // namespace

DelayPreview::DelayPreview(QWidget* parent)
    : QWidget(parent)
    , m_bandChart(newChart(tr("Wait before each retry (s)")))
    , m_histChart(newChart(tr("10 000 sampled waits")))
    , m_upper(new QLineSeries(this))
    , m_lower(new QLineSeries(this))
    , m_mean(new QLineSeries)
    , m_band(new QAreaSeries(m_upper, m_lower))
    , m_histTop(new QLineSeries(this))
    , m_histBase(new QLineSeries(this))
    , m_hist(new QAreaSeries(m_histTop, m_histBase))
    , m_bandX(new QValueAxis)
    , m_bandY(new QValueAxis)
    , m_histX(new QValueAxis)
    , m_histY(new QValueAxis)
    , m_caption(new QLabel(this))
{
    m_band->setName(tr("min – max"));
    m_mean->setName(tr("mean of samples"));
    m_bandChart->addSeries(m_band);
    m_bandChart->addSeries(m_mean);
    m_bandX->setTitleText(tr("retry"));
    m_bandX->setLabelFormat(u"%d"_s);
    m_bandY->setLabelFormat(u"%.1f"_s);
    m_bandChart->addAxis(m_bandX, Qt::AlignBottom);
    m_bandChart->addAxis(m_bandY, Qt::AlignLeft);
    for (QAbstractSeries* s : { static_cast<QAbstractSeries*>(m_band), static_cast<QAbstractSeries*>(m_mean) }) {
        s->attachAxis(m_bandX);
        s->attachAxis(m_bandY);
    }

    // An outline on a value axis in seconds: its labels are the delays, as few as fit (a side panel has no
    // room for 24 bin labels).
    m_hist->setName(tr("waits"));
    m_histChart->addSeries(m_hist);
    m_histChart->legend()->hide();
    m_histY->setLabelFormat(u"%d"_s);
    m_histX->setTitleText(tr("wait (s)"));
    m_histChart->addAxis(m_histX, Qt::AlignBottom);
    m_histChart->addAxis(m_histY, Qt::AlignLeft);
    m_hist->attachAxis(m_histX);
    m_hist->attachAxis(m_histY);

    m_caption->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(viewOf(m_bandChart, this), 1);
    layout->addWidget(viewOf(m_histChart, this), 1);
    layout->addWidget(m_caption);
    applyPalette();
}

void DelayPreview::applyPalette()
{
    const ChartPalette colours = ChartPalette::fromPalette(palette());
    applyChartPalette(m_bandChart, colours);
    applyChartPalette(m_histChart, colours);
    m_band->setColor(colours.band);
    m_band->setBorderColor(colours.envelope);
    QPen meanPen(colours.text);
    meanPen.setWidthF(1.5);
    meanPen.setStyle(Qt::DashLine);
    m_mean->setPen(meanPen);
    m_hist->setBrush(colours.backoffWait);
    m_hist->setPen(QPen(colours.backoffWait.darker(120), 1));
}

void DelayPreview::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QWidget::changeEvent(event);
}

void DelayPreview::setDistribution(const DelayDistribution& d)
{
    QList<QPointF> upper;
    QList<QPointF> lower;
    QList<QPointF> mean;
    double top = 0.001;
    for (const DelayDistribution::Band& b : d.bands) {
        upper << QPointF(b.retry, b.highMs / 1000.0);
        lower << QPointF(b.retry, b.lowMs / 1000.0);
        mean << QPointF(b.retry, b.meanMs / 1000.0);
        top = std::max(top, b.highMs / 1000.0);
    }
    m_upper->replace(upper);
    m_lower->replace(lower);
    m_mean->replace(mean);
    const int n = int(std::max<qsizetype>(1, d.bands.size()));
    m_bandX->setRange(1, std::max(2, n));
    m_bandX->setTickCount(std::min(n, 10) < 2 ? 2 : std::min(n, 10));
    m_bandY->setRange(0, top * 1.05);
    m_bandY->applyNiceNumbers();

    QList<QPointF> outline { QPointF(0, 0) };
    QList<QPointF> base;
    const double width = d.binWidthMs / 1000.0;
    int most = 1;
    for (qsizetype i = 0; i < d.histogram.size(); ++i) {
        outline << QPointF(double(i) * width, d.histogram.at(i)) << QPointF(double(i + 1) * width, d.histogram.at(i));
        most = std::max(most, d.histogram.at(i));
    }
    outline << QPointF(double(d.histogram.size()) * width, 0);
    base << QPointF(0, 0) << QPointF(double(d.histogram.size()) * width, 0);
    m_histTop->replace(outline);
    m_histBase->replace(base);
    const double span = std::max(0.001, double(d.histogram.size()) * width);
    const double step = niceTickStep(span, 4);
    m_histX->setTickType(QValueAxis::TicksDynamic);
    m_histX->setTickAnchor(0);
    m_histX->setTickInterval(step);
    m_histX->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(step)));
    m_histX->setRange(0, span);
    m_histY->setRange(0, most * 1.05);
    m_histY->applyNiceNumbers();
    m_histChart->setTitle(tr("%1 sampled waits, 0 – %2 s in %3 bins")
                              .arg(QLocale().toString(d.samples))
                              .arg(d.binWidthMs * double(d.histogram.size()) / 1000.0, 0, 'f', 2)
                              .arg(d.histogram.size()));

    m_caption->setText(tr("Sampled over whole retry sequences 1–%2 with a fixed seed; the longest wait was %3 s.")
                           .arg(d.bands.size())
                           .arg(d.maxSampleMs / 1000.0, 0, 'f', 2));
}
