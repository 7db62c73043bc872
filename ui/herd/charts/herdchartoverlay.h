// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a herd chart draws over its plot area besides the series: its title just above the plot, the
// trigger's windows (outage, capacity cut, spikes) as shaded bands, and each policy's collapse as a dashed
// vertical line in its colour. Labels ("outage", "collapsed at 62 s") sit in rows at the top of the plot,
// each in the first row where it overlaps no other, on a backing that keeps them readable over the lines.
// Positions follow the time axis: call relayout() when the plot area or the axis range changes.

#include <QColor>
#include <QGraphicsItem>
#include <QList>
#include <QString>
#include <QStringList>

class QChart;
class QValueAxis;

struct HerdChartBand
{
    double from = 0; // seconds
    double to = 0;
    QString label; // "outage", "capacity cut to 25 %"
};

struct HerdChartMarker
{
    double at = 0; // seconds
    QColor color;
    QString label; // "collapsed at 62 s"
};

class HerdChartOverlay final : public QGraphicsItem
{
public:
    HerdChartOverlay(QChart* chart, QValueAxis* timeAxis);

    void setTitle(const QString& title);
    // LABELLED: the labels are drawn too (in one chart of the stack; the others show the bands and lines only).
    void setBands(const QList<HerdChartBand>& bands, bool labelled);
    void setMarkers(const QList<HerdChartMarker>& markers, bool labelled);
    void setColors(const QColor& text, const QColor& band, const QColor& backing);
    void relayout();

    // The texts drawn now, title first (tests read them).
    QStringList drawnLabels() const;
    int bandCount() const { return int(m_bands.size()); }
    int markerCount() const { return int(m_markers.size()); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    struct Placed
    {
        QRectF rect;
        QString text;
        QColor color;
    };
    double toPixel(double seconds) const;
    void place();

    QChart* m_chart;
    QValueAxis* m_axis;
    QString m_title;
    QList<HerdChartBand> m_bands;
    QList<HerdChartMarker> m_markers;
    bool m_bandLabels = false;
    bool m_markerLabels = false;
    QColor m_text;
    QColor m_band;
    QColor m_backing;
    QRectF m_plot;
    QRectF m_titleRect; // above the plot, in the chart's top margin
    QList<Placed> m_labels;
};
