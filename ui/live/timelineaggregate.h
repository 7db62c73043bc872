// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The timeline's aggregate bands (issue 32 §4): above a number of runs one lane per run is unreadable, so the
// view draws, per time bucket, what the session recorded — attempts started a second, goodput (runs that
// ended in success a second) and the runs waiting before a retry (the mean number whose wait overlaps the
// bucket). Counted from the shown attempts, runs and waits as they are: no policy decision is remade.

#include <QList>

class LiveSession;

struct TimelineAggregate
{
    double startS = 0; // the first bucket's start, on the session axis (seconds)
    double bucketS = 1; // each bucket's width (seconds)
    QList<double> attemptsPerS; // attempts started in the bucket, a second
    QList<double> goodputPerS; // runs that succeeded (their end in the bucket), a second
    QList<double> runsWaiting; // mean runs waiting before a retry during the bucket
    qsizetype attempts = 0; // what was counted
    qsizetype succeeded = 0;
    qsizetype waits = 0;

    qsizetype bucketCount() const { return attemptsPerS.size(); }
    double bucketStart(qsizetype i) const { return startS + bucketS * double(i); }
    bool isEmpty() const { return attemptsPerS.isEmpty(); }

    // A round bucket width (0.1, 0.2, 0.5, 1, 2, 5 … s) giving at most MAX_BUCKETS over SPAN seconds.
    static double bucketFor(double spanS, int maxBuckets = 120);
    // What LIVE shows, in buckets of BUCKET_S seconds (0: bucketFor the span shown).
    static TimelineAggregate of(const LiveSession& live, double bucketS = 0);
};
