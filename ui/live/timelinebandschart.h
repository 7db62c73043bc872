// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The timeline's aggregate bands drawn (TimelineAggregate): attempts a second and goodput a second as steps
// on the left axis, runs waiting before a retry on the right one, over the session's time in seconds.

#include "live/chartpalette.h"
#include "live/timelineaggregate.h"

#include <QtCharts/QChartView>

#include <optional>

class QAreaSeries;
class QLineSeries;
class QValueAxis;

class TimelineBandsChart final : public QChartView
{
    Q_OBJECT
public:
    explicit TimelineBandsChart(QWidget* parent = nullptr);

    void setAggregate(const TimelineAggregate& aggregate);
    const TimelineAggregate& aggregate() const { return m_aggregate; }
    void setTimeRange(double t0, double t1);
    void applyPalette(const ChartPalette& palette);

    // The session time (s) under VIEWPORT_POS, when it is over the plot area.
    std::optional<double> timeAt(const QPoint& viewportPos) const;
    double secondsPerPixel() const; // on the time axis as it is shown now
    // The bucket under VIEWPORT_POS in words (its time span, attempts/s, goodput/s, runs waiting): the bands'
    // tooltip; empty outside the plot area or the session.
    QString describeAt(const QPoint& viewportPos) const;
    QString describeBucket(qsizetype bucket) const;

    QLineSeries* attemptsSeries() const { return m_attempts; }
    QAreaSeries* attemptsArea() const { return m_attemptsArea; }
    QLineSeries* goodputSeries() const { return m_goodput; }
    QLineSeries* waitingSeries() const { return m_waiting; }
    QValueAxis* timeAxis() const { return m_time; }

private:
    QLineSeries* m_attempts; // the area's upper edge
    QAreaSeries* m_attemptsArea;
    QLineSeries* m_goodput;
    QLineSeries* m_waiting;
    QValueAxis* m_time;
    QValueAxis* m_rate;
    QValueAxis* m_wait;
    TimelineAggregate m_aggregate;
};
