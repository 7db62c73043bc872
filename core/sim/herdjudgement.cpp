// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdjudgement.h"

#include <algorithm>

namespace {

QList<HerdWindow> triggers(const HerdExperiment& experiment)
{
    QList<HerdWindow> windows;
    for (const std::optional<HerdWindow>& w : { experiment.server.outage, experiment.server.cut,
             experiment.server.latencySpike, experiment.clients.spike })
        if (w && w->duration.count() > 0)
            windows.append(*w);
    return windows;
}

} // namespace

std::optional<Millis> herdTriggerEnd(const HerdExperiment& experiment)
{
    std::optional<Millis> end;
    for (const HerdWindow& w : triggers(experiment))
        end = end ? std::max(*end, w.end()) : w.end();
    return end;
}

std::optional<Millis> herdTriggerStart(const HerdExperiment& experiment)
{
    std::optional<Millis> start;
    for (const HerdWindow& w : triggers(experiment))
        start = start ? std::min(*start, w.start) : w.start;
    return start;
}

void judgeRecovery(const HerdExperiment& experiment, const HerdSeries& series, std::optional<bool>& recovered,
    std::optional<Millis>& collapsedAt)
{
    recovered.reset();
    collapsedAt.reset();
    const std::optional<Millis> end = herdTriggerEnd(experiment);
    const std::optional<Millis> start = herdTriggerStart(experiment);
    if (!end || experiment.clients.loop != HerdClientModel::Loop::Open || series.samples.isEmpty())
        return;
    const qsizetype n = series.samples.size();
    const qint64 step = std::max<qint64>(1, series.resolution.count());
    const qsizetype afterTrigger = qsizetype((end->count() + step - 1) / step);
    const qsizetype tailFrom = std::max(afterTrigger, n - std::max<qsizetype>(1, n / 5));
    if (tailFrom >= n)
        return; // the run ended with the trigger: nothing to judge
    double offered = 0;
    double goodput = 0;
    for (qsizetype i = tailFrom; i < n; ++i) {
        offered += series.samples.at(i).offered;
        goodput += series.samples.at(i).goodput;
    }
    recovered = offered <= 0 || goodput >= 0.8 * offered;
    if (*recovered)
        return;
    const qsizetype from = qsizetype(start->count() / step);
    qsizetype first = n;
    for (qsizetype i = n - 1; i >= from; --i) {
        const HerdSample& s = series.samples.at(i);
        if (s.offered > 0 && s.goodput >= 0.2 * s.offered)
            break;
        first = i;
    }
    if (first < n)
        collapsedAt = Millis(qint64(first) * step);
}
