// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The colours of the live views, derived from the widget palette so that both light and dark themes read
// well: text, grid and backgrounds come from the palette; the few categorical hues (phases, outcomes,
// delay sources) are fixed and only shifted in lightness for dark backgrounds.

#include <QColor>
#include <QPalette>

class QChart;
class QAbstractAxis;

struct ChartPalette
{
    bool dark = false;
    QColor background; // behind the chart
    QColor plotBackground;
    QColor laneStripe; // every other timeline lane
    QColor text;
    QColor mutedText;
    QColor grid;

    QColor connect;
    QColor tls;
    QColor firstByte;
    QColor download;
    QColor queued; // waiting for one of the client's connections per host
    QColor verdictWait; // waiting for a half-open circuit breaker's verdict
    QColor inFlight; // outline of an attempt still running

    QColor backoffWait; // waits chosen by the backoff
    QColor serverWait; // waits the server asked for (Retry-After and hints)
    QColor throttleWait; // the per-host throttle waiting for a reset

    QColor success;
    QColor failure;
    QColor refused; // a call the pipeline refused: never sent
    QColor breakerClosed; // the breaker band's states
    QColor breakerOpen;
    QColor breakerHalfOpen;
    QColor labReceived;
    QColor labApplied;
    QColor selection;
    QColor envelope; // delay chart: policy ceiling
    QColor band; // delay chart: jitter band fill

    static ChartPalette fromPalette(const QPalette& palette);
    QColor phaseColor(int phase) const; // TimelinePhase as int
    QColor waitColor(int delaySource) const; // DelaySource as int
    QColor breakerColor(int state) const; // CircuitBreaker::State as int
};

// Background, plot area, title, legend and axis colours of CHART from PALETTE; no animations.
void applyChartPalette(QChart* chart, const ChartPalette& palette);
void applyAxisPalette(QAbstractAxis* axis, const ChartPalette& palette);
