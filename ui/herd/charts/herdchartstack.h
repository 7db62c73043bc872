// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Herd view's charts: small charts stacked on one time axis (offered load, goodput, attempts, queue,
// breaker-open share — the last hidden when no policy has a breaker), one line per policy in its colour,
// a legend strip naming the policies once. The trigger's window is a shaded band in every chart; where a
// policy tipped the server into collapse, a dashed line in its colour, labelled in the goodput chart.
// Before any run it shows what to do instead of empty axes.

#include "herd/charts/herdchartoverlay.h"
#include "sim/herdexperiment.h"
#include "sim/herdresult.h"

#include <QWidget>

class HerdChart;
class LegendStrip;
class PlaceholderLabel;
class QStackedWidget;
class QTimer;

class HerdChartStack final : public QWidget
{
    Q_OBJECT
public:
    enum Measure { Offered, Goodput, Attempts, Queue, BreakerOpen, MeasureCount };

    explicit HerdChartStack(QWidget* parent = nullptr);

    void setPlaceholderText(const QString& text);
    void showResult(const HerdResult& result, const HerdExperiment& experiment);
    void clear(); // back to the placeholder
    bool hasResult() const { return m_hasResult; }

    HerdChart* chart(Measure measure) const { return m_charts.at(measure); }
    QList<HerdChart*> charts() const { return m_charts; }
    LegendStrip* legend() const { return m_legend; }
    PlaceholderLabel* placeholder() const { return m_placeholder; }
    // The legend and the charts, without the placeholder: what an export draws.
    QWidget* chartsPage() const { return m_page; }

    // The trigger windows of EXPERIMENT as labelled bands (seconds).
    static QList<HerdChartBand> triggerBands(const HerdExperiment& experiment);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();
    void alignPlotAreas();

    QList<HerdChart*> m_charts;
    LegendStrip* m_legend;
    PlaceholderLabel* m_placeholder;
    QWidget* m_page;
    QStackedWidget* m_stack;
    QTimer* m_align;
    HerdResult m_result;
    HerdExperiment m_experiment;
    bool m_hasResult = false;
};
