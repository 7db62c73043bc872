// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/fleetmeasure.h"

#include <QHash>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

bool failed(const FleetAttempt& a)
{
    return !a.status || *a.status >= 500 || *a.status == 429;
}

} // namespace

FleetMeasure FleetMeasure::of(const QList<FleetAttempt>& attempts)
{
    FleetMeasure m;
    if (attempts.isEmpty())
        return m;
    double origin = attempts.first().startS, last = attempts.first().endS;
    for (const FleetAttempt& a : attempts) {
        origin = std::min(origin, a.startS);
        last = std::max(last, a.endS);
    }
    m.originS = origin;
    m.spanS = last - origin;
    const int buckets = int(std::ceil(m.spanS)) + 1;
    m.series.resolution = Millis(1000);
    m.series.samples.resize(buckets);
    const auto bucket = [&](double wallS) { return std::clamp(int((wallS - origin)), 0, buckets - 1); };

    // The logical requests: how each began and ended.
    struct Logical
    {
        double start = 0, end = 0;
        int attempts = 0, last = 0;
        bool success = false;
    };
    QHash<QString, Logical> logical;
    QHash<int, int> failureStatuses;
    double failFrom = -1, failUntil = -1;
    for (const FleetAttempt& a : attempts) {
        Logical& l = logical[a.logical];
        if (l.attempts == 0 || a.startS < l.start)
            l.start = a.startS;
        ++l.attempts;
        if (a.attempt >= l.last) {
            l.last = a.attempt;
            l.end = a.endS;
            l.success = a.status && *a.status < 400;
        }
        HerdSample& s = m.series.samples[bucket(a.startS)];
        s.attempts += 1;
        if (a.attempt > 1)
            s.retries += 1;
        if (failed(a)) {
            failureStatuses[a.status.value_or(0)] += 1;
            failFrom = failFrom < 0 ? a.startS - origin : std::min(failFrom, a.startS - origin);
            failUntil = std::max(failUntil, a.endS - origin);
        }
    }
    // The waits: the one drawn after attempt n against the gap to attempt n + 1.
    QHash<QString, QHash<int, const FleetAttempt*>> byNumber;
    for (const FleetAttempt& a : attempts)
        byNumber[a.logical].insert(a.attempt, &a);
    for (const FleetAttempt& a : attempts) {
        if (a.decision != u"retry"_s)
            continue;
        if (const FleetAttempt* next = byNumber.value(a.logical).value(a.attempt + 1))
            m.worstWaitSlipMs = std::max(m.worstWaitSlipMs, std::abs((next->startS - a.endS) - a.delayS) * 1000);
    }
    for (const Logical& l : std::as_const(logical)) {
        m.totals.requests += 1;
        m.totals.attempts += l.attempts;
        m.series.samples[bucket(l.start)].offered += 1;
        if (l.success) {
            m.totals.succeeded += 1;
            m.series.samples[bucket(l.end)].goodput += 1;
        } else {
            m.totals.failed += 1;
        }
        m.totals.completionMs = std::max(m.totals.completionMs, (l.end - origin) * 1000);
    }
    m.totals.serverCalls = m.totals.attempts;

    if (failFrom >= 0) {
        FleetOutage o;
        o.fromS = failFrom;
        o.untilS = failUntil;
        int most = 0;
        for (auto it = failureStatuses.cbegin(); it != failureStatuses.cend(); ++it) {
            if (it.value() > most) {
                most = it.value();
                o.status = it.key();
            }
        }
        m.outage = o;
    }
    // Before the outage: the latency of the answers and the rate sustained (whole seconds only).
    const double before = m.outage ? m.outage->fromS : m.spanS;
    double sum = 0, sq = 0;
    int n = 0;
    for (const FleetAttempt& a : attempts) {
        if (a.startS - origin >= before || failed(a))
            continue;
        const double ms = (a.endS - a.startS) * 1000;
        sum += ms;
        sq += ms * ms;
        ++n;
    }
    if (n > 0) {
        m.latencyMeanMs = sum / n;
        m.latencySdMs = std::sqrt(std::max(0.0, sq / n - m.latencyMeanMs * m.latencyMeanMs));
    }
    const int whole = int(std::floor(before));
    for (int b = 0; b < whole && b < buckets; ++b)
        m.rateBefore = std::max(m.rateBefore, m.series.samples.at(b).attempts);
    if (whole == 0 && before > 0)
        m.rateBefore = n / before;
    return m;
}
