// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Herd tab's fleet comparison (issue 32): what a fleet of real clients measured and what the herd
// simulator predicted for the same policy, clients and outage, in one chart — attempts/s and goodput/s, a
// second a point, measured solid and simulated dashed — with how far apart they are stated above it.

#include "herd/fleetcomparisonresult.h"

#include <QWidget>

class LegendStrip;
class QChartView;
class QLabel;
class QLineSeries;
class QToolButton;
class QValueAxis;

class FleetComparisonView final : public QWidget
{
    Q_OBJECT
public:
    explicit FleetComparisonView(QWidget* parent = nullptr);

    void setResult(const FleetComparisonResult& result, const QString& source);
    const FleetComparisonResult& result() const { return m_result; }
    QList<QLineSeries*> series() const; // measured attempts, simulated attempts, measured goodput, simulated goodput
    QLabel* gapLabel() const { return m_gap; }
    QChartView* chartView() const { return m_view; }
    LegendStrip* legend() const { return m_legend; }

Q_SIGNALS:
    void closeRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();

    FleetComparisonResult m_result;
    QLabel* m_title;
    QLabel* m_gap;
    QChartView* m_view;
    LegendStrip* m_legend;
    QLineSeries* m_measuredAttempts;
    QLineSeries* m_simulatedAttempts;
    QLineSeries* m_measuredGoodput;
    QLineSeries* m_simulatedGoodput;
    QValueAxis* m_time;
    QValueAxis* m_value;
};
