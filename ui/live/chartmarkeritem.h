// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Vertical marker lines over a chart's plot area at given x values (the rate-limit chart's reset
// moments). One item, one paint(); positions come from QChart::mapToPosition with the anchor series, so
// it follows the axes: call relayout() on plotAreaChanged and on the axis rangeChanged.

#include <QGraphicsItem>
#include <QList>
#include <QPen>

class QAbstractSeries;
class QChart;

class ChartMarkerItem : public QGraphicsItem
{
public:
    static constexpr int kMaxLines = 12; // more markers in view: notches only
    ChartMarkerItem(QChart* chart, QAbstractSeries* anchor);

    void setValues(const QList<QPair<double, QColor>>& xs);
    void setPenStyle(Qt::PenStyle style) { m_style = style; }
    void relayout();
    int markerCount() const { return int(m_values.size()); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QChart* m_chart;
    QAbstractSeries* m_anchor;
    QList<QPair<double, QColor>> m_values;
    QList<QPair<double, QColor>> m_pixels;
    QRectF m_plot;
    Qt::PenStyle m_style = Qt::DashLine;
};
