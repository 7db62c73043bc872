// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/charts/herdchartoverlay.h"

#include <QtCharts/QChart>
#include <QtCharts/QValueAxis>

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

HerdChartOverlay::HerdChartOverlay(QChart* chart, QValueAxis* timeAxis)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_axis(timeAxis)
    , m_text(Qt::black)
    , m_band(QColor(0xd6, 0x3b, 0x3b, 40))
    , m_backing(QColor(255, 255, 255, 210))
{
    setZValue(20); // over the series: the bands are translucent, the labels have a backing
    setAcceptedMouseButtons(Qt::NoButton);
}

void HerdChartOverlay::setTitle(const QString& title)
{
    m_title = title;
    relayout();
}

void HerdChartOverlay::setBands(const QList<HerdChartBand>& bands, bool labelled)
{
    m_bands = bands;
    m_bandLabels = labelled;
    relayout();
}

void HerdChartOverlay::setMarkers(const QList<HerdChartMarker>& markers, bool labelled)
{
    m_markers = markers;
    m_markerLabels = labelled;
    relayout();
}

void HerdChartOverlay::setColors(const QColor& text, const QColor& band, const QColor& backing)
{
    m_text = text;
    m_band = band;
    m_backing = backing;
    update();
}

double HerdChartOverlay::toPixel(double seconds) const
{
    const double span = m_axis->max() - m_axis->min();
    if (span <= 0)
        return m_plot.left();
    return m_plot.left() + (seconds - m_axis->min()) / span * m_plot.width();
}

void HerdChartOverlay::relayout()
{
    prepareGeometryChange();
    m_plot = m_chart->plotArea();
    place();
    update();
}

void HerdChartOverlay::place()
{
    m_labels.clear();
    if (m_plot.width() < 4 || m_plot.height() < 4)
        return;
    const QFontMetricsF fm(m_chart->font());
    QFont bold = m_chart->font();
    bold.setBold(true);
    const QFontMetricsF boldFm(bold);
    const double pad = 3;
    const double rowHeight = fm.height() + 2;
    // The first row, from the top, where the label overlaps none placed before.
    // The title sits just above the plot, in the chart's top margin; the other labels in rows inside it.
    if (!m_title.isEmpty()) {
        const QRectF rect(m_plot.left() - pad, m_plot.top() - rowHeight - 1, boldFm.horizontalAdvance(m_title) + 2 * pad, rowHeight);
        m_titleRect = rect;
    } else {
        m_titleRect = QRectF();
    }
    const auto placeAt = [&](double left, const QString& text, const QColor& color) {
        const double width = fm.horizontalAdvance(text) + 2 * pad;
        left = std::clamp(left, m_plot.left() + 1, std::max(m_plot.left() + 1, m_plot.right() - width - 1));
        for (int row = 0;; ++row) {
            const QRectF rect(left, m_plot.top() + 1 + row * rowHeight, width, rowHeight - 1);
            if (rect.bottom() > m_plot.bottom() && row > 0)
                return; // no room left: better no label than one over the axis
            const bool free = std::none_of(m_labels.cbegin(), m_labels.cend(), [&](const Placed& p) { return p.rect.intersects(rect); });
            if (free) {
                m_labels.append({ rect, text, color });
                return;
            }
        }
    };
    if (m_bandLabels) {
        for (const HerdChartBand& b : std::as_const(m_bands)) {
            if (!b.label.isEmpty())
                placeAt(toPixel(b.from) + 2, b.label, m_text);
        }
    }
    if (m_markerLabels) {
        for (const HerdChartMarker& m : std::as_const(m_markers)) {
            const double x = toPixel(m.at);
            const double width = fm.horizontalAdvance(m.label) + 2 * pad;
            // Right of its line, or left of it near the plot's right edge.
            placeAt(x + width + 4 <= m_plot.right() ? x + 3 : x - width - 3, m.label, m.color);
        }
    }
}

QStringList HerdChartOverlay::drawnLabels() const
{
    QStringList out;
    if (!m_titleRect.isNull())
        out << m_title;
    for (const Placed& p : m_labels)
        out << p.text;
    return out;
}

QRectF HerdChartOverlay::boundingRect() const
{
    return m_plot.united(m_titleRect);
}

void HerdChartOverlay::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_plot.isEmpty())
        return;
    painter->save();
    QFont bold = m_chart->font();
    bold.setBold(true);
    if (!m_titleRect.isNull()) {
        painter->setFont(bold);
        painter->setPen(m_text);
        painter->drawText(m_titleRect.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    }
    painter->setClipRect(m_plot);
    for (const HerdChartBand& b : std::as_const(m_bands)) {
        const double from = std::max(m_plot.left(), toPixel(b.from));
        const double to = std::min(m_plot.right(), toPixel(b.to));
        if (to > from) {
            painter->fillRect(QRectF(from, m_plot.top(), to - from, m_plot.height()), m_band);
            // Edges a shade stronger: the window reads in print and in a reduced palette too.
            QColor edge = m_band;
            edge.setAlphaF(std::min(1.0f, edge.alphaF() * 3.0f));
            painter->setPen(QPen(edge, 1));
            painter->drawLine(QPointF(from, m_plot.top()), QPointF(from, m_plot.bottom()));
            painter->drawLine(QPointF(to, m_plot.top()), QPointF(to, m_plot.bottom()));
        }
    }
    painter->setRenderHint(QPainter::Antialiasing);
    for (const HerdChartMarker& m : std::as_const(m_markers)) {
        const double x = toPixel(m.at);
        if (x < m_plot.left() || x > m_plot.right())
            continue;
        painter->setPen(QPen(m.color, 1.6, Qt::DashLine));
        painter->drawLine(QPointF(x, m_plot.top()), QPointF(x, m_plot.bottom()));
    }
    painter->setFont(m_chart->font());
    for (const Placed& p : std::as_const(m_labels)) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_backing);
        painter->drawRoundedRect(p.rect, 2, 2);
        painter->setPen(p.color);
        painter->drawText(p.rect, Qt::AlignCenter, p.text);
    }
    painter->restore();
}
