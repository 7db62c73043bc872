// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QList>

// The numbers behind the delay preview: for retries 1…N the min–max band (backoffRange) and the mean
// of the sampled delays, and a histogram of SAMPLES delays drawn through drawBackoff from whole retry
// sequences with a fixed seed (so the preview does not flicker as the user types).
struct DelayDistribution
{
    struct Band
    {
        int retry = 1;
        double lowMs = 0;
        double highMs = 0;
        double meanMs = 0;
    };
    QList<Band> bands;
    QList<int> histogram; // counts per bin
    double binWidthMs = 0;
    int samples = 0;
    double maxSampleMs = 0;

    static constexpr int defaultSamples = 10000;
    static constexpr int bins = 24;
    static constexpr int maxRetriesShown = 20;

    static DelayDistribution compute(const RetryPolicy& policy, int samples = defaultSamples);
};
