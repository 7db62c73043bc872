// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/resilience/circuitbreakeroptions.h"

#include <QCoreApplication>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("CircuitBreaker", text); }

constexpr Millis kShortest { 1 }; // cockatiel and opossum take any; Polly 0.5 s (its own presets keep to it)
constexpr Millis kLongest { 24 * 3600 * 1000 };

} // namespace

QList<CircuitBreakerProblem> validate(const CircuitBreakerOptions& o)
{
    using O = CircuitBreakerOptions;
    QList<CircuitBreakerProblem> problems;
    const auto problem = [&](const char* path, const QString& message) { problems.append({ QString::fromLatin1(path), message }); };
    const auto duration = [&](const char* path, Millis value) {
        if (value < kShortest || value > kLongest)
            problem(path, tr("must be from 1 ms to a day (%1 ms given)").arg(value.count()));
    };
    switch (o.window) {
    case O::Window::Consecutive:
        if (o.consecutiveFailures < 1)
            problem("consecutive_failures", tr("must be 1 or more"));
        break;
    case O::Window::Count:
        if (o.windowCalls < 1)
            problem("window_calls", tr("must be 1 or more"));
        break;
    case O::Window::Time:
        duration("sampling_ms", o.samplingDuration);
        if (o.buckets < 1 || o.buckets > 1000)
            problem("buckets", tr("must be from 1 to 1 000"));
        else if (o.samplingDuration.count() / o.buckets < 1)
            problem("buckets", tr("must leave each bucket 1 ms or more"));
        break;
    }
    if (o.window != O::Window::Consecutive) {
        if (!(o.failureRatio >= 0.0 && o.failureRatio <= 1.0))
            problem("failure_ratio", tr("must be from 0 to 1"));
        if (o.minimumCalls < 0 || o.minimumCalls > 1000000)
            problem("minimum_calls", tr("must be from 0 (opossum's volume threshold) to 1 000 000"));
        if (o.minimumCallsPerSecond && !(*o.minimumCallsPerSecond > 0.0))
            problem("minimum_calls_per_second", tr("must be more than 0"));
        if (o.minimumCallsPerSecond && o.window != O::Window::Time)
            problem("minimum_calls_per_second", tr("needs a time window"));
    }
    duration("break_ms", o.breakDuration);
    if (!(o.breakGrowth >= 1.0 && o.breakGrowth <= 100.0))
        problem("break_growth", tr("must be from 1 (a fixed break) to 100"));
    if (o.maxBreakDuration && *o.maxBreakDuration < o.breakDuration)
        problem("max_break_ms", tr("must not be below break_ms"));
    if (o.halfOpenProbes < 1 || o.halfOpenProbes > 1000)
        problem("half_open_probes", tr("must be from 1 to 1 000"));
    return problems;
}
