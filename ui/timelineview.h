// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The live timeline: one lane per run, each attempt a bar split into its phases, waits as hatched gaps
// labelled with the chosen delay and its source, the final outcome at the lane's end, calls the pipeline
// refused as struck-through circles (never sent), a hedged request's copies one row each in its lane (the
// winner outlined, lost copies struck through) and the fault lab's server-side events as ticks; under
// the lanes, a band per circuit breaker with its states over time; all on a QValueAxis in seconds. A QChart provides the axes; a single
// TimelineItem over its plot area paints the marks. Wheel zooms time (Shift+wheel scrolls runs), drag
// pans, double-click or "Reset zoom" fits everything, "Follow live" keeps the newest data in view.

#include "live/chartpalette.h"
#include "live/timelinelayout.h"
#include "live/timelinemodel.h"

#include <QWidget>

class ElidedLabel;
class LegendStrip;
class QLabel;
class LiveSession;
class QChart;
class QChartView;
class QLineSeries;
class QScrollBar;
class QSpinBox;
class TimelineBandsChart;
class QStackedWidget;
class QToolButton;
class QValueAxis;
class TimelineItem;
struct LiveSessionDelta;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(LiveSession* session, QWidget* parent = nullptr);
    ~TimelineView() override;

    // Inspection, for tests and the shell.
    int laneCount() const { return m_model.laneCount(); }
    int segmentCount() const { return m_model.segmentCount(); }
    int waitCount() const { return m_model.waitCount(); }
    int outcomeCount() const { return m_model.outcomeCount(); }
    int labTickCount() const { return m_model.labTickCount(); }
    int refusedCount() const { return m_model.refusedCount(); }
    int breakerBandCount() const { return m_layout.bands; } // drawn (at most kMaxBands)
    static constexpr int kMaxBands = 4;
    const TimelineModel& model() const { return m_model; }
    QStringList legendLabels() const;
    const TimelineLayout& layoutState() const { return m_layout; }
    bool followLive() const;
    bool isShowingPlaceholder() const;
    // The tooltip text of whatever is drawn at POS (viewport coordinates of the chart view); empty if none.
    QString toolTipAt(const QPoint& pos) const;
    QPoint viewportPosFor(double seconds, int lane) const; // for tests: where a time in a lane is drawn
    QPoint viewportPosForBand(double seconds, int band) const; // where a time in a breaker band is drawn
    // Where a time of hedged copy ATTEMPT is drawn in its row of LANE (the lane's middle when not split).
    QPoint viewportPosForCopy(double seconds, int lane, int attempt) const;
    // The drawn content's time span in seconds (0, 0 when empty): what "Reset zoom" fits.
    double contentStartSeconds() const;
    double contentEndSeconds() const;
    // Where the "now" line is drawn (seconds), 0 when none: the live edge, or playback's playhead.
    double nowSeconds() const;
    // Above bandThreshold() runs the lanes give way to aggregate bands per time bucket (attempts/s,
    // goodput/s, runs waiting): issue 32. The threshold is the spin box in the toolbar's Bands menu.
    int bandThreshold() const;
    bool isShowingBands() const;
    TimelineBandsChart* bandsChart() const { return m_bands; } // null until a session first needs bands
    QSpinBox* bandThresholdBox() const { return m_threshold; }
    static constexpr int kDefaultBandThreshold = 200;

public Q_SLOTS:
    // Highlights attempt INDEX of run RUN_ID and scrolls it into view; does not emit attemptSelected.
    void selectAttempt(int runId, int index);
    void clearSelection();
    void resetZoom();
    void setFollowLive(bool follow);
    // Without the mouse hint and the Ctrl+0 shortcut: for a timeline beside another.
    void setCompact(bool compact);
    void setLegendVisible(bool visible);
    // Shows [T0, T1] seconds (another view keeps both on one time axis); does not re-emit timeRangeChanged.
    void setTimeRange(double t0, double t1);
    void setBandThreshold(int runs);

Q_SIGNALS:
    void attemptSelected(int runId, int index); // the user clicked an attempt
    void timeRangeChanged(double t0, double t1); // zoom, pan, reset or follow-live moved the time axis

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    bool bandsEvent(QEvent* event);
    void onRefreshed(const LiveSessionDelta& delta);
    void onCleared();
    void onPlotAreaChanged();
    void applyLayout();
    void applyPalette();
    void applyLegend();
    void rebuildLaneLabels();
    void followIfLive();
    void updateBands(); // lanes or bands, by the threshold; the bands recounted when shown
    std::optional<TimelineHit> hitAt(const QPoint& viewportPos) const;
    QPointF toPlot(const QPoint& viewportPos) const;

    LiveSession* m_session;
    TimelineModel m_model;
    TimelineLayout m_layout;
    ChartPalette m_palette;
    QStackedWidget* m_stack = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_chartView = nullptr;
    QValueAxis* m_timeAxis = nullptr;
    QValueAxis* m_laneAxis = nullptr; // lanes, reversed; labels painted by the item
    QLineSeries* m_anchor = nullptr; // empty series the axes hang on
    TimelineItem* m_item = nullptr;
    QScrollBar* m_laneBar = nullptr;
    QToolButton* m_follow = nullptr;
    QToolButton* m_reset = nullptr;
    ElidedLabel* m_hint = nullptr;
    LegendStrip* m_legend = nullptr;
    TimelineBandsChart* m_bands = nullptr;
    QSpinBox* m_threshold = nullptr;
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_dragging = false;
    bool m_applying = false;
    bool m_syncing = false; // inside setTimeRange
    double m_emittedT0 = 0;
    double m_emittedT1 = 0;
    int m_labelDigits = 0;
    bool m_legendBreaker = false; // the legend lists the breaker's marks (the session has some)
    bool m_legendHedge = false; // … and the hedged copies' (it has some)
    bool m_bandMode = false; // the legend names the aggregate bands
    int m_selectedRun = 0;
    int m_selectedAttempt = 0;
};
