// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/charts/herdchart.h"

#include "live/chartpalette.h"
#include "live/timelinelayout.h"

#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QGraphicsLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

// [0, HIGH and a little room], labelled every 1-2-5 step, about TICKS of them: a line at the top value is
// drawn whole, not halved by the plot's edge, and no empty step is added above it.
void setValueRange(QValueAxis* axis, double high, int ticks)
{
    if (!(high > 0))
        high = 1;
    const double step = niceTickStep(high, ticks);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(step)));
    axis->setRange(0, std::max(high * 1.08, step));
}

} // namespace

// The chart is handed to QChartView's constructor: one made without it creates a chart of its own, which
// setChart() would release but not delete (ASan saw it leak).
HerdChart::HerdChart(const QString& title, bool percent, QWidget* parent)
    : QChartView(new QChart, parent)
    , m_title(title)
    , m_percent(percent)
    , m_time(new QValueAxis)
    , m_value(new QValueAxis)
{
    setObjectName(title);
    QChart* c = chart();
    c->legend()->hide(); // the stack's legend strip names the policies once for all charts
    c->addAxis(m_time, Qt::AlignBottom);
    c->addAxis(m_value, Qt::AlignLeft);
    c->setLocalizeNumbers(true); // "100,000" in the user's locale, not "100000"
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    m_overlay = new HerdChartOverlay(c, m_time);
    m_overlay->setTitle(title);
    connect(c, &QChart::plotAreaChanged, this, [this] { m_overlay->relayout(); });
    connect(m_time, &QValueAxis::rangeChanged, this, [this] { m_overlay->relayout(); });
    restyle();
    setTimeRange(60);
    setValueRange(m_value, 1, 4);
}

void HerdChart::setLines(const QList<QList<QPointF>>& lines, const QList<QColor>& colors, const QStringList& names)
{
    while (m_lines.size() > lines.size()) {
        QLineSeries* gone = m_lines.takeLast();
        chart()->removeSeries(gone); // a series still in a chart must not be deleted
        delete gone;
    }
    while (m_lines.size() < lines.size()) {
        auto* s = new QLineSeries;
        chart()->addSeries(s);
        s->attachAxis(m_time);
        s->attachAxis(m_value);
        m_lines.append(s);
    }
    m_colors = colors;
    m_high = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QList<QPointF> points = lines.at(i);
        if (m_percent) {
            for (QPointF& p : points)
                p.ry() *= 100.0;
        }
        for (const QPointF& p : std::as_const(points))
            m_high = std::max(m_high, p.y());
        m_lines[i]->setName(names.value(i));
        m_lines[i]->setPen(QPen(m_colors.value(i, Qt::gray), 1.8));
        m_lines[i]->replace(points);
    }
    setValueRange(m_value, m_percent ? std::max(m_high, 10.0) : m_high, 4);
}

void HerdChart::setTimeRange(double seconds)
{
    const double span = std::max(seconds, 1.0);
    const double step = niceTickStep(span, 8);
    m_time->setTickType(QValueAxis::TicksDynamic);
    m_time->setTickAnchor(0);
    m_time->setTickInterval(step);
    // The unit in the labels ("40 s"), not in an axis title: a short bottom chart would elide its labels
    // to make room for the title.
    m_time->setLabelFormat(tr("%1 s").arg(u"%.%1f"_s.arg(decimalsForStep(step))));
    m_time->setRange(0, span);
}

void HerdChart::setTimeLabelsVisible(bool visible)
{
    m_time->setLabelsVisible(visible);
    m_time->setTitleVisible(false);
}

void HerdChart::applyPalette(const ChartPalette& palette)
{
    applyChartPalette(chart(), palette);
    QColor band = palette.failure;
    band.setAlphaF(palette.dark ? 0.24f : 0.16f);
    QColor backing = palette.plotBackground;
    backing.setAlphaF(0.7f); // the lines under a label still show through
    m_overlay->setColors(palette.text, band, backing);
    restyle(); // the theme reset the fonts and the series' pens
}

void HerdChart::restyle()
{
    QChart* c = chart();
    c->setMargins(baseMargins());
    c->setBackgroundRoundness(0);
    if (c->layout())
        c->layout()->setContentsMargins(0, 0, 0, 0);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    c->setFont(font());
    for (QValueAxis* axis : { m_time, m_value }) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
        axis->setMinorTickCount(0);
    }
    m_value->setLabelsVisible(true);
    for (qsizetype i = 0; i < m_lines.size(); ++i)
        m_lines[i]->setPen(QPen(m_colors.value(i, Qt::gray), 1.8));
}

QMargins HerdChart::baseMargins() const
{
    return QMargins(2, QFontMetrics(font()).height() + 4, 6, 2); // the top: the title's row, drawn by the overlay
}

QRectF HerdChart::plotAreaWithMargins(const QMargins& extra)
{
    chart()->setMargins(baseMargins() + extra);
    if (QGraphicsLayout* layout = chart()->layout()) {
        layout->invalidate();
        layout->activate();
    }
    return chart()->plotArea();
}

void HerdChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    emit resized();
}
