// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The delay chart's data: every chosen wait as a point over its retry number (n = 1 is the wait after
// the first attempt), split into backoff-chosen and server-directed waits (Retry-After, hints, the
// throttle), the policy's ceiling envelope and jitter band per retry from backoffRange(), and a
// histogram of the delays. Plain functions and a plain accumulator, tested with exact values.

#include "engine/attemptrecord.h"
#include "policy/retrypolicy.h"

#include <QList>
#include <QPointF>
#include <QStringList>

// Horizontal spread of the I-th point around its retry number so equal delays do not hide each other:
// a golden-ratio sequence in [−0.3, 0.3), deterministic.
double delayPointSpread(qsizetype i);

bool isServerDirected(DelaySource source);

class DelaySeries
{
public:
    void clear();
    void add(const WaitInfo& wait); // one point per scheduled wait

    const QList<QPointF>& backoffPoints() const { return m_backoff; } // (n + spread, seconds)
    const QList<QPointF>& serverPoints() const { return m_server; }
    const QList<double>& backoffDelays() const { return m_backoffDelays; } // seconds, in arrival order
    const QList<double>& serverDelays() const { return m_serverDelays; }
    int maxRetry() const { return m_maxRetry; }
    double maxDelaySeconds() const { return m_maxDelay; }
    qsizetype pointCount() const { return m_backoff.size() + m_server.size(); }

private:
    QList<QPointF> m_backoff;
    QList<QPointF> m_server;
    QList<double> m_backoffDelays;
    QList<double> m_serverDelays;
    int m_maxRetry = 0;
    double m_maxDelay = 0;
};

// The policy's envelope for retries 1…MAX_RETRY, as steps of width 0.8 centred on each n:
// ceiling = the backoff before jitter (capped, floored), band = the range the jitter can choose from.
struct DelayEnvelope
{
    QList<QPointF> ceiling;
    QList<QPointF> bandLow;
    QList<QPointF> bandHigh;
    double maxSeconds = 0;
};
DelayEnvelope delayEnvelope(const RetryPolicy& policy, int maxRetry);

// Delays in equal bins [k·width, (k+1)·width) from 0 to the largest delay, width a 1-2-5 step giving
// about TARGET_BINS bins. Counts per bin for each kind; labels such as "0–0.5 s".
struct DelayHistogram
{
    double binWidth = 0;
    QList<int> backoff;
    QList<int> server;
    QStringList labels;
};
DelayHistogram delayHistogram(const QList<double>& backoff, const QList<double>& server, int targetBins);
