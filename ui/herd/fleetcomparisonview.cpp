// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleetcomparisonview.h"

#include "live/chartpalette.h"
#include "live/legendstrip.h"
#include "live/timelinelayout.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

// Sample I is second I: drawn at the second's middle.
QList<QPointF> perSecond(const QList<double>& values)
{
    QList<QPointF> points;
    for (qsizetype i = 0; i < values.size(); ++i)
        points << QPointF(double(i) + 0.5, values.at(i));
    return points;
}

} // namespace

FleetComparisonView::FleetComparisonView(QWidget* parent)
    : QWidget(parent)
{
    m_title = new QLabel;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton;
    close->setText(tr("Back to the Simulation"));
    close->setToolTip(tr("Hide the fleet comparison; the herd charts and table come back"));
    connect(close, &QToolButton::clicked, this, &FleetComparisonView::closeRequested);
    m_gap = new QLabel;
    m_gap->setWordWrap(true);
    m_gap->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 12, 4));
    chart->legend()->hide(); // the strip above says which line is which, and never cuts a name
    m_measuredAttempts = new QLineSeries;
    m_measuredAttempts->setName(tr("Attempts/s measured"));
    m_simulatedAttempts = new QLineSeries;
    m_simulatedAttempts->setName(tr("Attempts/s simulated"));
    m_measuredGoodput = new QLineSeries;
    m_measuredGoodput->setName(tr("Goodput/s measured"));
    m_simulatedGoodput = new QLineSeries;
    m_simulatedGoodput->setName(tr("Goodput/s simulated"));
    m_time = new QValueAxis;
    m_time->setTitleText(tr("Time since the fleet started (s)"));
    m_value = new QValueAxis;
    m_value->setTitleText(tr("per second"));
    m_value->setLabelFormat(u"%.0f"_s);
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_value, Qt::AlignLeft);
    for (QLineSeries* s : series()) {
        chart->addSeries(s);
        s->attachAxis(m_time);
        s->attachAxis(m_value);
    }
    m_view = new QChartView(chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setFrameShape(QFrame::NoFrame);
    m_legend = new LegendStrip;

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_title, 1);
    top->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addLayout(top);
    layout->addWidget(m_gap);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);
    applyPalette();
}

QList<QLineSeries*> FleetComparisonView::series() const
{
    return { m_measuredAttempts, m_simulatedAttempts, m_measuredGoodput, m_simulatedGoodput };
}

void FleetComparisonView::setResult(const FleetComparisonResult& result, const QString& source)
{
    m_result = result;
    const QString name = QFileInfo(source).fileName();
    m_title->setText(result.policy.isEmpty() ? tr("Fleet measured against the herd simulation — %1").arg(name)
                                             : tr("Fleet measured against the herd simulation: %1 — %2").arg(result.policy, name));
    m_gap->setText(result.gapText());
    m_measuredAttempts->replace(perSecond(result.measured.attemptsSeries));
    m_simulatedAttempts->replace(perSecond(result.simulated.attemptsSeries));
    m_measuredGoodput->replace(perSecond(result.measured.goodputSeries));
    m_simulatedGoodput->replace(perSecond(result.simulated.goodputSeries));
    double high = 1;
    qsizetype seconds = 1;
    for (const QList<double>* s : { &result.measured.attemptsSeries, &result.simulated.attemptsSeries,
             &result.measured.goodputSeries, &result.simulated.goodputSeries }) {
        seconds = std::max(seconds, s->size());
        for (const double v : *s)
            high = std::max(high, v);
    }
    const double step = niceTickStep(high, 5);
    m_value->setRange(0, std::ceil(high * 1.08 / step) * step);
    m_value->setTickCount(int(std::ceil(high * 1.08 / step)) + 1);
    m_time->setRange(0, double(seconds));
    m_time->setTickType(QValueAxis::TicksDynamic);
    m_time->setTickAnchor(0);
    m_time->setTickInterval(niceTickStep(double(seconds), 10));
    m_time->setLabelFormat(u"%.0f"_s);
}

void FleetComparisonView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void FleetComparisonView::applyPalette()
{
    const ChartPalette p = ChartPalette::fromPalette(palette());
    applyChartPalette(m_view->chart(), p);
    m_view->chart()->legend()->setLabelColor(p.text);
    const auto pen = [](const QColor& c, Qt::PenStyle style) {
        QPen line(c, 2.2);
        line.setStyle(style);
        return line;
    };
    m_measuredAttempts->setPen(pen(p.firstByte, Qt::SolidLine));
    m_simulatedAttempts->setPen(pen(p.serverWait, Qt::DashLine));
    m_measuredGoodput->setPen(pen(p.success, Qt::SolidLine));
    m_simulatedGoodput->setPen(pen(p.tls, Qt::DashLine));
    using S = LegendStrip::Swatch;
    m_legend->setEntries({ { S::Line, p.firstByte, m_measuredAttempts->name() },
        { S::DashedLine, p.serverWait, m_simulatedAttempts->name() }, { S::Line, p.success, m_measuredGoodput->name() },
        { S::DashedLine, p.tls, m_simulatedGoodput->name() } });
}
