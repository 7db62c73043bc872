// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/chartpalette.h"

#include "live/phasespans.h"
#include "policy/resilience/circuitbreaker.h"
#include "policy/retrydecision.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

// Fixed hue, readable on the background: lighter on dark themes.
QColor hue(const char* hex, bool dark)
{
    const QColor c = QColor::fromString(QLatin1String(hex));
    return dark ? c.lighter(125) : c;
}

} // namespace

ChartPalette ChartPalette::fromPalette(const QPalette& palette)
{
    ChartPalette p;
    p.background = palette.color(QPalette::Window);
    p.plotBackground = palette.color(QPalette::Base);
    p.text = palette.color(QPalette::WindowText);
    p.dark = p.background.lightnessF() < 0.5;
    p.mutedText = mix(p.text, p.background, 0.4);
    p.grid = mix(p.text, p.plotBackground, 0.85);
    p.laneStripe = mix(p.text, p.plotBackground, 0.96);

    p.connect = hue("#d9922e", p.dark);
    p.tls = hue("#8a63c9", p.dark);
    p.firstByte = hue("#3f82c8", p.dark);
    p.download = hue("#2e9e86", p.dark);
    p.queued = mix(p.text, p.plotBackground, 0.7);
    p.inFlight = p.text;
    // The half-open state's amber, paler: the calls that waited for its verdict.
    p.breakerHalfOpen = hue("#e0a800", p.dark);
    p.verdictWait = mix(p.breakerHalfOpen, p.plotBackground, 0.4);
    p.breakerOpen = hue("#d63b3b", p.dark);
    p.breakerClosed = mix(hue("#2f9e44", p.dark), p.plotBackground, 0.55);
    p.refused = hue("#7a4a2e", p.dark); // brown: no phase, wait or outcome uses it

    p.backoffWait = mix(p.text, p.plotBackground, 0.45);
    p.serverWait = hue("#e0692b", p.dark);
    p.throttleWait = hue("#c0398b", p.dark);

    p.success = hue("#2f9e44", p.dark);
    p.failure = hue("#d63b3b", p.dark);
    p.labReceived = mix(p.text, p.plotBackground, 0.3);
    p.labApplied = hue("#1c7ed6", p.dark);
    p.selection = palette.color(QPalette::Highlight);
    p.envelope = mix(p.text, p.plotBackground, 0.35);
    p.band = mix(p.firstByte, p.plotBackground, 0.8);
    return p;
}

QColor ChartPalette::phaseColor(int phase) const
{
    switch (TimelinePhase(phase)) {
    case TimelinePhase::Connect:
        return connect;
    case TimelinePhase::Tls:
        return tls;
    case TimelinePhase::FirstByte:
        return firstByte;
    case TimelinePhase::Download:
        return download;
    case TimelinePhase::Queued:
        return queued;
    case TimelinePhase::VerdictWait:
        return verdictWait;
    }
    return firstByte;
}

QColor ChartPalette::breakerColor(int state) const
{
    switch (CircuitBreaker::State(state)) {
    case CircuitBreaker::State::Closed:
        return breakerClosed;
    case CircuitBreaker::State::Open:
        return breakerOpen;
    case CircuitBreaker::State::HalfOpen:
        return breakerHalfOpen;
    }
    return breakerClosed;
}

QColor ChartPalette::waitColor(int delaySource) const
{
    switch (DelaySource(delaySource)) {
    case DelaySource::RetryAfter:
    case DelaySource::RetryAfterMs:
    case DelaySource::ServerHint:
        return serverWait;
    case DelaySource::Throttle:
        return throttleWait;
    case DelaySource::None:
    case DelaySource::Backoff:
        break;
    }
    return backoffWait;
}

void applyAxisPalette(QAbstractAxis* axis, const ChartPalette& palette)
{
    axis->setLabelsColor(palette.text);
    axis->setTitleBrush(palette.text);
    axis->setLinePenColor(palette.mutedText);
    axis->setGridLineColor(palette.grid);
    axis->setMinorGridLineColor(mix(palette.grid, palette.plotBackground, 0.5));
    QFont title = axis->titleFont();
    title.setBold(false);
    axis->setTitleFont(title);
}

void applyChartPalette(QChart* chart, const ChartPalette& palette)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTheme(palette.dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.background);
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundBrush(palette.plotBackground);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setTitleBrush(palette.text);
    chart->legend()->setLabelColor(palette.text);
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes)
        applyAxisPalette(axis, palette);
}
