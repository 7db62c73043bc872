// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "live/pushpacer.h"

// The delays chart: each chosen wait as a point over its retry number, backoff-chosen and
// server-directed (Retry-After, hints, throttle) in different colours, in front of the policy's ceiling
// envelope and jitter band; a second tab shows the histogram of the delays. Series are pushed with
// replace() at the session's refresh rate; the scatter shows the newest kMaxShownPoints of each kind
// (the histogram counts every wait).

#include "live/chartpalette.h"
#include "live/delayseries.h"
#include "policy/retrypolicy.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <optional>

class LiveSession;
class QAreaSeries;
class LegendStrip;
class QChart;
class QLineSeries;
class QScatterSeries;
class QStackedWidget;
class QTabWidget;
class QValueAxis;
struct LiveSessionDelta;

class DelayChartView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMinPushIntervalMs = 200; // series are replaced at most 5 times a second
    static constexpr int kMaxShownPoints = 750; // Qt Charts makes one graphics item per scatter marker

    explicit DelayChartView(LiveSession* session, QWidget* parent = nullptr);

    // Inspection, for tests.
    int pointCount() const; // points in the two scatter series
    int backoffPointCount() const;
    int serverPointCount() const;
    int envelopePointCount() const; // points of the ceiling line
    int histogramBinCount() const;
    int histogramTotal() const; // waits counted in the histogram
    bool isShowingPlaceholder() const;
    QStringList legendNames() const; // what the legends above the charts say, in full
    QTabWidget* tabs() const { return m_tabs; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void onRefreshed(const LiveSessionDelta& delta);
    void onCleared();
    void push();
    void schedulePush(); // now, or when kMinPushIntervalMs have passed since the last push
    void applyPalette();
    void updateLegends();
    QChart* buildScatterChart();
    QChart* buildHistogramChart();

    LiveSession* m_session;
    PushPacer m_pacer { kMinPushIntervalMs, [this] { push(); } };
    DelaySeries m_data;
    std::optional<RetryPolicy> m_policy;
    int m_envelopeRetries = 0;
    ChartPalette m_palette;
    QStackedWidget* m_stack = nullptr;
    QTabWidget* m_tabs = nullptr;
    QChart* m_scatterChart = nullptr;
    QChart* m_histChart = nullptr;
    QScatterSeries* m_backoff = nullptr;
    QScatterSeries* m_server = nullptr;
    QLineSeries* m_ceiling = nullptr;
    QLineSeries* m_bandLow = nullptr;
    QLineSeries* m_bandHigh = nullptr;
    QAreaSeries* m_band = nullptr;
    QValueAxis* m_retryAxis = nullptr;
    QValueAxis* m_delayAxis = nullptr;
    QAreaSeries* m_histBackoff = nullptr;
    QAreaSeries* m_histServer = nullptr;
    QLineSeries* m_histBackoffTop = nullptr;
    QLineSeries* m_histBackoffBase = nullptr;
    QLineSeries* m_histServerTop = nullptr;
    QLineSeries* m_histServerBase = nullptr;
    QValueAxis* m_binAxis = nullptr;
    QValueAxis* m_countAxis = nullptr;
    LegendStrip* m_scatterLegend = nullptr;
    LegendStrip* m_histLegend = nullptr;
    int m_histBins = 0;
    int m_histTotal = 0;
    double m_envelopeMax = 0;
};
