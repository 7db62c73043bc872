// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineaggregate.h"

#include "livesession.h"

#include <algorithm>
#include <cmath>
#include <limits>

double TimelineAggregate::bucketFor(double spanS, int maxBuckets)
{
    const double target = std::max(1e-3, spanS) / std::max(1, maxBuckets);
    double decade = std::pow(10.0, std::floor(std::log10(target)));
    for (;;) {
        for (const double f : { 1.0, 2.0, 5.0 }) {
            if (f * decade >= target)
                return std::max(0.1, f * decade);
        }
        decade *= 10;
    }
}

TimelineAggregate TimelineAggregate::of(const LiveSession& live, double bucketS)
{
    TimelineAggregate a;
    const RunProgressStore& runs = live.runs();
    const WaitStore& waits = live.waits();
    // The span: from the first attempt's start (or run's) to the last thing recorded.
    double first = std::numeric_limits<double>::max();
    double last = 0;
    const auto seen = [&](double s) {
        first = std::min(first, s);
        last = std::max(last, s);
    };
    for (qsizetype i = 0; i < live.finishedAttempts(); ++i) {
        const StoredAttempt at = live.attempt(i);
        if (const auto began = at.began())
            seen(toMs(*began) / 1000.0);
        if (const auto end = at.finished())
            seen(toMs(*end) / 1000.0);
    }
    for (qsizetype i = 0; i < waits.size(); ++i)
        seen(toMs(waits.dueAt(i)) / 1000.0);
    if (first > last)
        return a;
    a.startS = std::floor(std::max(0.0, first));
    a.bucketS = bucketS > 0 ? bucketS : bucketFor(last - a.startS);
    const qsizetype n = std::max<qsizetype>(1, qsizetype(std::floor((last - a.startS) / a.bucketS)) + 1);
    a.attemptsPerS.fill(0.0, n);
    a.goodputPerS.fill(0.0, n);
    a.runsWaiting.fill(0.0, n);
    const auto bucketOf = [&](double s) { return std::clamp<qsizetype>(qsizetype(std::floor((s - a.startS) / a.bucketS)), 0, n - 1); };

    for (qsizetype i = 0; i < live.finishedAttempts(); ++i) {
        const StoredAttempt at = live.attempt(i);
        if (at.refused())
            continue; // never sent
        if (const auto began = at.began()) {
            a.attemptsPerS[bucketOf(toMs(*began) / 1000.0)] += 1;
            ++a.attempts;
        }
    }
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (runs.outcome(i) != FinalKind::Success)
            continue;
        const RunProgress run = runs.at(i);
        std::optional<MonoTime> end = run.finishedAt;
        if (!end)
            end = live.lastAttemptFinished(int(i));
        if (!end)
            continue;
        a.goodputPerS[bucketOf(toMs(*end) / 1000.0)] += 1;
        ++a.succeeded;
    }
    for (qsizetype i = 0; i < waits.size(); ++i) {
        const double from = toMs(waits.scheduledAt(i)) / 1000.0;
        const double until = toMs(waits.dueAt(i)) / 1000.0;
        if (until <= from)
            continue;
        ++a.waits;
        for (qsizetype b = bucketOf(from); b <= bucketOf(until); ++b) {
            const double overlap = std::min(until, a.bucketStart(b + 1)) - std::max(from, a.bucketStart(b));
            if (overlap > 0)
                a.runsWaiting[b] += overlap / a.bucketS;
        }
    }
    for (qsizetype b = 0; b < n; ++b) {
        a.attemptsPerS[b] /= a.bucketS;
        a.goodputPerS[b] /= a.bucketS;
    }
    return a;
}
