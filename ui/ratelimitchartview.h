// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "live/pushpacer.h"

// The rate-limit chart: for each host and quota policy seen, the remaining quota (solid steps) and the
// limit (dashed) over time as the responses reported them, with the dialect in the legend; quota resets
// as dashed vertical markers and 429 answers as red triangles. Series are pushed with replace() at the
// session's refresh rate; each track shows its newest kMaxShownSamples samples.

#include "live/chartpalette.h"
#include "live/ratelimitseries.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTimer>
#include <QUrl>
#include <QWidget>

class Session;
class ChartMarkerItem;
class LegendStrip;
class LiveSession;
class PlaceholderLabel;
class QChart;
class QLineSeries;
class QScatterSeries;
class QStackedWidget;
class QValueAxis;
struct LiveSessionDelta;

class RateLimitChartView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMinPushIntervalMs = 200; // series are replaced at most 5 times a second
    static constexpr int kMaxTracks = 6;
    static constexpr int kMaxShownSamples = 1500;
    static constexpr int kMaxShownRejections = 300; // scatter markers are one graphics item each

    explicit RateLimitChartView(LiveSession* session, QWidget* parent = nullptr);

    // Inspection, for tests.
    int trackCount() const { return int(m_remaining.size()); }
    int remainingPointCount(int track) const; // drawn points (steps) of track's remaining series
    int sampleCount() const { return int(m_data.sampleCount()); }
    int resetMarkerCount() const;
    int rejectionCount() const;
    QStringList legendNames() const;
    bool isShowingPlaceholder() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void onRefreshed(const LiveSessionDelta& delta);
    void onCleared();
    void push();
    void schedulePush(); // now, or when kMinPushIntervalMs have passed since the last push
    void applyPalette();
    QColor trackColor(int track) const;

    LiveSession* m_session;
    QHash<quint32, QUrl> m_urls; // m_urlSession's URL ids parsed so far
    const Session* m_urlSession = nullptr;
    PushPacer m_pacer { kMinPushIntervalMs, [this] { push(); } };
    RateLimitSeries m_data;
    ChartPalette m_palette;
    QStackedWidget* m_stack = nullptr;
    PlaceholderLabel* m_placeholder = nullptr;
    LegendStrip* m_legend = nullptr;
    QChart* m_chart = nullptr;
    QValueAxis* m_timeAxis = nullptr;
    QValueAxis* m_valueAxis = nullptr;
    QScatterSeries* m_rejected = nullptr;
    QLineSeries* m_resetLegend = nullptr;
    ChartMarkerItem* m_resets = nullptr;
    QList<QLineSeries*> m_remaining;
    QList<QLineSeries*> m_limit;
};
