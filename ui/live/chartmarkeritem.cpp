// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/chartmarkeritem.h"

#include <QtCharts/QAbstractSeries>
#include <QtCharts/QChart>

#include <QPainter>

ChartMarkerItem::ChartMarkerItem(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    setZValue(9);
    setAcceptedMouseButtons(Qt::NoButton);
}

void ChartMarkerItem::setValues(const QList<QPair<double, QColor>>& xs)
{
    m_values = xs;
    relayout();
}

void ChartMarkerItem::relayout()
{
    prepareGeometryChange();
    m_plot = m_chart->plotArea();
    m_pixels.clear();
    for (const auto& [x, color] : std::as_const(m_values)) {
        const double px = m_chart->mapToPosition(QPointF(x, 0), m_anchor).x();
        if (px >= m_plot.left() && px <= m_plot.right())
            m_pixels.append({ px, color });
    }
    update();
}

QRectF ChartMarkerItem::boundingRect() const
{
    return m_plot;
}

void ChartMarkerItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->save();
    painter->setClipRect(m_plot);
    // A solid notch at the top, and a faint line across the plot while there are few enough to read
    // (a fence of lines across a short, busy run says less than the notches alone).
    painter->setRenderHint(QPainter::Antialiasing);
    const bool lines = m_pixels.size() <= kMaxLines;
    for (const auto& [px, color] : std::as_const(m_pixels)) {
        if (lines) {
            QColor faint = color;
            faint.setAlphaF(0.35f);
            painter->setPen(QPen(faint, 1, m_style));
            painter->drawLine(QPointF(px, m_plot.top()), QPointF(px, m_plot.bottom()));
        }
        const QPointF notch[3] = { { px - 5, m_plot.top() }, { px + 5, m_plot.top() }, { px, m_plot.top() + 7 } };
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawPolygon(notch, 3);
    }
    painter->restore();
}
