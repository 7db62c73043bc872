// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where things go on the timeline: time (seconds on the session axis) ↔ x pixels, lanes ↔ y pixels, and
// the zoom and pan arithmetic. A plain value so the mapping is tested without a widget; it agrees with
// QChart::mapToPosition for a linear x axis over [t0, t1] and a reversed y axis over
// [laneTop, laneTop + visibleLanes()] on the lanes' area (the plot area less the breaker bands under it).

#include <QRectF>

#include <utility>

struct TimelineLayout
{
    QRectF plot { 0, 0, 800, 400 }; // plot area, in the coordinates the item paints in
    double t0 = 0; // seconds at plot.left()
    double t1 = 10; // seconds at plot.right()
    double laneTop = 0; // lane index (fractional) at plot.top(); lane i spans [i, i + 1)
    double laneHeight = 24; // pixels per lane
    // The breaker bands under the lanes, at the bottom of the plot area (they do not scroll with the lanes).
    int bands = 0;
    double bandHeight = 18; // pixels per band

    double bandsHeight() const; // the bands' strip, with the gap above it; 0 without bands
    QRectF lanesArea() const; // the plot area above the bands: where lanes are drawn
    double yForBand(int band) const; // top edge of band BAND (0 = the first, nearest the lanes)
    int bandForY(double y) const; // the band under Y, -1 if none

    double secondsPerPixel() const;
    double xForTime(double seconds) const;
    double timeForX(double x) const;
    double yForLane(double lane) const; // top edge of lane (fractional lanes allowed)
    double laneForY(double y) const; // fractional lane under y
    double visibleLanes() const; // the lanes' area's height in lanes
    int firstVisibleLane() const; // may be partly hidden
    int lastVisibleLane() const; // inclusive, may be partly hidden

    // Zooms the time axis by FACTOR (> 1 zooms in) keeping the time under ANCHOR_X where it is; the
    // visible span never gets shorter than MIN_SPAN seconds.
    TimelineLayout zoomedX(double factor, double anchorX, double minSpan = 0.001) const;
    // Moves the content by DX, DY pixels (dragging right shows earlier times; down shows earlier lanes).
    TimelineLayout panned(double dx, double dy) const;
    // laneTop clamped so that LANE_COUNT lanes never scroll past their end (and never above lane 0).
    TimelineLayout clampedLanes(int laneCount) const;
    // The window [end − span, end] keeping the span, as follow-live shows it.
    TimelineLayout followingEnd(double endSeconds) const;
    // Shifted right so that it never starts before MIN_SECONDS (time before the session does not exist).
    TimelineLayout clampedTime(double minSeconds = 0) const;
};

// Where an attempt's bar sits in its lane, as fractions of the lane's height (top, bottom): the middle of
// the lane for a plain attempt (ROWS 0 or 1), and for a hedged request's copies one row each of ROWS,
// stacked in order (ROW 0 at the top) in most of the lane with a gap between, so overlapping copies are
// all seen. ROW is clamped to [0, ROWS).
std::pair<double, double> copyRowInLane(int row, int rows);

// A 1-2-5 step giving about TARGET_TICKS intervals over SPAN (both > 0), e.g. span 7 s, 8 ticks → 1 s.
double niceTickStep(double span, int targetTicks);
// Decimals a label needs at STEP: 1 s → 0, 0.5 s → 1, 0.02 s → 2.
int decimalsForStep(double step);
