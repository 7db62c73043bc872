// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One small chart of the Herd view's stack: one measure over time (seconds on the experiment's axis), a
// line per policy in the policy's colour, the trigger's bands and the collapse markers over it (its
// overlay). The stack gives every chart the same time range and the same plot-area left and right edges,
// so one moment is one x in every chart.

#include "herd/charts/herdchartoverlay.h"

#include <QtCharts/QChartView>

struct ChartPalette;
class QLineSeries;
class QValueAxis;

class HerdChart final : public QChartView
{
    Q_OBJECT
public:
    // PERCENT: values are shares (0..1) shown as 0–100 %.
    HerdChart(const QString& title, bool percent, QWidget* parent = nullptr);

    QString title() const { return m_title; }
    // LINES[i] is policy i's line, x in seconds; COLORS and NAMES are its colour and label.
    void setLines(const QList<QList<QPointF>>& lines, const QList<QColor>& colors, const QStringList& names);
    void setTimeRange(double seconds);
    // Only the bottom chart of the stack shows the time labels and the axis title.
    void setTimeLabelsVisible(bool visible);
    void applyPalette(const ChartPalette& palette);

    QList<QLineSeries*> lineSeries() const { return m_lines; }
    HerdChartOverlay* overlay() const { return m_overlay; }
    QValueAxis* timeAxis() const { return m_time; }
    QValueAxis* valueAxis() const { return m_value; }

    // Lays the chart out at once with EXTRA margins beyond its own and returns its plot area: the stack
    // aligns the plots by widening the margins of the charts whose value labels or time labels are narrower.
    QRectF plotAreaWithMargins(const QMargins& extra);

Q_SIGNALS:
    void resized();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void restyle();
    QMargins baseMargins() const;

    QString m_title;
    bool m_percent;
    QValueAxis* m_time;
    QValueAxis* m_value;
    HerdChartOverlay* m_overlay;
    QList<QLineSeries*> m_lines;
    QList<QColor> m_colors;
    double m_high = 1; // the largest value shown, for the value axis
};
