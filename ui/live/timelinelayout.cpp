// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/timelinelayout.h"

#include <algorithm>
#include <cmath>

double TimelineLayout::secondsPerPixel() const
{
    return plot.width() > 0 ? (t1 - t0) / plot.width() : 0.0;
}

double TimelineLayout::xForTime(double seconds) const
{
    if (t1 <= t0)
        return plot.left();
    return plot.left() + (seconds - t0) / (t1 - t0) * plot.width();
}

double TimelineLayout::timeForX(double x) const
{
    if (plot.width() <= 0)
        return t0;
    return t0 + (x - plot.left()) / plot.width() * (t1 - t0);
}

double TimelineLayout::yForLane(double lane) const
{
    return plot.top() + (lane - laneTop) * laneHeight;
}

double TimelineLayout::laneForY(double y) const
{
    return laneHeight > 0 ? laneTop + (y - plot.top()) / laneHeight : laneTop;
}

namespace {
constexpr double kBandGap = 4; // between the last lane and the first band
} // namespace

double TimelineLayout::bandsHeight() const
{
    return bands > 0 ? bands * bandHeight + kBandGap : 0.0;
}

QRectF TimelineLayout::lanesArea() const
{
    return QRectF(plot.left(), plot.top(), plot.width(), std::max(0.0, plot.height() - bandsHeight()));
}

double TimelineLayout::yForBand(int band) const
{
    return plot.bottom() - bandsHeight() + kBandGap + band * bandHeight;
}

int TimelineLayout::bandForY(double y) const
{
    if (bands <= 0 || bandHeight <= 0 || y > plot.bottom())
        return -1;
    const double top = yForBand(0);
    if (y < top)
        return -1;
    return std::min(bands - 1, int((y - top) / bandHeight));
}

double TimelineLayout::visibleLanes() const
{
    return laneHeight > 0 ? lanesArea().height() / laneHeight : 0.0;
}

int TimelineLayout::firstVisibleLane() const
{
    return std::max(0, int(std::floor(laneTop)));
}

int TimelineLayout::lastVisibleLane() const
{
    return int(std::ceil(laneTop + visibleLanes())) - 1;
}

TimelineLayout TimelineLayout::zoomedX(double factor, double anchorX, double minSpan) const
{
    TimelineLayout out = *this;
    if (factor <= 0 || t1 <= t0)
        return out;
    const double anchor = timeForX(anchorX);
    const double span = std::max(minSpan, (t1 - t0) / factor);
    const double share = plot.width() > 0 ? (anchorX - plot.left()) / plot.width() : 0.5;
    out.t0 = anchor - share * span;
    out.t1 = out.t0 + span;
    return out;
}

TimelineLayout TimelineLayout::panned(double dx, double dy) const
{
    TimelineLayout out = *this;
    const double dt = dx * secondsPerPixel();
    out.t0 -= dt;
    out.t1 -= dt;
    if (laneHeight > 0)
        out.laneTop -= dy / laneHeight;
    return out;
}

TimelineLayout TimelineLayout::clampedLanes(int laneCount) const
{
    TimelineLayout out = *this;
    const double maxTop = std::max(0.0, double(laneCount) - visibleLanes());
    out.laneTop = std::clamp(laneTop, 0.0, maxTop);
    return out;
}

TimelineLayout TimelineLayout::followingEnd(double endSeconds) const
{
    TimelineLayout out = *this;
    const double span = t1 - t0;
    out.t1 = endSeconds;
    out.t0 = endSeconds - span;
    return out;
}

TimelineLayout TimelineLayout::clampedTime(double minSeconds) const
{
    TimelineLayout out = *this;
    if (t0 < minSeconds) {
        out.t1 += minSeconds - t0;
        out.t0 = minSeconds;
    }
    return out;
}

std::pair<double, double> copyRowInLane(int row, int rows)
{
    constexpr double kBarTop = 0.22; // a plain attempt's bar: the middle 56 % of the lane
    constexpr double kBarBottom = 0.78;
    if (rows <= 1)
        return { kBarTop, kBarBottom };
    constexpr double kTop = 0.1; // copies: 80 % of the lane, 4 % between rows
    constexpr double kHeight = 0.8;
    constexpr double kGap = 0.04;
    const double each = (kHeight - kGap * (rows - 1)) / rows;
    const int r = std::clamp(row, 0, rows - 1);
    const double top = kTop + r * (each + kGap);
    return { top, top + each };
}

double niceTickStep(double span, int targetTicks)
{
    if (!(span > 0) || targetTicks < 1)
        return 1.0;
    const double raw = span / targetTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double normalized = raw / magnitude;
    double nice = 10;
    if (normalized <= 1.0)
        nice = 1;
    else if (normalized <= 2.0)
        nice = 2;
    else if (normalized <= 5.0)
        nice = 5;
    return nice * magnitude;
}

int decimalsForStep(double step)
{
    if (!(step > 0) || step >= 1.0 - 1e-9)
        return 0;
    return std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 6);
}
