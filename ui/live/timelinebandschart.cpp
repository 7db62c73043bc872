// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinebandschart.h"

#include "live/timelinelayout.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QLocale>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

// A bucket's value held over its width: two points per bucket.
QList<QPointF> steps(const TimelineAggregate& a, const QList<double>& values)
{
    QList<QPointF> points;
    points.reserve(values.size() * 2);
    for (qsizetype i = 0; i < values.size(); ++i) {
        points << QPointF(a.bucketStart(i), values.at(i)) << QPointF(a.bucketStart(i + 1), values.at(i));
    }
    return points;
}

double niceCeiling(double high)
{
    const double step = niceTickStep(std::max(1.0, high), 5);
    return std::max(step, std::ceil(high * 1.08 / step) * step);
}

} // namespace

// The chart goes to QChartView's constructor: one made without it has a chart of its own, which setChart()
// would release but not delete (LeakSanitizer, as for HerdChart).
TimelineBandsChart::TimelineBandsChart(QWidget* parent)
    : QChartView(new QChart, parent)
{
    QChart* chart = this->chart();
    chart->setMargins(QMargins(4, 4, 8, 4));
    chart->legend()->hide(); // the timeline's legend strip names the bands
    // Attempts as a filled area, goodput as a line over it: where every attempt succeeds the two meet and
    // both stay visible.
    m_attempts = new QLineSeries(this);
    m_attemptsArea = new QAreaSeries(m_attempts);
    m_attemptsArea->setName(tr("Attempts/s"));
    m_goodput = new QLineSeries;
    m_goodput->setName(tr("Goodput/s"));
    m_waiting = new QLineSeries;
    m_waiting->setName(tr("Runs waiting (right axis)"));
    chart->addSeries(m_attemptsArea);
    chart->addSeries(m_goodput);
    chart->addSeries(m_waiting);
    m_time = new QValueAxis;
    m_time->setTitleText(tr("Time since the session started (s)"));
    m_rate = new QValueAxis;
    m_rate->setTitleText(tr("per second"));
    m_rate->setLabelFormat(u"%.0f"_s);
    m_wait = new QValueAxis;
    m_wait->setTitleText(tr("runs waiting"));
    m_wait->setLabelFormat(u"%.0f"_s);
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_rate, Qt::AlignLeft);
    chart->addAxis(m_wait, Qt::AlignRight);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_attemptsArea, m_goodput, m_waiting })
        s->attachAxis(m_time);
    m_attemptsArea->attachAxis(m_rate);
    m_goodput->attachAxis(m_rate);
    m_waiting->attachAxis(m_wait);
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    setAggregate({});
}

void TimelineBandsChart::setAggregate(const TimelineAggregate& aggregate)
{
    m_aggregate = aggregate;
    m_attempts->replace(steps(aggregate, aggregate.attemptsPerS));
    m_goodput->replace(steps(aggregate, aggregate.goodputPerS));
    m_waiting->replace(steps(aggregate, aggregate.runsWaiting));
    double rate = 1, wait = 1;
    for (qsizetype i = 0; i < aggregate.bucketCount(); ++i) {
        rate = std::max({ rate, aggregate.attemptsPerS.at(i), aggregate.goodputPerS.at(i) });
        wait = std::max(wait, aggregate.runsWaiting.at(i));
    }
    m_rate->setRange(0, niceCeiling(rate));
    m_wait->setRange(0, niceCeiling(wait));
    m_rate->applyNiceNumbers();
    m_wait->applyNiceNumbers();
}

void TimelineBandsChart::setTimeRange(double t0, double t1)
{
    if (t1 <= t0)
        return;
    const double step = niceTickStep(t1 - t0, std::max(6, int(chart()->plotArea().width() / 70)));
    m_time->setTickType(QValueAxis::TicksDynamic);
    m_time->setTickAnchor(0);
    m_time->setTickInterval(step);
    m_time->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(step)));
    m_time->setRange(t0, t1);
}

void TimelineBandsChart::applyPalette(const ChartPalette& palette)
{
    applyChartPalette(chart(), palette);
    const auto pen = [](const QColor& c, Qt::PenStyle style) {
        QPen p(c, 2);
        p.setStyle(style);
        return p;
    };
    QColor fill = palette.firstByte;
    fill.setAlphaF(0.35);
    m_attemptsArea->setBrush(fill);
    m_attemptsArea->setPen(pen(palette.firstByte, Qt::SolidLine));
    m_goodput->setPen(pen(palette.success, Qt::SolidLine));
    m_waiting->setPen(pen(palette.serverWait, Qt::DashLine));
}

std::optional<double> TimelineBandsChart::timeAt(const QPoint& viewportPos) const
{
    const QPointF inChart = chart()->mapFromScene(mapToScene(viewportPos));
    if (!chart()->plotArea().contains(inChart))
        return std::nullopt;
    return chart()->mapToValue(inChart, m_attemptsArea).x();
}

double TimelineBandsChart::secondsPerPixel() const
{
    const double width = chart()->plotArea().width();
    return width > 0 ? (m_time->max() - m_time->min()) / width : 0;
}

QString TimelineBandsChart::describeAt(const QPoint& viewportPos) const
{
    const std::optional<double> t = timeAt(viewportPos);
    if (!t || m_aggregate.bucketS <= 0 || *t < m_aggregate.startS)
        return QString();
    return describeBucket(qsizetype(std::floor((*t - m_aggregate.startS) / m_aggregate.bucketS)));
}

QString TimelineBandsChart::describeBucket(qsizetype bucket) const
{
    if (bucket < 0 || bucket >= m_aggregate.bucketCount())
        return QString();
    const QLocale locale;
    const int decimals = decimalsForStep(m_aggregate.bucketS);
    const auto rate = [&](double v) { return locale.toString(v, 'f', v >= 100 ? 0 : 1); };
    return tr("%1–%2 s\nAttempts: %3/s\nGoodput: %4/s\nRuns waiting: %5\nWheel: zoom · drag: pan · double-click: whole session")
        .arg(locale.toString(m_aggregate.bucketStart(bucket), 'f', decimals),
            locale.toString(m_aggregate.bucketStart(bucket + 1), 'f', decimals),
            rate(m_aggregate.attemptsPerS.at(bucket)), rate(m_aggregate.goodputPerS.at(bucket)),
            locale.toString(m_aggregate.runsWaiting.at(bucket), 'f', 1));
}
