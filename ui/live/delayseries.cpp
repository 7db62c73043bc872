// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/delayseries.h"

#include "policy/backoff.h"
#include "live/timelinelayout.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

double delayPointSpread(qsizetype i)
{
    const double golden = 0.6180339887498949;
    const double frac = std::fmod(double(i) * golden, 1.0);
    return (frac - 0.5) * 0.6;
}

bool isServerDirected(DelaySource source)
{
    return source == DelaySource::RetryAfter || source == DelaySource::RetryAfterMs
        || source == DelaySource::ServerHint || source == DelaySource::Throttle;
}

void DelaySeries::clear()
{
    *this = DelaySeries();
}

void DelaySeries::add(const WaitInfo& wait)
{
    const int n = std::max(1, wait.nextIndex - 1);
    const double seconds = double(wait.decision.delay.count()) / 1000.0;
    const qsizetype i = pointCount();
    const QPointF point(n + delayPointSpread(i), seconds);
    if (isServerDirected(wait.decision.source)) {
        m_server.append(point);
        m_serverDelays.append(seconds);
    } else {
        m_backoff.append(point);
        m_backoffDelays.append(seconds);
    }
    m_maxRetry = std::max(m_maxRetry, n);
    m_maxDelay = std::max(m_maxDelay, seconds);
}

DelayEnvelope delayEnvelope(const RetryPolicy& policy, int maxRetry)
{
    DelayEnvelope e;
    Jitter none = policy.jitter;
    none.kind = JitterKind::None;
    for (int n = 1; n <= maxRetry; ++n) {
        const auto [ceilLow, ceilHigh] = backoffRange(policy.backoff, none, n);
        Q_UNUSED(ceilLow);
        const auto [low, high] = backoffRange(policy.backoff, policy.jitter, n);
        const double c = double(ceilHigh.count()) / 1000.0;
        const double lo = double(low.count()) / 1000.0;
        const double hi = double(high.count()) / 1000.0;
        for (const double x : { n - 0.4, n + 0.4 }) {
            e.ceiling.append({ x, c });
            e.bandLow.append({ x, lo });
            e.bandHigh.append({ x, hi });
        }
        e.maxSeconds = std::max({ e.maxSeconds, c, hi });
    }
    return e;
}

DelayHistogram delayHistogram(const QList<double>& backoff, const QList<double>& server, int targetBins)
{
    DelayHistogram h;
    double maxValue = 0;
    for (const QList<double>* list : { &backoff, &server }) {
        for (const double v : *list)
            maxValue = std::max(maxValue, v);
    }
    if (backoff.isEmpty() && server.isEmpty())
        return h;
    h.binWidth = maxValue > 0 ? niceTickStep(maxValue, std::max(1, targetBins)) : 1.0;
    const int bins = std::max(1, int(std::floor(maxValue / h.binWidth + 1e-9)) + 1);
    h.backoff.fill(0, bins);
    h.server.fill(0, bins);
    const auto binOf = [&](double v) { return std::clamp(int(std::floor(v / h.binWidth + 1e-9)), 0, bins - 1); };
    for (const double v : backoff)
        ++h.backoff[binOf(v)];
    for (const double v : server)
        ++h.server[binOf(v)];
    const int decimals = decimalsForStep(h.binWidth);
    for (int k = 0; k < bins; ++k) {
        h.labels << QCoreApplication::translate("DelayHistogram", "%1–%2 s")
                        .arg(k * h.binWidth, 0, 'f', decimals)
                        .arg((k + 1) * h.binWidth, 0, 'f', decimals);
    }
    return h;
}
